"""Landing through KnowledgeBase on a real database: a file that breaks any one lint rule is
refused with that problem and leaves no trace; versions of one artifact are all kept, the
later superseding the earlier; the identical text again adds nothing; a damaged body is
reported on read; search reads the current heads, or the heads of a past moment."""

import hashlib
import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text as sql

from studio.knowledge import lint
from studio.knowledge.front_matter import split_artifact
from studio.knowledge.knowledge_base import KnowledgeBase, Landed
from studio.knowledge.landing import ArtifactRejectedError, with_supersedes
from studio.store.knowledge import ArtifactIntegrityError
from studio.workspace import Workspace
from tests.knowledge.test_lint import BASE, CASES, PREVIOUS

KNOWLEDGE_TABLES_QUERY = (
    "SELECT name FROM sqlite_master WHERE type = 'table' "
    "AND (name LIKE 'artifact%' OR name LIKE 'kg%') ORDER BY name"
)
"""The knowledge store's tables, whatever their names."""

EARLIER_STORIES = """\
---
id: stories
kind: stories
subject: checkout-redesign
title: User stories (first cut)
produced_by: {capability: analysis, workflow: intake-pipeline, execution: exec-1, node: stories}
created_at: 2026-09-01T09:00:00Z
---
# User stories

## Everyone

```yaml story
id: ST-0
title: Check out in one page
```
"""
"""The version BASE (of test_lint) supersedes, so that BASE itself lands clean."""

UNIQUE_WORD = "Restore"
"""In BASE (story ST-2) and in every broken copy of it, not in EARLIER_STORIES."""


@pytest.fixture
def workspace() -> Iterator[Workspace]:
    workspace = Workspace()
    yield workspace
    workspace.close()


@pytest.fixture
def knowledge(workspace: Workspace) -> KnowledgeBase:
    return workspace.knowledge


def counts(knowledge: KnowledgeBase) -> dict[str, int]:
    """Rows in every table of the knowledge store (versions, bodies, derived rows, search)."""
    with knowledge.repository.database.read() as connection:
        names = connection.execute(sql(KNOWLEDGE_TABLES_QUERY)).scalars().all()
        assert "artifact_versions" in names
        return {
            name: connection.execute(sql(f'SELECT count(*) FROM "{name}"')).scalar()
            for name in names
        }


# --- every lint rule refuses, and nothing is stored ----------------------------------------


def lint_codes() -> set[str]:
    """Every problem code lint.py can report, read from its source."""
    source = Path(lint.__file__).read_text(encoding="utf-8")
    literal = set(re.findall(r'"(kg\.[a-z_]+\.[a-z_]+)"', source))
    kebab = {f"kg.front_matter.{name}" for name in ("subject", "id", "kind")}  # _check_kebab
    return literal | kebab


def test_the_cases_break_every_rule_lint_has() -> None:
    covered = {code for _mutate, code in CASES.values()}

    assert lint_codes() <= covered, sorted(lint_codes() - covered)


def test_the_unbroken_text_lands(knowledge: KnowledgeBase) -> None:
    earlier = knowledge.land(EARLIER_STORIES)
    assert earlier == PREVIOUS

    ref = knowledge.land(BASE)

    assert [version.ref for version in knowledge.heads()] == [ref]
    assert [hit.version.ref for hit in knowledge.search(UNIQUE_WORD)] == [ref]


@pytest.mark.parametrize(("mutate", "code"), list(CASES.values()), ids=list(CASES))
def test_a_file_breaking_one_rule_is_refused_and_nothing_is_stored(
    knowledge: KnowledgeBase, mutate: Callable[[str], str], code: str
) -> None:
    knowledge.land(EARLIER_STORIES)
    before = counts(knowledge)
    rows = knowledge.repository.derived_snapshot()
    broken = mutate(BASE)
    assert UNIQUE_WORD in broken

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.land(broken, source="broken.md")

    problems = refused.value.problems
    assert [problem.code for problem in problems] == [code], [p.describe() for p in problems]
    message = str(refused.value)
    assert message.startswith("broken.md was not landed (1 problem(s)):")
    assert problems[0].describe() in message
    assert problems[0].path and problems[0].path in message  # where: a field or a line
    assert knowledge.repository.refs() == {PREVIOUS}
    assert counts(knowledge) == before
    assert knowledge.repository.derived_snapshot() == rows
    assert knowledge.search(UNIQUE_WORD) == []
    assert [version.ref for version in knowledge.heads()] == [PREVIOUS]


def test_a_file_with_several_problems_lists_them_all_and_stores_nothing(
    knowledge: KnowledgeBase,
) -> None:
    broken = BASE.replace("subject: checkout-redesign", "subject: Checkout")
    broken = broken.replace("type: DERIVED_FROM", "type: BLOCKS")
    broken = broken.replace("  id: ST-2", "  id: [ST-2]")
    before = counts(knowledge)

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.land(broken)

    codes = [problem.code for problem in refused.value.problems]
    assert codes == ["kg.front_matter.subject", "kg.link.type", "kg.item.id"]
    for problem in refused.value.problems:
        assert problem.describe() in str(refused.value)
    assert knowledge.repository.refs() == set()
    assert counts(knowledge) == before
    assert knowledge.repository.derived_snapshot() == []


def test_provenance_given_with_a_file_whose_front_matter_cannot_be_read_is_a_rejection(
    knowledge: KnowledgeBase,
) -> None:
    """The engine lands with ``meta``; a text it cannot merge into is refused with every
    problem, as a file landed without ``meta`` would be."""
    unreadable = "# Notes\n\n```yaml epic\nid: E-1\n```\n"

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.land(unreadable, {"produced_by": {"execution": "exec-9"}}, source="run")

    codes = [problem.code for problem in refused.value.problems]
    assert codes == ["kg.front_matter.missing", "kg.item.unknown_type"]
    assert knowledge.repository.refs() == set()


# --- versions --------------------------------------------------------------------------------

FIRST = """\
---
id: requirements
kind: requirements
subject: checkout-redesign
title: Checkout requirements
produced_by: {capability: analysis, execution: exec-1}
created_at: 2026-09-01T10:00:00Z
---
# Checkout requirements

## Scope
The checkout is printed on parchment and takes five pages.

```yaml requirement
id: REQ-1
title: Guest checkout
```
"""

SECOND = (
    FIRST.replace("title: Checkout requirements\n", "title: Checkout requirements (revised)\n")
    .replace("exec-1", "exec-4")
    .replace("2026-09-01T10:00:00Z", "2026-09-08T09:30:00Z")
    .replace("printed on parchment and takes five pages", "one page and accepts wallets")
)

BETWEEN = datetime(2026, 9, 5, tzinfo=UTC)
SUBJECT, ID = "checkout-redesign", "requirements"


@pytest.fixture
def two_versions(knowledge: KnowledgeBase) -> tuple[str, str]:
    return knowledge.land(FIRST), knowledge.land(SECOND)


def test_landing_the_same_artifact_twice_keeps_both(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    first, second = two_versions

    assert first != second
    assert first == "checkout-redesign/requirements/2026-09-01-requirements.md"
    assert second == "checkout-redesign/requirements/2026-09-08-requirements.md"
    assert [version.ref for version in knowledge.history(SUBJECT, ID)] == [first, second]
    assert [version.ref for version in knowledge.heads()] == [second]
    assert [version.ref for version in knowledge.heads(as_of=BETWEEN)] == [first]
    assert knowledge.heads(as_of=datetime(2026, 8, 1, tzinfo=UTC)) == []


def test_each_version_resolves_to_its_text_and_the_later_names_the_earlier(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    first, second = two_versions

    assert knowledge.resolve(first) == FIRST
    stored = knowledge.resolve(second)
    assert split_artifact(stored)[0]["supersedes"] == first
    assert f"\nsupersedes: {first}\n" in stored
    assert stored.replace(f"supersedes: {first}\n", "", 1) == SECOND  # nothing else touched
    assert knowledge.repository.version(second).front.supersedes == first
    assert knowledge.repository.version(first).front.supersedes is None


def test_the_identical_text_again_returns_its_ref_and_adds_nothing(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    first, second = two_versions
    before, rows = counts(knowledge), knowledge.repository.derived_snapshot()

    assert knowledge.land(SECOND) == second
    assert knowledge.land(FIRST) == first  # an older version is not landed over the head
    assert knowledge.land(knowledge.resolve(second)) == second  # as stored, supersedes and all

    assert counts(knowledge) == before
    assert knowledge.repository.derived_snapshot() == rows
    assert [version.ref for version in knowledge.heads()] == [second]


def test_a_changed_text_of_the_same_day_lands_beside_with_its_own_ref(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    _first, second = two_versions
    third_text = SECOND.replace("accepts wallets", "accepts wallets and vouchers")

    third = knowledge.land(third_text)

    assert third == "checkout-redesign/requirements/2026-09-08-requirements-2.md"
    assert knowledge.repository.version(third).front.supersedes == second
    assert [version.ref for version in knowledge.heads()] == [third]
    assert len(knowledge.history(SUBJECT, ID)) == 3


def landed_and_rebuilt_rows(knowledge: KnowledgeBase) -> tuple[list[tuple], list[tuple]]:
    """The derived rows as landing stored them, then as a rebuild derives them."""
    landed = knowledge.repository.derived_snapshot()
    knowledge.rebuild()
    return landed, knowledge.repository.derived_snapshot()


def test_a_version_landed_without_supersedes_has_the_rows_of_the_text_stored(
    knowledge: KnowledgeBase,
) -> None:
    knowledge.land(EARLIER_STORIES)
    ref = knowledge.land(BASE.replace("supersedes: 2026-09-01-stories.md\n", ""))
    assert knowledge.resolve(ref).count("\nsupersedes: ") == 1  # a line more than was given

    assert knowledge.verify().differing == []
    landed, rebuilt = landed_and_rebuilt_rows(knowledge)
    assert landed == rebuilt
    lines = knowledge.resolve(ref).splitlines()
    (story,) = [row for row in rebuilt if row[0] == "node" and row[2] == "ST-1"]
    assert lines[json.loads(story[-1])["line"] - 1] == "```yaml story"


def test_a_created_at_with_an_offset_derives_the_rows_a_rebuild_derives(
    knowledge: KnowledgeBase,
) -> None:
    knowledge.land(EARLIER_STORIES.replace("09:00:00Z", "11:00:00+02:00"))

    assert knowledge.verify().differing == []
    landed, rebuilt = landed_and_rebuilt_rows(knowledge)
    assert landed == rebuilt


def test_search_reads_the_current_heads_and_as_of_finds_the_old_wording(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    first, second = two_versions

    def found(query: str, as_of: datetime | None = None) -> list[str]:
        return [hit.version.ref for hit in knowledge.search(query, as_of=as_of)]

    assert found("checkout") == [second]
    assert found("parchment") == []
    assert found("wallets") == [second]
    assert found("parchment", BETWEEN) == [first]
    assert found("wallets", BETWEEN) == []
    assert found("checkout", BETWEEN) == [first]
    assert found("revised") == [second]  # the title is searched too
    (hit,) = knowledge.search("parchment", as_of=BETWEEN)
    assert "«parchment»" in hit.snippet


def test_the_graph_shows_the_head_and_as_of_the_older_version(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    from studio.knowledge.projection import ViewOptions

    first, second = two_versions
    options = ViewOptions(subject=SUBJECT)

    now = knowledge.graph(options).graph.nodes["requirements"]
    then = knowledge.graph(options, as_of=BETWEEN).graph.nodes["requirements"]

    assert (now["label"], now["ref"]) == ("Checkout requirements (revised)", second)
    assert (then["label"], then["ref"]) == ("Checkout requirements", first)


# --- integrity ------------------------------------------------------------------------------


def test_a_damaged_stored_body_is_reported_on_resolve(
    workspace: Workspace, knowledge: KnowledgeBase
) -> None:
    assert knowledge.repository.refs() == set()  # the database exists now
    tampered = FIRST.replace("five pages", "one page")
    digest = hashlib.sha256(FIRST.encode("utf-8")).hexdigest()
    # Another program wrote a body under the SHA-256 of different text; landing finds "its"
    # body stored already and does not write it again.
    with sqlite3.connect(workspace.database_target) as raw:
        raw.execute(
            "INSERT INTO artifact_bodies (sha256, body, size) VALUES (?, ?, ?)",
            (digest, tampered, len(tampered)),
        )

    ref = knowledge.land(FIRST)

    with pytest.raises(ArtifactIntegrityError, match=f"damaged: {ref}: its text does not match"):
        knowledge.resolve(ref)


def test_as_of_compares_moments_whatever_their_offsets(knowledge: KnowledgeBase) -> None:
    ref = knowledge.land(FIRST.replace("2026-09-01T10:00:00Z", "2026-09-01T23:30:00-05:00"))

    def listed(moment: str) -> list[str]:
        return [version.ref for version in knowledge.heads(as_of=datetime.fromisoformat(moment))]

    assert ref == "checkout-redesign/requirements/2026-09-01-requirements.md"  # its own date
    assert listed("2026-09-02T04:00:00+00:00") == []  # 23:00 in New York
    assert listed("2026-09-02T04:30:00+00:00") == [ref]
    assert listed("2026-09-02T06:00:00+01:00") == [ref]


THIRD = SECOND.replace("2026-09-08T09:30:00Z", "2026-09-10T09:00:00Z").replace(
    "accepts wallets", "accepts wallets and vouchers"
)


def test_the_text_of_any_version_again_adds_nothing_however_long_the_chain(
    knowledge: KnowledgeBase, tmp_path: Path
) -> None:
    """Each version names the one before only because landing added it; the original text
    of a middle version is still that version."""
    refs = [knowledge.land(text) for text in (FIRST, SECOND, THIRD)]
    before = counts(knowledge)

    assert [knowledge.land(text) for text in (FIRST, SECOND, THIRD)] == refs

    assert counts(knowledge) == before
    assert [version.ref for version in knowledge.heads()] == [refs[2]]
    assert knowledge.heads(as_of=BETWEEN) == knowledge.repository.versions()[:1]


def test_ingesting_a_folder_of_versions_twice_adds_nothing(
    knowledge: KnowledgeBase, tmp_path: Path
) -> None:
    for number, text in enumerate((FIRST, SECOND, THIRD), start=1):
        (tmp_path / f"requirements-{number}.md").write_text(text, encoding="utf-8")
    refs = knowledge.ingest(tmp_path)
    before = counts(knowledge)

    assert knowledge.ingest(tmp_path) == refs

    assert counts(knowledge) == before
    assert [version.ref for version in knowledge.history(SUBJECT, ID)] == refs


# --- supersedes: what a new version may replace ----------------------------------------------


def with_front_line(text: str, line: str) -> str:
    """``text`` with one more front matter line, just after the ``id`` line."""
    return text.replace("\nkind:", f"\n{line}\nkind:", 1)


@pytest.mark.parametrize("value", ["", " null", " ~", " ''"], ids=["blank", "null", "~", "''"])
def test_an_empty_supersedes_is_refused_and_the_store_stays_rebuildable(
    knowledge: KnowledgeBase, value: str
) -> None:
    first = knowledge.land(FIRST)
    before = counts(knowledge)

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.land(with_front_line(SECOND, f"supersedes:{value}"), source="second.md")

    (problem,) = refused.value.problems
    assert problem.code == "kg.supersedes.empty"
    assert "'supersedes' is empty" in str(refused.value)
    assert counts(knowledge) == before
    assert [version.ref for version in knowledge.heads()] == [first]
    assert knowledge.rebuild() == 1
    assert knowledge.land(SECOND) != first  # the artifact can still take new versions


@pytest.mark.parametrize(
    "line",
    ["supersedes:", "supersedes: null", "supersedes: ''", '"supersedes": ~', "supersedes: >\n  x"],
)
def test_adding_supersedes_replaces_a_key_the_text_has(line: str) -> None:
    ref = "checkout-redesign/requirements/2026-09-01-requirements.md"
    text = with_front_line(SECOND, line)

    changed = with_supersedes(text, ref)

    data, _body, _line = split_artifact(changed)  # no "duplicate key 'supersedes'"
    assert data["supersedes"] == ref
    assert changed == with_front_line(SECOND, f"supersedes: {ref}")  # nothing else touched


def test_adding_supersedes_to_front_matter_in_flow_style_keeps_one_key() -> None:
    text = "---\n{id: notes, kind: notes, supersedes: null}\n---\n# Notes\n"

    data, body, _line = split_artifact(with_supersedes(text, "s/notes/2026-01-01-notes.md"))

    assert data == {"id": "notes", "kind": "notes", "supersedes": "s/notes/2026-01-01-notes.md"}
    assert body == "# Notes\n"


PLAN = """\
---
id: plan
kind: plan
subject: alpha
title: Alpha plan
produced_by: {capability: planning}
created_at: 2026-09-01T10:00:00Z
---
# Alpha plan
"""

NOTES = """\
---
id: notes
kind: notes
subject: beta
title: Beta notes
produced_by: {capability: writing}
created_at: 2026-09-03T10:00:00Z
---
# Beta notes
"""


@pytest.mark.parametrize(
    ("subject", "artifact_id"), [("beta", "notes"), ("alpha", "notes")], ids=["subject", "id"]
)
def test_a_version_of_another_artifact_cannot_be_superseded(
    knowledge: KnowledgeBase, subject: str, artifact_id: str
) -> None:
    plan = knowledge.land(PLAN)
    beta_notes = knowledge.land(NOTES)
    before = counts(knowledge)
    text = NOTES.replace("subject: beta", f"subject: {subject}")
    text = text.replace("id: notes", f"id: {artifact_id}").replace("03T10", "05T10")

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.land(with_front_line(text, f"supersedes: {plan}"), source="notes.md")

    (problem,) = refused.value.problems
    assert problem.code == "kg.supersedes.other_artifact"
    assert f"supersedes '{plan}', a version of 'alpha/plan', not of " in problem.message
    assert counts(knowledge) == before
    assert [version.ref for version in knowledge.heads()] == [plan, beta_notes]  # alpha/plan too


def test_superseding_a_version_that_is_no_longer_current_is_refused(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    first, second = two_versions
    before = counts(knowledge)
    fork = with_front_line(THIRD, f"supersedes: {first}")

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.land(fork, source="third.md")

    (problem,) = refused.value.problems
    assert problem.code == "kg.supersedes.not_head"
    assert problem.message == (
        f"supersedes '{first}', which {second} supersedes already: only the current version "
        f"{second} can be superseded (name it, or leave 'supersedes' out)"
    )
    assert counts(knowledge) == before
    assert knowledge.land(with_front_line(THIRD, f"supersedes: {second}")) != second


def test_an_ingest_stops_at_a_file_superseding_an_old_version_keeping_those_before(
    knowledge: KnowledgeBase, tmp_path: Path
) -> None:
    write = Path.write_text
    write(tmp_path / "1.md", FIRST)
    write(tmp_path / "2.md", SECOND)
    first = "checkout-redesign/requirements/2026-09-01-requirements.md"
    write(tmp_path / "3.md", with_front_line(THIRD, f"supersedes: {first}"))

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.ingest(tmp_path)

    assert [problem.code for problem in refused.value.problems] == ["kg.supersedes.not_head"]
    assert str(refused.value).startswith(f"{tmp_path / '3.md'} was not landed")
    assert [v.ref for v in knowledge.history(SUBJECT, ID)] == [
        first,
        "checkout-redesign/requirements/2026-09-08-requirements.md",
    ]


def test_a_version_dated_before_the_current_one_is_refused(knowledge: KnowledgeBase) -> None:
    second = knowledge.land(SECOND)
    before = counts(knowledge)

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.land(FIRST, source="first.md")

    (problem,) = refused.value.problems
    assert problem.code == "kg.supersedes.earlier"
    assert problem.message.startswith(
        "created_at 2026-09-01T10:00:00Z is earlier than the version it supersedes "
        f"({second}, created 2026-09-08T09:30:00Z)"
    )
    assert counts(knowledge) == before
    assert knowledge.heads(as_of=BETWEEN) == []  # nothing claims to have been current then
    assert [version.ref for version in knowledge.heads()] == [second]


def test_a_kind_with_path_segments_is_refused(knowledge: KnowledgeBase) -> None:
    text = FIRST.replace("kind: requirements", 'kind: "a/../../b c"')

    with pytest.raises(ArtifactRejectedError) as refused:
        knowledge.land(text)

    assert [problem.code for problem in refused.value.problems] == ["kg.front_matter.kind"]
    assert "kind 'a/../../b c' must be kebab-case" in str(refused.value)
    assert knowledge.repository.refs() == set()


def test_lint_reports_what_landing_would_refuse(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    first, _second = two_versions

    def codes(text: str) -> list[str]:
        return [problem.code for problem in knowledge.lint(text)]

    assert codes(FIRST.replace("five pages", "four pages")) == ["kg.supersedes.earlier"]
    assert codes(with_front_line(THIRD, f"supersedes: {first}")) == ["kg.supersedes.not_head"]
    other = with_front_line(PLAN, f"supersedes: {first}")
    assert codes(other) == ["kg.supersedes.other_artifact"]
    assert codes(FIRST) == []  # landed already: landing it again changes nothing
    assert codes(THIRD) == []
    assert len(knowledge.repository.refs()) == 2  # linting stores nothing


# --- landing again, ingest order --------------------------------------------------------------


def test_landing_a_stored_text_again_tells_which_version_it_is_and_the_head(
    knowledge: KnowledgeBase, two_versions: tuple[str, str]
) -> None:
    first, second = two_versions

    assert knowledge.land_text(THIRD) == Landed(third := knowledge.heads()[0].ref, True, third)
    assert third != second
    assert knowledge.land_text(THIRD) == Landed(third, False, third)
    assert knowledge.land_text(FIRST) == Landed(first, False, third)
    assert knowledge.land_text(knowledge.resolve(second)) == Landed(second, False, third)


def test_ingest_orders_files_by_the_moment_their_created_at_names(
    knowledge: KnowledgeBase, tmp_path: Path
) -> None:
    """07:30 UTC written with an offset and a space sorts before 06:00 UTC as text."""
    later = FIRST.replace("2026-09-01T10:00:00Z", "2026-09-08 09:30:00+02:00")
    earlier = FIRST.replace("2026-09-01T10:00:00Z", "2026-09-08T06:00:00Z").replace(
        "five pages", "six pages"
    )
    (tmp_path / "a-later.md").write_text(later, encoding="utf-8")
    (tmp_path / "b-earlier.md").write_text(earlier, encoding="utf-8")
    (tmp_path / "c-undated.md").write_text("# Not an artifact\n", encoding="utf-8")
    landed: list[str] = []

    with pytest.raises(ArtifactRejectedError, match=r"c-undated\.md was not landed"):
        knowledge.ingest(tmp_path, lambda _done, _total, path: landed.append(path.name))

    assert landed == ["b-earlier.md", "a-later.md"]  # the undated one last
    history = knowledge.history(SUBJECT, ID)
    assert knowledge.resolve(history[0].ref) == earlier
    assert [version.ref for version in knowledge.heads()] == [history[1].ref]
    assert history[1].front.supersedes == history[0].ref


def test_ingest_reads_created_at_from_the_front_matter_never_from_the_body(
    knowledge: KnowledgeBase, tmp_path: Path
) -> None:
    """The later version quotes its key, and its body shows an example line dated earlier."""
    later = (
        FIRST.replace("created_at: 2026-09-01T10:00:00Z", '"created_at": 2026-09-05T10:00:00Z')
        .replace("five pages", "six pages")
        .replace("## Scope\n", "## Scope\n\ncreated_at: 2026-08-01T00:00:00Z\n\n")
    )
    (tmp_path / "a-later.md").write_text(later, encoding="utf-8")
    (tmp_path / "b-first.md").write_text(FIRST, encoding="utf-8")
    landed: list[str] = []

    knowledge.ingest(tmp_path, lambda _done, _total, path: landed.append(path.name))

    assert landed == ["b-first.md", "a-later.md"]
    assert knowledge.resolve(knowledge.heads()[0].ref).endswith(later.split("---\n", 2)[2])
