"""``${...}`` templates: whole-value references keep types, embedded ones become text."""

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.engine.rules.templates import TemplateError, render, render_text

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
PLAIN_TEXT = st.text().filter(lambda text: "${" not in text)
PLAIN_TEMPLATES = st.recursive(
    st.none() | st.booleans() | st.integers() | PLAIN_TEXT,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
CONTEXT = {
    "input": {"name": "Ada", "items": [{"id": 7}, {"id": 8}], "count": 3, "flag": True},
    "parameters": {"limit": None},
    "config": {"region": "eu"},
}


@given(PLAIN_TEMPLATES)
def test_a_template_without_references_comes_back_unchanged(template: Any) -> None:
    assert render(template, CONTEXT) == template


@given(JSON_VALUES)
def test_a_whole_value_reference_keeps_the_json_type(value: Any) -> None:
    assert render("${input.value}", {"input": {"value": value}}) == value


@given(JSON_VALUES, PLAIN_TEXT, PLAIN_TEXT)
def test_an_embedded_reference_becomes_text(value: Any, before: str, after: str) -> None:
    # A "$" just before "${" would make it an escape; the "[" keeps the reference embedded.
    before = ("[" + before).rstrip("$")
    shown = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    expected = value if isinstance(value, str) else shown
    template = f"{before}${{input.value}}{after}"
    assert render(template, {"input": {"value": value}}) == before + expected + after


@given(st.text())
def test_escaping_every_opening_gives_the_text_back(text: str) -> None:
    assert render(text.replace("${", "$${"), {}) == text


def test_references_reach_into_lists_and_objects() -> None:
    template = {
        "who": "${input.name}",
        "second": "${input.items[1].id}",
        "all": ["${input.items}", "${config.region}"],
        "limit": "${parameters.limit}",
        "line": "${input.name} has ${input.count} items: ${input.items} (${input.flag})",
    }
    assert render(template, CONTEXT) == {
        "who": "Ada",
        "second": 8,
        "all": [[{"id": 7}, {"id": 8}], "eu"],
        "limit": None,
        "line": 'Ada has 3 items: [{"id":7},{"id":8}] (true)',
    }


def test_a_whole_value_is_a_copy_not_the_context_itself() -> None:
    rendered = render("${input.items}", CONTEXT)
    rendered.append("more")
    assert CONTEXT["input"]["items"] == [{"id": 7}, {"id": 8}]


def test_dictionary_keys_are_not_templates() -> None:
    assert render({"${input.name}": 1}, CONTEXT) == {"${input.name}": 1}


def test_render_text_always_gives_text() -> None:
    assert render_text("${input.count}", CONTEXT) == "3"
    assert render_text("${parameters.limit}", CONTEXT) == "null"


@pytest.mark.parametrize(
    ("template", "missing"),
    [
        ("${input.missing}", "input.missing"),
        ("hello ${input.items[5].id}!", "input.items[5].id"),
        ("${secrets.token}", "secrets.token"),
        (["fine", {"deep": "${config.region.name}"}], "config.region.name"),
    ],
)
def test_a_reference_that_leads_nowhere_fails_and_names_the_path(
    template: Any, missing: str
) -> None:
    with pytest.raises(TemplateError) as failure:
        render(template, CONTEXT)
    assert failure.value.reference == missing
    assert f"'{missing}'" in str(failure.value)
    assert "${" + missing + "}" in str(failure.value)


@pytest.mark.parametrize("template", ["${input.name", "${}", "a ${input..name} b", "${[0]}"])
def test_a_malformed_reference_fails(template: str) -> None:
    with pytest.raises(TemplateError, match="template"):
        render(template, CONTEXT)


def test_an_escape_writes_a_literal_opening() -> None:
    assert render("$${input.name}", CONTEXT) == "${input.name}"
    assert render("cost: $$${input.count}", CONTEXT) == "cost: $${input.count}"
    assert render("$${input.name} is ${input.name}", CONTEXT) == "${input.name} is Ada"
    assert render("$$ and $ stay", CONTEXT) == "$$ and $ stay"


def test_template_error_is_a_value_error() -> None:
    assert issubclass(TemplateError, ValueError)
