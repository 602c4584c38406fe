"""Splitting an artifact into front matter and body, reading the front matter, naming refs."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
import yaml

from studio.knowledge.front_matter import (
    ArtifactFormatError,
    artifact_ref,
    load_front_matter,
    load_yaml,
    parse_created_at,
    plain,
    read_front_matter,
    split_artifact,
)
from studio.model.knowledge import FrontMatter, Link
from studio.model.safe_yaml import SafeYamlLoader

STORIES = """\
---
id: stories
kind: stories
subject: checkout-redesign
title: User stories
produced_by: {capability: analysis, execution: exec-0004, node: stories}
supersedes: 2026-09-01-stories.md
links:
  - {type: DERIVED_FROM, target: requirements}
created_at: 2026-09-09T11:00:00Z
---
# User stories

Built from [[requirements]].
"""


def test_split_gives_the_mapping_the_body_and_the_line_the_body_starts_on() -> None:
    data, body, body_line = split_artifact(STORIES)

    assert data["id"] == "stories"
    assert data["produced_by"] == {
        "capability": "analysis",
        "execution": "exec-0004",
        "node": "stories",
    }
    assert body == "# User stories\n\nBuilt from [[requirements]].\n"
    assert STORIES.splitlines()[body_line - 1] == "# User stories"
    assert body_line == 12


def test_split_reads_windows_line_endings() -> None:
    data, body, body_line = split_artifact(STORIES.replace("\n", "\r\n"))

    assert data["subject"] == "checkout-redesign"
    assert body.startswith("# User stories")
    assert body_line == 12


def test_empty_front_matter_is_an_empty_mapping() -> None:
    assert split_artifact("---\n---\n# Hello\n") == ({}, "# Hello\n", 3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# No front matter\n", "must start with a '---' line"),
        ("---\nid: x\n# never closed\n", "no closing '---' line"),
    ],
)
def test_a_missing_fence_is_a_format_error_on_line_1(text: str, expected: str) -> None:
    with pytest.raises(ArtifactFormatError) as raised:
        split_artifact(text)

    assert raised.value.reason == "missing"
    assert expected in raised.value.message
    assert raised.value.line == 1


def test_a_yaml_error_names_its_file_line() -> None:
    text = "---\nid: x\nkind: [unclosed\ntitle: y\n---\nbody\n"

    with pytest.raises(ArtifactFormatError) as raised:
        split_artifact(text)

    assert raised.value.reason == "yaml"
    assert raised.value.line in (3, 4, 5)  # where PyYAML notices the open bracket


def test_a_repeated_key_is_refused_with_its_line() -> None:
    text = "---\nid: x\nkind: a\nid: y\n---\n"

    with pytest.raises(ArtifactFormatError) as raised:
        split_artifact(text)

    assert raised.value.reason == "duplicate_key"
    assert raised.value.message == "duplicate key 'id'"
    assert raised.value.line == 4


def test_a_repeated_key_in_a_nested_mapping_is_refused() -> None:
    with pytest.raises(ArtifactFormatError, match="duplicate key 'node'"):
        load_yaml("produced_by:\n  node: a\n  node: b\n")


def test_keys_that_only_look_alike_are_not_duplicates() -> None:
    assert load_yaml("1: int\n'1': text\n") == {1: "int", "1": "text"}


def test_front_matter_that_is_not_a_mapping_is_a_format_error() -> None:
    with pytest.raises(ArtifactFormatError, match="must be a mapping") as raised:
        split_artifact("---\n- id\n- kind\n---\n")

    assert raised.value.reason == "yaml"


def test_the_c_loader_is_used_when_pyyaml_has_it() -> None:
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    assert issubclass(SafeYamlLoader, base)


def test_read_front_matter_builds_the_shared_shape() -> None:
    data, _, _ = split_artifact(STORIES)

    front = read_front_matter(data)

    assert front == FrontMatter(
        id="stories",
        kind="stories",
        subject="checkout-redesign",
        title="User stories",
        produced_by={"capability": "analysis", "execution": "exec-0004", "node": "stories"},
        created_at=datetime(2026, 9, 9, 11, 0, tzinfo=UTC),
        supersedes="checkout-redesign/stories/2026-09-01-stories.md",
        links=(Link(type="DERIVED_FROM", target="requirements"),),
    )


def test_a_full_supersedes_ref_is_kept_as_written() -> None:
    data, _, _ = split_artifact(STORIES)
    data["supersedes"] = "checkout-redesign/backlog/2026-08-01-stories.md"

    assert read_front_matter(data).supersedes == "checkout-redesign/backlog/2026-08-01-stories.md"


def test_created_at_without_a_zone_is_taken_as_utc() -> None:
    assert parse_created_at("2026-09-09T11:00:00") == datetime(2026, 9, 9, 11, tzinfo=UTC)
    assert parse_created_at("2026-09-09T11:00:00+02:00") == datetime(
        2026, 9, 9, 11, tzinfo=timezone(timedelta(hours=2))
    )


@pytest.mark.parametrize("value", ["2026-09-09", date(2026, 9, 9), "soon", 20260909, None])
def test_created_at_must_be_a_date_time(value: object) -> None:
    assert parse_created_at(value) is None


def test_artifact_ref_is_subject_kind_date_and_id() -> None:
    data, _, _ = split_artifact(STORIES)

    assert (
        artifact_ref(read_front_matter(data)) == "checkout-redesign/stories/2026-09-09-stories.md"
    )


def test_plain_turns_dates_into_iso_text() -> None:
    value = {"due": date(2026, 9, 9), "steps": [datetime(2026, 9, 9, 8, tzinfo=UTC), 3]}

    assert plain(value) == {"due": "2026-09-09", "steps": ["2026-09-09T08:00:00+00:00", 3]}


def test_each_caller_gets_its_own_front_matter_to_change() -> None:
    front_text = STORIES.split("---\n")[1]
    first = load_front_matter(front_text)
    first["title"] = "Changed by one caller"
    first["links"].append({"type": "CITES", "target": "design"})
    first["produced_by"]["node"] = "someone-else"

    again = load_front_matter(front_text)

    assert again["title"] == "User stories"
    assert again["links"] == [{"type": "DERIVED_FROM", "target": "requirements"}]
    assert again["produced_by"]["node"] == "stories"


LAUGHS = "\n".join(
    ['  - &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"  - &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 9)]
)
"""The "billion laughs": nine levels of nine aliases, as the items of a YAML list."""


def test_a_billion_laughs_front_matter_is_refused_on_the_line_it_explodes() -> None:
    text = STORIES.replace("links:\n", f"links:\n{LAUGHS}\n", 1)

    with pytest.raises(ArtifactFormatError) as raised:
        split_artifact(text)

    assert raised.value.reason == "limit"
    assert raised.value.line == 15  # a6, the first list too big on its own
    assert raised.value.message.startswith("aliases repeat 490,329,036 values")


def test_a_billion_laughs_item_block_is_refused_on_its_file_line() -> None:
    item = "id: REQ-1\nacceptance:\n" + LAUGHS + "\n"

    with pytest.raises(ArtifactFormatError) as raised:
        load_yaml(item, first_line=30)

    assert (raised.value.reason, raised.value.line) == ("limit", 38)  # a6 again


def test_a_recursive_alias_in_front_matter_is_refused() -> None:
    with pytest.raises(ArtifactFormatError) as raised:
        split_artifact("---\nid: x\nlinks: &l [*l]\n---\n")

    assert raised.value.reason == "limit"
    assert raised.value.message == "an alias is used inside the value it names"


def test_front_matter_nested_too_deep_is_refused() -> None:
    with pytest.raises(ArtifactFormatError) as raised:
        split_artifact("---\nid: x\nlinks: " + "[" * 300 + "]" * 300 + "\n---\n")

    assert (raised.value.reason, raised.value.line) == ("limit", 3)
    assert raised.value.message == "nested deeper than 200 levels"


def test_a_text_over_the_limit_in_front_matter_is_refused() -> None:
    with pytest.raises(ArtifactFormatError, match="a text of 1,000,001 characters"):
        split_artifact("---\nid: x\ntitle: " + "t" * 1_000_001 + "\n---\n")


def test_front_matter_merge_keys_still_work() -> None:
    data, _, _ = split_artifact(
        "---\nbase: &b {capability: analysis, node: a}\nproduced_by: {<<: *b, node: b}\n---\n"
    )

    assert data["produced_by"] == {"capability": "analysis", "node": "b"}
