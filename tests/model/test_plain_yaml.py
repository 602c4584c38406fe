"""Documents of plain values are built without PyYAML's constructor: the values are the ones
the constructor builds, and anything else still goes through it, refusals included."""

import datetime

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.model.safe_yaml import SafeYamlLoader, load_yaml_text

SCALARS = st.sampled_from(
    [
        "REQ-1",
        "Pay as a guest",
        "yes",
        "No",
        "null",
        "~",
        "",
        "12",
        "-3",
        "0x1F",
        "0o17",
        "1_000",
        "1.5",
        "1e3",
        ".inf",
        "-.Inf",
        ".nan",
        "2026-09-01",
        "2026-09-12T09:00:00Z",
        "2026-09-12 09:00:00.5 +02:00",
        "true",
        "on",
        "'quoted: text'",
        '"double \\u00e9"',
        "!!str 12",
        "!!binary aGVsbG8=",
        "!!set {a, b}",
        "https://example.com/brief",
    ]
)
KEYS = st.sampled_from(["id", "title", "when", "ref", "'12'", "12", "yes", "<<", "id"])


def documents(depth: int = 0) -> st.SearchStrategy[str]:
    """A YAML value in flow style: scalars, lists and mappings, repeated keys and merge
    keys sometimes."""
    if depth == 3:
        return SCALARS
    inner = documents(depth + 1)
    lists = st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]")
    pairs = st.lists(st.tuples(KEYS, inner), max_size=3)
    mappings = pairs.map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}")
    return st.one_of(SCALARS, lists, mappings)


@st.composite
def block_documents(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 5))):
        key, value = draw(KEYS), draw(documents(1))
        if draw(st.booleans()):
            lines.append(f"{key}: {value}")
        else:  # a block list of flow values
            items = draw(st.lists(documents(2), min_size=1, max_size=3))
            lines.append(f"{key}:\n" + "".join(f"  - {item}\n" for item in items).rstrip())
    return "\n".join(lines) + "\n"


def typed(value: object) -> object:
    """The value with every leaf's type beside it: 1, 1.0 and True compare equal otherwise."""
    if isinstance(value, dict):
        return {typed(key): typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [typed(item) for item in value]
    if isinstance(value, set):
        return sorted(map(repr, value))
    if isinstance(value, float) and value != value:
        return ("float", "nan")
    return (type(value).__name__, value)


def through_the_constructor(text: str) -> object:
    """What the loader's own constructor builds, after its checks."""
    loader = SafeYamlLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def outcome(read, text: str) -> object:
    try:
        return typed(read(text))
    except yaml.YAMLError as refused:
        return ("refused", type(refused).__name__, str(refused))


@settings(max_examples=400)
@given(st.one_of(documents().map(lambda value: f"value: {value}\n"), block_documents()))
def test_a_document_reads_as_the_constructor_reads_it(text: str) -> None:
    assert outcome(load_yaml_text, text) == outcome(through_the_constructor, text)


def test_a_work_item_envelope_reads_with_its_types() -> None:
    text = (
        "id: bench-000001\nlease: null\ncreated_at: 2026-09-12T09:00:00Z\nrounds: 2\n"
        'context:\n  - {id: brief, type: url, ref: "https://example.com/brief", when: on-demand}\n'
    )
    assert load_yaml_text(text) == {
        "id": "bench-000001",
        "lease": None,
        "created_at": datetime.datetime(2026, 9, 12, 9, 0, tzinfo=datetime.UTC),
        "rounds": 2,
        "context": [
            {"id": "brief", "type": "url", "ref": "https://example.com/brief", "when": "on-demand"}
        ],
    }


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("outer:\n  id: a\n  title: b\n  id: c\n", 4),  # repeated deep in a mapping
        ("items:\n  - {when: now, when: later}\n", 2),
    ],
)
def test_a_repeated_key_inside_plain_values_is_still_refused_with_its_line(
    text: str, line: int
) -> None:
    with pytest.raises(yaml.YAMLError) as refused:
        load_yaml_text(text)
    assert "duplicate key" in str(refused.value)
    assert refused.value.problem_mark.line + 1 == line  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        "a: 1." + "0" * 1_000_001 + "\n",  # a number as long as no text may be
        "a: 1" + "_" * 1_000_001 + "\n",
        "when: 2026-02-30\na: 1\na: 2\n",  # an impossible date beside a repeated key
        "x: !!bool maybe\na: 1\na: 2\n",
        "n: " + "7" * 5000 + "\na: 1\na: 2\n",
    ],
)
def test_a_scalar_the_constructor_refuses_is_refused_as_it_refuses_it(text: str) -> None:
    assert outcome(load_yaml_text, text) == outcome(through_the_constructor, text)
    assert outcome(load_yaml_text, text)[0] == "refused"  # type: ignore[index]


@pytest.mark.parametrize("key", ["yes", "on", "No", "null", "true", "~"])
def test_a_key_that_is_not_text_reads_as_the_constructor_reads_it(key: str) -> None:
    text = f"{key}: REQ-1\n"
    assert outcome(load_yaml_text, text) == outcome(through_the_constructor, text)


def test_a_document_nested_too_deep_is_still_refused() -> None:
    text = "value: " + "[" * 250 + "]" * 250 + "\n"
    with pytest.raises(yaml.YAMLError, match="nested deeper than"):
        load_yaml_text(text)
