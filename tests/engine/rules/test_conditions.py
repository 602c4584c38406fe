"""Edge conditions: total and deterministic (P3), with each operator's JSON semantics."""

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.engine.rules.conditions import evaluate_condition, json_equal, resolve_field_path
from studio.engine.rules.paths import PathNotFound
from studio.model.workflow import CONDITION_OPERATORS, EdgeCondition

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=10,
)
path_steps = st.one_of(st.sampled_from(("a", "b", "status", "0")), st.text(min_size=1, max_size=3))
paths = st.one_of(
    st.lists(
        st.tuples(path_steps, st.lists(st.integers(0, 3), max_size=2)), min_size=1, max_size=3
    ).map(lambda parts: ".".join(name + "".join(f"[{i}]" for i in idx) for name, idx in parts)),
    st.text(min_size=1, max_size=8),  # mostly not in the path grammar
)
operators = st.sampled_from(CONDITION_OPERATORS)

SEED_OUTPUT = {"result": {"status": "approved", "items": [{"name": "a"}, {"name": "b"}]}}


@st.composite
def walks(draw: st.DrawFn, data: Any) -> tuple[str, Any]:
    """A path into ``{"root": data}`` that leads somewhere, and the value it leads to."""
    path, current = "root", data
    while draw(st.booleans()):
        if isinstance(current, list) and current:
            index = draw(st.integers(0, len(current) - 1))
            path, current = f"{path}[{index}]", current[index]
        elif isinstance(current, dict) and (keys := [k for k in current if _is_safe_key(k)]):
            key = draw(st.sampled_from(keys))
            path, current = f"{path}.{key}", current[key]
        else:
            break
    return path, current


def _is_safe_key(key: str) -> bool:
    return bool(key) and not set(key) & set(".[]")


def holds(operator: str, field: str, value: Any, output: Any) -> bool:
    """Evaluate one condition built from its parts."""
    return evaluate_condition(EdgeCondition(field=field, operator=operator, value=value), output)


def nested(depth: int, leaf: Any) -> Any:
    """``leaf`` wrapped in ``depth`` one-element lists."""
    for _ in range(depth):
        leaf = [leaf]
    return leaf


# P3 -------------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(operators, paths, json_values, json_values)
def test_evaluation_is_deterministic_and_total(
    operator: str, field: str, value: Any, output: Any
) -> None:
    condition = EdgeCondition(field=field, operator=operator, value=value)
    first = evaluate_condition(condition, output)
    assert isinstance(first, bool)
    assert evaluate_condition(condition, output) is first
    assert evaluate_condition(condition.model_copy(deep=True), copy.deepcopy(output)) is first
    # The negated operators agree with the ones they negate, found or not.
    assert holds("notEquals", field, value, output) is not holds("equals", field, value, output)
    assert holds("exists", field, False, output) is not holds("exists", field, True, output)


@settings(max_examples=200)
@given(json_values, st.data())
def test_a_path_that_exists_finds_its_value(output: Any, data: st.DataObject) -> None:
    field, value = data.draw(walks(output))
    assert resolve_field_path({"root": output}, field) is value
    assert holds("equals", field, value, {"root": output})
    assert not holds("notEquals", field, value, {"root": output})
    assert holds("exists", field, None, {"root": output}) is (value is not None)


@settings(max_examples=200)
@given(operators, json_values, json_values)
def test_a_missing_field_fails_every_operator_but_not_equals(
    operator: str, value: Any, present: Any
) -> None:
    output = {"present": present}
    expected = operator == "notEquals" or (operator == "exists" and value is False)
    assert holds(operator, "absent", value, output) is expected
    assert holds(operator, "present.a..b", value, output) is expected  # not a valid path


@settings(max_examples=200)
@given(json_values)
def test_every_json_value_equals_itself_and_a_copy(value: Any) -> None:
    assert holds("equals", "f", value, {"f": value})
    assert holds("equals", "f", copy.deepcopy(value), {"f": value})
    assert holds("contains", "f", value, {"f": [0, value]})


@settings(max_examples=200)
@given(json_scalars, json_scalars)
def test_greater_than_and_less_than_never_both_hold(actual: Any, value: Any) -> None:
    greater, less = (
        holds("greaterThan", "f", value, {"f": actual}),
        holds("lessThan", "f", value, {"f": actual}),
    )
    assert not (greater and less)
    if greater or less:
        assert not holds("equals", "f", value, {"f": actual})


@settings(max_examples=200)
@given(st.one_of(st.integers(), st.floats(allow_nan=False)), st.integers())
def test_numbers_compare_numerically(actual: float, value: int) -> None:
    assert holds("greaterThan", "n", value, {"n": actual}) is (actual > value)
    assert holds("lessThan", "n", value, {"n": actual}) is (actual < value)


# Examples -------------------------------------------------------------------------------------


def test_seed_example_routes_approved_and_not_rejected() -> None:
    output = {"result": {"status": "approved"}}
    assert resolve_field_path(output, "result.status") == "approved"
    assert holds("equals", "result.status", "approved", output)
    assert not holds("equals", "result.status", "rejected", output)


def test_no_condition_always_holds() -> None:
    assert evaluate_condition(None, None)
    assert evaluate_condition(None, {"anything": [1]})


def test_nested_indexes_reach_into_lists() -> None:
    assert resolve_field_path(SEED_OUTPUT, "result.items[1].name") == "b"
    assert holds("equals", "result.items[1].name", "b", SEED_OUTPUT)
    assert holds("exists", "result.items[0]", None, SEED_OUTPUT)
    assert not holds("exists", "result.items[2]", None, SEED_OUTPUT)
    assert holds("notEquals", "result.items[2].name", "b", SEED_OUTPUT)
    with pytest.raises(PathNotFound):
        resolve_field_path(SEED_OUTPUT, "result.items[2]")


@pytest.mark.parametrize(
    ("actual", "value", "expected"),
    [
        (1, 1.0, True),
        (0, -0.0, True),
        (True, True, True),
        (True, 1, False),
        (1, True, False),
        (False, 0, False),
        (0.0, False, False),
        (None, None, True),
        (None, False, False),
        ("1", 1, False),
        ([1, True], [1.0, True], True),
        ([True], [1], False),
        ({"a": [0]}, {"a": [0.0]}, True),
        ({"a": False}, {"a": 0}, False),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        ([1, 2], [2, 1], False),
        ([], {}, False),
    ],
)
def test_equals_is_json_equality(actual: Any, value: Any, expected: bool) -> None:
    assert holds("equals", "f", value, {"f": actual}) is expected
    assert holds("notEquals", "f", value, {"f": actual}) is not expected
    assert json_equal(actual, value) is expected


@pytest.mark.parametrize(
    ("actual", "value", "expected"),
    [
        ("approved by Ann", "by", True),
        ("approved", "", True),
        ("approved", "rejected", False),
        ("123", 2, False),
        ([1, "b", None], "b", True),
        ([1, "b", None], None, True),
        ([1.0], 1, True),
        ([1], True, False),
        ([[1, 2]], [1, 2], True),
        ([[1, 2]], 1, False),
        ({"key": 0}, "key", True),
        ({"key": 0}, 0, False),
        ({"key": 0}, ["key"], False),  # an unhashable value is simply not a key
        (12, 1, False),
        (None, None, False),
    ],
)
def test_contains(actual: Any, value: Any, expected: bool) -> None:
    assert holds("contains", "f", value, {"f": actual}) is expected


@pytest.mark.parametrize(
    ("actual", "value", "greater", "less"),
    [
        (3, 2.5, True, False),
        (2, 2.0, False, False),
        (-1, 0, False, True),
        ("b", "a", True, False),
        ("B", "a", False, True),
        ("10", "9", False, True),  # strings compare lexicographically
        ("10", 9, False, False),
        (True, 0, False, False),  # a bool is not a number
        (1, False, False, False),
        (None, 0, False, False),
        ([2], [1], False, False),
    ],
)
def test_greater_than_and_less_than(actual: Any, value: Any, greater: bool, less: bool) -> None:
    assert holds("greaterThan", "f", value, {"f": actual}) is greater
    assert holds("lessThan", "f", value, {"f": actual}) is less


@pytest.mark.parametrize(
    ("output", "exists"),
    [
        ({"f": 0}, True),
        ({"f": False}, True),
        ({"f": ""}, True),
        ({"f": []}, True),
        ({"f": None}, False),
        ({}, False),
        ([], False),
        ("f", False),
        (None, False),
    ],
)
def test_exists_means_present_and_not_null(output: Any, exists: bool) -> None:
    assert holds("exists", "f", None, output) is exists
    assert holds("exists", "f", True, output) is exists
    assert holds("exists", "f", False, output) is not exists


def test_deeply_nested_values_compare_without_recursion_errors() -> None:
    deep, twin = nested(5000, 1), nested(5000, 1.0)
    assert holds("equals", "f", twin, {"f": deep})
    assert holds("contains", "f", twin, {"f": [0, deep]})
    assert not holds("equals", "f", nested(5000, True), {"f": deep})
    assert not holds("equals", "f", nested(4999, 1), {"f": deep})


def test_an_index_too_long_to_read_is_a_missing_field() -> None:
    field = "f[" + "9" * 5000 + "]"
    assert not holds("exists", field, None, {"f": [1]})
    assert holds("notEquals", field, 1, {"f": [1]})
