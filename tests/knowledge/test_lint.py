"""The land-time lint: each rule caught on its own, every problem reported, the fixture clean."""

import dataclasses
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.knowledge.front_matter import artifact_ref, read_front_matter, split_artifact
from studio.knowledge.lint import lint_artifact
from studio.model.identifiers import MAX_ID_CHARS
from studio.model.knowledge import FrontMatter
from studio.store.knowledge_schema import artifact_versions
from tests.cli_runner import REPO_ROOT

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "checkout-redesign"

PREVIOUS = "checkout-redesign/stories/2026-09-01-stories.md"
KNOWN = {
    PREVIOUS: FrontMatter(
        id="stories",
        kind="stories",
        subject="checkout-redesign",
        title="User stories (first cut)",
        produced_by={"capability": "analysis"},
        created_at=datetime(2026, 9, 1, 9, tzinfo=UTC),
    )
}
"""The landed versions, with the front matter of each: BASE supersedes the one there is."""

BASE = """\
---
id: stories
kind: stories
subject: checkout-redesign
title: User stories
produced_by: {capability: analysis, workflow: intake-pipeline, execution: exec-4, node: stories}
supersedes: 2026-09-01-stories.md
links:
  - {type: DERIVED_FROM, target: requirements}
created_at: 2026-09-09T11:00:00Z
---
# User stories

Built from [[requirements]].

## Guest path

```yaml story
id: ST-1
title: Pay as a guest
persona: P-GUEST
covers: [REQ-1]
```

- A list item with a story in it:

  ```yaml story
  id: ST-2
  title: Restore my cart
  depends_on: ST-1
  ```
"""


def replace(old: str, new: str) -> Callable[[str], str]:
    """A mutation of the base text that replaces ``old`` (which must be there) once."""

    def mutate(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    return mutate


def drop_line(start: str) -> Callable[[str], str]:
    """A mutation that removes the front matter line starting with ``start``."""
    line = next(line for line in BASE.splitlines(keepends=True) if line.startswith(start))
    return replace(line, "")


FRONT_MATTER_ONLY = BASE[BASE.index("\n---\n") + 5 :]

CASES = {
    "no opening fence": (lambda text: text.removeprefix("---\n"), "kg.front_matter.missing"),
    "no closing fence": (replace("Z\n---\n", "Z\n"), "kg.front_matter.missing"),
    "front matter yaml": (replace("title: User", "title: [User"), "kg.front_matter.yaml"),
    "front matter a list": (
        lambda _: "---\n- id\n- kind\n---\n" + FRONT_MATTER_ONLY,
        "kg.front_matter.yaml",
    ),
    "front matter duplicate key": (
        replace("title: User stories\n", "title: User stories\nkind: notes\n"),
        "kg.front_matter.duplicate_key",
    ),
    "front matter nested too deep": (
        replace("links:\n", "links:\n  - " + "[" * 250 + "]" * 250 + "\n"),
        "kg.front_matter.limit",
    ),
    "item nested too deep": (
        replace(
            "covers: [REQ-1]\n", "covers: [REQ-1]\nacceptance: " + "[" * 250 + "]" * 250 + "\n"
        ),
        "kg.item.limit",
    ),
    **{
        f"missing {name}": (drop_line(f"{name}:"), "kg.front_matter.missing_field")
        for name in ("id", "kind", "subject", "title", "produced_by", "created_at")
    },
    "empty title": (replace("title: User stories", "title:"), "kg.front_matter.missing_field"),
    "title a number": (replace("title: User stories", "title: 12"), "kg.front_matter.type"),
    "links not a list": (
        replace("links:\n  - {type: DERIVED_FROM, target: requirements}", "links: requirements"),
        "kg.front_matter.type",
    ),
    "created_at a date": (
        replace("2026-09-09T11:00:00Z", "2026-09-09"),
        "kg.front_matter.created_at",
    ),
    "created_at words": (
        replace("2026-09-09T11:00:00Z", "next tuesday"),
        "kg.front_matter.created_at",
    ),
    "produced_by unknown key": (
        replace("node: stories}", "step: stories}"),
        "kg.front_matter.produced_by",
    ),
    "produced_by not a mapping": (
        replace(
            "produced_by: {capability: analysis, workflow: intake-pipeline, execution: exec-4, "
            "node: stories}",
            "produced_by: analysis",
        ),
        "kg.front_matter.produced_by",
    ),
    "produced_by value a list": (
        replace("node: stories}", "node: [a, b]}"),
        "kg.front_matter.produced_by",
    ),
    "subject not kebab-case": (
        replace("subject: checkout-redesign", "subject: Checkout_Redesign"),
        "kg.front_matter.subject",
    ),
    "id not kebab-case": (replace("id: stories", "id: user--stories"), "kg.front_matter.id"),
    "kind with path segments": (
        replace("kind: stories", 'kind: "a/../../b c"'),
        "kg.front_matter.kind",
    ),
    "kind not kebab-case": (replace("kind: stories", "kind: User_Stories"), "kg.front_matter.kind"),
    "kind longer than the store holds": (
        replace("kind: stories", f"kind: {'k' * 65}"),
        "kg.front_matter.kind",
    ),
    "supersedes empty": (
        replace("supersedes: 2026-09-01-stories.md", "supersedes:"),
        "kg.supersedes.empty",
    ),
    "supersedes null": (
        replace("supersedes: 2026-09-01-stories.md", "supersedes: null"),
        "kg.supersedes.empty",
    ),
    "supersedes blank text": (
        replace("supersedes: 2026-09-01-stories.md", "supersedes: ' '"),
        "kg.supersedes.empty",
    ),
    "supersedes another artifact's version": (
        replace("id: stories\n", "id: user-stories\n"),
        "kg.supersedes.other_artifact",
    ),
    "created_at before the version it supersedes": (
        replace("2026-09-09T11:00:00Z", "2026-08-31T11:00:00Z"),
        "kg.supersedes.earlier",
    ),
    "supersedes unresolved": (
        replace("2026-09-01-stories.md", "2026-08-01-stories.md"),
        "kg.supersedes.unresolved",
    ),
    "link type not allowed": (replace("type: DERIVED_FROM", "type: BLOCKS"), "kg.link.type"),
    "link without target": (replace(", target: requirements}", "}"), "kg.link.target"),
    "link not a mapping": (
        replace("  - {type: DERIVED_FROM, target: requirements}", "  - requirements"),
        "kg.link.entry",
    ),
    "unknown item type": (
        replace("```yaml story\nid: ST-1", "```yaml epic\nid: ST-1"),
        "kg.item.unknown_type",
    ),
    "item yaml": (replace("title: Pay as a guest", "title: [Pay as a guest"), "kg.item.yaml"),
    "item a list": (
        replace("id: ST-1\ntitle: Pay as a guest\n", "- ST-1\n- Pay as a guest\n"),
        "kg.item.yaml",
    ),
    "item duplicate key": (
        replace("title: Pay as a guest\n", "title: Pay as a guest\ntitle: Again\n"),
        "kg.item.duplicate_key",
    ),
    "item missing field": (replace("title: Pay as a guest\n", ""), "kg.item.missing_field"),
    "item unknown field": (
        replace("title: Pay as a guest\n", "title: Pay as a guest\ncolour: red\n"),
        "kg.item.unknown_field",
    ),
    "relation a mapping": (replace("covers: [REQ-1]", "covers: {REQ-1: yes}"), "kg.item.relation"),
    "relation numbers": (replace("covers: [REQ-1]", "covers: [1, 2]"), "kg.item.relation"),
    "item id a list": (replace("id: ST-1", "id: [ST-1]"), "kg.item.id"),
    "item id with a space": (replace("id: ST-1", "id: ST 1"), "kg.item.id"),
    "item id repeated": (replace("  id: ST-2", "  id: ST-1"), "kg.item.duplicate_id"),
}


def test_the_base_text_is_clean() -> None:
    assert lint_artifact(BASE, known_refs=KNOWN) == []


@pytest.mark.parametrize(("mutate", "code"), list(CASES.values()), ids=list(CASES))
def test_each_rule_is_caught_on_its_own(mutate: Callable[[str], str], code: str) -> None:
    text = mutate(BASE)

    problems = lint_artifact(text, known_refs=KNOWN)

    assert [problem.code for problem in problems] == [code], [p.describe() for p in problems]
    assert all(problem.severity == "error" for problem in problems)


def test_every_problem_is_returned_not_just_the_first() -> None:
    text = BASE.replace("subject: checkout-redesign", "subject: Checkout")
    text = text.replace("type: DERIVED_FROM", "type: BLOCKS")
    text = text.replace("```yaml story\nid: ST-1", "```yaml epic\nid: ST-1")
    text = text.replace("  id: ST-2", "  id: [ST-2]")

    codes = [problem.code for problem in lint_artifact(text, known_refs=KNOWN)]

    assert codes == [
        "kg.front_matter.subject",
        "kg.link.type",
        "kg.item.unknown_type",
        "kg.item.id",
    ]


def test_items_are_linted_even_when_the_front_matter_is_broken() -> None:
    text = BASE.replace("title: User", "title: [User").replace("  id: ST-2", "  id: ST-1")

    codes = [problem.code for problem in lint_artifact(text, known_refs=KNOWN)]

    assert codes == ["kg.front_matter.yaml", "kg.item.duplicate_id"]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_front_matter_problems_say_which_field() -> None:
    text = BASE.replace("subject: checkout-redesign", "subject: Checkout")

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.path == "front matter: subject"
    assert "'Checkout' must be kebab-case" in problem.message


def test_item_problems_name_the_fence_line_and_type() -> None:
    text = BASE.replace("title: Pay as a guest\n", "")

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.path == f"line {line_of(text, '```yaml story')}: yaml story"
    assert "story needs 'title'" in problem.message


def test_an_item_yaml_error_names_the_line_it_is_on() -> None:
    text = BASE.replace("covers: [REQ-1]", "covers: [REQ-1\n")

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.code == "kg.item.yaml"
    assert problem.path is not None
    line = int(problem.path.split(":")[0].removeprefix("line "))
    assert line_of(text, "covers: [REQ-1") <= line <= line_of(text, "```\n\n- A list")


def test_a_yaml_error_in_the_front_matter_names_its_line() -> None:
    text = BASE.replace("title: User stories", "title: User: stories")

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.path == f"line {line_of(text, 'title: User')}: front matter"


def test_an_unknown_item_type_lists_the_registered_ones() -> None:
    text = BASE.replace("```yaml story\nid: ST-1", "```yaml epic\nid: ST-1")

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.message.startswith("unknown item type 'epic'; registered: requirement, story")
    assert "unit" in problem.message


def test_a_plain_yaml_fence_is_not_an_item() -> None:
    text = BASE + "\n```yaml\nanything: [goes\n```\n\n```python story\nx = 1\n```\n"

    assert lint_artifact(text, known_refs=KNOWN) == []


def test_known_refs_may_be_a_function() -> None:
    asked: list[str] = []

    def known(ref: str) -> bool:
        asked.append(ref)
        return False

    codes = [problem.code for problem in lint_artifact(BASE, known_refs=known)]

    assert codes == ["kg.supersedes.unresolved"]
    assert asked == [PREVIOUS]


def test_a_full_supersedes_ref_is_looked_up_as_written() -> None:
    text = BASE.replace("2026-09-01-stories.md", "checkout-redesign/backlog/2026-08-01-old.md")

    assert lint_artifact(text, known_refs={"checkout-redesign/backlog/2026-08-01-old.md"}) == []
    assert lint_artifact(text, known_refs=KNOWN)[0].code == "kg.supersedes.unresolved"


def test_the_fixture_folder_lints_clean_in_date_order() -> None:
    landed: set[str] = set()
    for path in sorted(FIXTURE.glob("2026-*.md")):
        text = path.read_text(encoding="utf-8")

        assert lint_artifact(text, known_refs=landed) == [], path.name

        landed.add(artifact_ref(read_front_matter(split_artifact(text)[0])))
    assert len(landed) == 6


def test_a_supersedes_of_another_subject_names_both_artifacts() -> None:
    other = "billing/notes/2026-08-01-notes.md"
    known = {other: dataclasses.replace(KNOWN[PREVIOUS], subject="billing", id="notes")}
    text = BASE.replace("2026-09-01-stories.md", other)

    (problem,) = lint_artifact(text, known_refs=known)

    assert problem.code == "kg.supersedes.other_artifact"
    assert problem.path == "front matter: supersedes"
    assert f"supersedes '{other}', a version of 'billing/notes', not of " in problem.message
    assert "'checkout-redesign/stories'" in problem.message


def test_a_backdated_version_is_refused_with_both_dates() -> None:
    text = BASE.replace("2026-09-09T11:00:00Z", "2026-09-01T08:59:00+00:00")

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.path == "front matter: created_at"
    assert problem.message.startswith(
        "created_at 2026-09-01T08:59:00Z is earlier than the version it supersedes "
        f"({PREVIOUS}, created 2026-09-01T09:00:00Z)"
    )


def test_a_version_dated_with_the_one_it_supersedes_is_clean() -> None:
    text = BASE.replace("2026-09-09T11:00:00Z", "2026-09-01T11:00:00+02:00")  # 09:00 UTC

    assert lint_artifact(text, known_refs=KNOWN) == []


@pytest.mark.parametrize(
    "artifact_id",
    ["s" * 129, "stories\n", "stories#comp", "stories/../x", "-stories"],
    ids=["too-long", "trailing-newline", "hash", "separator", "leading-hyphen"],
)
def test_an_artifact_id_outside_the_id_pattern_is_refused_naming_the_pattern(
    artifact_id: str,
) -> None:
    text = BASE.replace("id: stories\n", f"id: {artifact_id!r}\n".replace("'", '"'), 1)

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert (problem.code, problem.path) == ("kg.front_matter.id", "front matter: id")
    assert "\n" not in problem.message
    assert problem.message.endswith("(pattern [A-Za-z0-9][A-Za-z0-9._-]{0,127})")


def test_an_artifact_id_at_the_id_length_is_fine() -> None:
    text = BASE.replace("id: stories\n", f"id: {'s' * 128}\n", 1)
    text = text.replace("supersedes: 2026-09-01-stories.md\n", "")

    assert lint_artifact(text, known_refs=KNOWN) == []


def with_key(field: str, value: str, text: str = BASE) -> str:
    """``text`` with its subject, id or kind set to ``value`` and no ``supersedes``."""
    old = {"subject": "checkout-redesign", "id": "stories", "kind": "stories"}[field]
    text = text.replace("supersedes: 2026-09-01-stories.md\n", "")
    return text.replace(f"\n{field}: {old}\n", f"\n{field}: {value}\n", 1)


def longest_landing(field: str) -> int:
    """The length of the longest subject, id or kind (in letters) the lint lets through."""
    return next(
        length
        for length in range(300, 0, -1)
        if lint_artifact(with_key(field, "k" * length), known_refs=KNOWN) == []
    )


def test_a_kind_longer_than_the_store_holds_is_refused_saying_so() -> None:
    (problem,) = lint_artifact(with_key("kind", "k" * 65), known_refs=KNOWN)

    assert (problem.code, problem.path) == ("kg.front_matter.kind", "front matter: kind")
    assert problem.message == (
        f"kind '{'k' * 40}'… has 65 characters; the knowledge store holds kinds of at most 64"
    )
    assert lint_artifact(with_key("kind", "k" * 64), known_refs=KNOWN) == []


@pytest.mark.parametrize(
    ("field", "column"), [("subject", "subject"), ("id", "artifact_id"), ("kind", "kind")]
)
def test_no_subject_id_or_kind_lands_longer_than_its_column_holds(field: str, column: str) -> None:
    held = artifact_versions.c[column].type.length

    assert longest_landing(field) == min(MAX_ID_CHARS, held)


def test_the_ref_of_the_longest_subject_kind_and_id_fits_its_column() -> None:
    text = BASE.replace("supersedes: 2026-09-01-stories.md\n", "")
    for field in ("subject", "kind", "id"):
        text = with_key(field, "k" * longest_landing(field), text)
    assert lint_artifact(text, known_refs=KNOWN) == []

    ref = artifact_ref(read_front_matter(split_artifact(text)[0]))

    # "-2", "-3", ... is added to the ref of a second version of the same day
    assert len(ref) + len("-999999") <= artifact_versions.c.ref.type.length


LAUGHS = "\n".join(
    ['  - &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"  - &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 9)]
)
"""Nine levels of nine aliases: the "billion laughs"."""


def laughs_in_front_matter() -> str:
    return BASE.replace("links:\n", f"links:\n{LAUGHS}\n", 1)


def laughs_in_an_item() -> str:
    return BASE.replace("covers: [REQ-1]\n", f"covers: [REQ-1]\nacceptance:\n{LAUGHS}\n", 1)


def test_lint_refuses_billion_laughs_front_matter_with_its_line() -> None:
    text = laughs_in_front_matter()

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.code == "kg.front_matter.limit"
    assert problem.path == f"line {line_of(text, '  - &a6')}: front matter"
    assert problem.message.startswith("aliases repeat 490,329,036 values")


def test_lint_refuses_a_billion_laughs_item_with_its_line() -> None:
    text = laughs_in_an_item()

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.code == "kg.item.limit"
    assert problem.path == f"line {line_of(text, '  - &a6')}: yaml story"


@pytest.mark.parametrize("where", ["front matter", "item"])
@pytest.mark.parametrize("command", ["lint", "land"])
def test_kg_lint_and_land_refuse_billion_laughs_at_once(
    tmp_path: Path, command: str, where: str
) -> None:
    path = tmp_path / "stories.md"
    text = laughs_in_front_matter() if where == "front matter" else laughs_in_an_item()
    path.write_text(text.replace("supersedes: 2026-09-01-stories.md\n", ""), encoding="utf-8")

    result = subprocess.run(
        [sys.executable, "-m", "studio", "kg", command, str(path)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )

    assert result.returncode == 1
    assert "aliases repeat 490,329,036 values" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_an_item_text_over_the_limit_is_refused_even_in_the_simplest_shape() -> None:
    text = BASE.replace("title: Pay as a guest\n", f"title: {'P' * 1_000_001}\n", 1)

    (problem,) = lint_artifact(text, known_refs=KNOWN)

    assert problem.code == "kg.item.limit"
    assert problem.message == "a text of 1,000,001 characters; at most 1,000,000 are allowed"
