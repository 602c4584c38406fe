"""``studio kg`` as a user runs it: real subprocesses on the checkout-redesign corpus, each test
with its own data folder. Ingest with a progress bar, the graph as JSON and as text, lint,
two versions of one artifact seen through history, --as-of and diff, search, coverage and
rebuild."""

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli_runner import REPO_ROOT, run_studio

FIXTURE = REPO_ROOT / "tests" / "knowledge" / "fixtures" / "checkout-redesign"
EXPECTED: dict[str, Any] = yaml.safe_load((FIXTURE / "expected.yaml").read_text("utf-8"))
SUBJECT = "checkout-redesign"
STORIES = FIXTURE / "2026-09-09-stories.md"


def kg(*args: str, expect: int = 0) -> subprocess.CompletedProcess:
    """``studio kg ARGS``, which must exit with ``expect``."""
    result = run_studio("kg", *args)
    assert result.returncode == expect, f"{result.stdout}\n{result.stderr}"
    return result


def kg_json(*args: str, expect: int = 0) -> Any:
    """A ``--json`` command: stdout is exactly one JSON document."""
    return json.loads(kg(*args, "--json", expect=expect).stdout)


def ingest() -> None:
    kg("ingest", str(FIXTURE), "--quiet")


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def edges_of(graph: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(edge["source"], edge["type"], edge["target"]) for edge in graph["edges"]}


def test_ingest_lands_the_folder_with_a_progress_bar_on_stderr() -> None:
    result = kg("ingest", str(FIXTURE))

    count = EXPECTED["artifact_versions"]
    assert result.stdout.strip() == f"landed {count} artifact(s) from {FIXTURE}"
    for done in range(1, count + 1):  # the bar redraws itself ("\r", read here as a new line)
        assert f"] {done}/{count} " in result.stderr
    assert f"[{'█' * 30}] {count}/{count} 2026-09-11-unit-plan.md" in result.stderr
    assert len(kg_json("list")) == EXPECTED["logical_artifacts"]


def test_ingest_with_json_prints_the_refs_and_no_bar(tmp_path: Path) -> None:
    database = tmp_path / "elsewhere.db"

    result = kg("ingest", str(FIXTURE), "--db", str(database), "--json")

    refs = json.loads(result.stdout)["landed"]
    assert len(refs) == EXPECTED["artifact_versions"]
    assert "█" not in result.stderr
    assert database.is_file()
    assert kg_json("list") == []  # the default database was not touched
    assert len(kg_json("list", "--db", str(database))) == EXPECTED["logical_artifacts"]


def test_show_json_gives_nodes_and_edges_with_the_traceability() -> None:
    ingest()

    graph = kg_json("show", "--subject", SUBJECT, "--items", "--units")

    assert set(graph) == {"nodes", "edges"}
    assert all({"id", "type", "label"} <= set(node) for node in graph["nodes"])
    assert all(set(edge) == {"source", "type", "target"} for edge in graph["edges"])
    nodes = {node["id"]: node for node in graph["nodes"]}
    assert nodes["ST-1"]["type"] == "story"
    assert nodes["ST-1"]["label"] == "Pay as a guest"
    assert nodes["unit:cart-store"]["type"] == "unit"
    assert ("ST-1", "COVERS", "REQ-1") in edges_of(graph)
    assert {tuple(triple) for triple in EXPECTED["edges_required"]} <= edges_of(graph)
    assert not any(node["type"] == "section" for node in graph["nodes"])


def test_default_show_draws_artifacts_and_runs_and_counts_what_it_hides() -> None:
    ingest()

    result = kg("show")

    lines = result.stdout.splitlines()
    assert any(line.startswith(f"{SUBJECT}/stories ") for line in lines)
    assert any(line.startswith(f"{SUBJECT}/run:exec-0004 ") for line in lines)
    assert "more neighbours hidden" in result.stdout
    assert "ST-1" not in result.stdout and "REQ-1" not in result.stdout
    assert f"{SUBJECT}/run:exec-0004 -PRODUCES-> {SUBJECT}/stories" in lines


def test_lint_of_a_broken_file_exits_1_with_every_problem_and_where(tmp_path: Path) -> None:
    text = STORIES.read_text("utf-8")
    text = text.replace(f"subject: {SUBJECT}", "subject: Checkout_Redesign")
    text = text.replace("type: CONSUMES", "type: BLOCKS")
    text = text.replace("id: ST-3", "id: [ST-3]")
    broken = write(tmp_path / "broken.md", text)
    fence_line = text.splitlines().index("id: [ST-3]")  # the fence is the line before it

    result = kg("lint", str(broken), expect=1)

    lines = result.stdout.splitlines()
    assert len(lines) == 3, result.stdout
    assert lines[0].startswith(f"{broken}: error: front matter: subject: ")
    assert lines[0].endswith("[kg.front_matter.subject]")
    assert lines[1].startswith(f"{broken}: error: front matter: links[1]: ")
    assert "'BLOCKS'" in lines[1] and lines[1].endswith("[kg.link.type]")
    assert lines[2].startswith(f"{broken}: error: line {fence_line}: yaml story: ")
    assert lines[2].endswith("[kg.item.id]")
    problems = kg_json("lint", str(broken), expect=1)
    assert [problem["code"] for problem in problems] == [
        "kg.front_matter.subject",
        "kg.link.type",
        "kg.item.id",
    ]


def test_lint_of_a_good_file_exits_0() -> None:
    result = kg("lint", str(STORIES))

    assert result.stdout == ""
    assert "would land" in result.stderr


def test_land_of_a_broken_file_exits_1_and_stores_nothing(tmp_path: Path) -> None:
    broken = write(tmp_path / "broken.md", STORIES.read_text("utf-8").replace("id: ST-3", "id:"))

    result = kg("land", str(broken), expect=1)

    assert "was not landed" in result.stderr
    assert "kg.item.missing_field" in result.stderr
    assert kg_json("list") == []
    assert kg("search", "wallet").stdout == ""


def test_a_kind_longer_than_the_store_holds_is_refused_by_lint_and_land(tmp_path: Path) -> None:
    kind = "stories-" + "k" * 57  # 65 characters: the store holds kinds of up to 64
    long = write(
        tmp_path / "long.md", STORIES.read_text("utf-8").replace("kind: stories", f"kind: {kind}")
    )

    result = kg("lint", str(long), expect=1)

    assert result.stdout == (
        f"{long}: error: front matter: kind: kind '{kind[:40]}'… has 65 characters; "
        "the knowledge store holds kinds of at most 64 [kg.front_matter.kind]\n"
    )
    assert "Traceback" not in result.stderr
    assert "kg.front_matter.kind" in kg("land", str(long), expect=1).stderr
    assert kg_json("list") == []


# --- two versions ----------------------------------------------------------------------------

OLD_TITLE, NEW_TITLE = "User stories", "User stories, reordered"
BETWEEN, AFTER = "2026-09-12T00:00:00Z", "2026-09-20"


@pytest.fixture
def two_versions(tmp_path: Path) -> tuple[str, str]:
    """The fixture's stories landed, then a copy created later with another title."""
    later = STORIES.read_text("utf-8")
    later = later.replace("created_at: 2026-09-09T11:00:00Z", "created_at: 2026-09-15T08:00:00Z")
    later = later.replace(f"title: {OLD_TITLE}\n", f"title: {NEW_TITLE}\n")
    first = kg("land", str(STORIES)).stdout.strip()
    second = kg_json("land", str(write(tmp_path / "later.md", later)))["ref"]
    return first, second


def test_history_lists_both_versions(two_versions: tuple[str, str]) -> None:
    first, second = two_versions

    lines = kg("history", SUBJECT, "stories").stdout.splitlines()

    assert len(lines) == 2
    assert "superseded" in lines[0] and lines[0].endswith(first)
    assert "current" in lines[1] and lines[1].endswith(second)
    versions = kg_json("history", SUBJECT, "stories")
    assert [(v["ref"], v["title"], v["supersedes"]) for v in versions] == [
        (first, OLD_TITLE, None),
        (second, NEW_TITLE, first),
    ]


def test_show_as_of_a_time_between_shows_the_older_title(two_versions: tuple[str, str]) -> None:
    first, second = two_versions

    def stories(*args: str) -> dict[str, Any]:
        graph = kg_json("show", "--subject", SUBJECT, *args)
        return next(node for node in graph["nodes"] if node["id"] == "stories")

    assert (stories()["label"], stories()["ref"]) == (NEW_TITLE, second)
    old = stories("--as-of", BETWEEN)
    assert (old["label"], old["ref"]) == (OLD_TITLE, first)
    assert old["created_at"].startswith("2026-09-09")
    text = kg("show", "--as-of", BETWEEN).stdout
    assert OLD_TITLE in text and NEW_TITLE not in text


def test_landing_a_version_again_says_it_had_landed_and_stores_nothing(
    two_versions: tuple[str, str],
) -> None:
    first, second = two_versions

    again = kg("land", str(STORIES))

    assert again.stdout.strip() == first
    assert again.stderr.strip() == f"already landed as {first}; the current head is {second}"
    assert kg_json("land", str(STORIES)) == {"ref": first, "alreadyLanded": True, "head": second}
    assert len(kg_json("history", SUBJECT, "stories")) == 2


def test_landing_the_head_again_says_it_had_landed() -> None:
    ref = kg("land", str(STORIES)).stdout.strip()

    again = kg("land", str(STORIES))

    assert again.stdout.strip() == ref
    assert again.stderr.strip() == f"already landed as {ref}"
    assert kg_json("land", str(STORIES)) == {"ref": ref, "alreadyLanded": True, "head": ref}
    assert len(kg_json("history", SUBJECT, "stories")) == 1


def test_superseding_an_old_version_is_refused_in_a_few_clear_lines(
    two_versions: tuple[str, str], tmp_path: Path
) -> None:
    first, second = two_versions
    fork = STORIES.read_text("utf-8").replace(
        "created_at: 2026-09-09T11:00:00Z",
        f"supersedes: {first}\ncreated_at: 2026-09-16T08:00:00Z",
    )

    result = kg("land", str(write(tmp_path / "fork.md", fork)), expect=1)

    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == f"studio: {tmp_path / 'fork.md'} was not landed (1 problem(s)):"
    assert lines[1].startswith("  error: front matter: supersedes: ")
    assert f"only the current version {second} can be superseded" in lines[1]
    assert lines[1].endswith("[kg.supersedes.not_head]")
    assert len(lines) == 2
    assert len(kg_json("history", SUBJECT, "stories")) == 2


def test_diff_between_the_versions_shows_the_changed_node(two_versions: tuple[str, str]) -> None:
    first, second = two_versions

    text = kg("diff", "--from", BETWEEN, "--to", AFTER).stdout

    assert f"~ {SUBJECT}/stories: label, ref, data" in text.splitlines()
    change = kg_json("diff", "--from", BETWEEN, "--to", AFTER, "--subject", SUBJECT)
    changed = {node["id"]: node for node in change["nodes"]["changed"]}["stories"]
    assert (changed["before"]["label"], changed["after"]["label"]) == (OLD_TITLE, NEW_TITLE)
    assert (changed["before"]["ref"], changed["after"]["ref"]) == (first, second)
    assert change["nodes"]["added"] == change["nodes"]["removed"] == []
    # the run that wrote both versions is drawn from the newer one now
    assert {node["id"] for node in change["nodes"]["changed"]} == {"stories", "run:exec-0004"}
    nothing = kg("diff", "--from", AFTER, "--to", AFTER)
    assert nothing.stdout == "" and "no change" in nothing.stderr


# --- search, coverage, rebuild ---------------------------------------------------------------


def test_search_finds_a_word_in_the_current_artifacts() -> None:
    ingest()

    result = kg("search", "wallets")

    assert f"{SUBJECT}/requirements/2026-09-08-requirements.md" in result.stdout
    assert "«wallets»" in result.stdout
    assert "2026-09-01-requirements.md" not in result.stdout  # superseded
    hits = kg_json("search", "loyalty")
    assert [hit["ref"] for hit in hits] == [f"{SUBJECT}/requirements/2026-09-08-requirements.md"]
    old = kg_json("search", "loyalty", "--as-of", "2026-09-05")
    assert [hit["ref"] for hit in old] == [f"{SUBJECT}/requirements/2026-09-01-requirements.md"]
    nothing = kg("search", "parchment")
    assert nothing.stdout == "" and "nothing matches" in nothing.stderr


def test_search_finds_identifiers_as_written() -> None:
    ingest()

    result = kg("search", "REQ-1")

    refs = [line for line in result.stdout.splitlines() if not line.startswith(" ")]
    assert sorted(refs) == [
        f"{SUBJECT}/requirements/2026-09-08-requirements.md",
        f"{SUBJECT}/stories/2026-09-09-stories.md",
    ]
    assert "«REQ-1»" in result.stdout
    assert len(kg_json("search", "checkout-redesign")) == EXPECTED["logical_artifacts"]
    nothing = kg("search", "plan.md")
    assert nothing.stdout == "" and "nothing matches" in nothing.stderr


UNCOVERED = """\
---
id: compliance
kind: compliance
subject: checkout-redesign
title: Compliance requirements
produced_by: {capability: analysis}
created_at: 2026-09-12T10:00:00Z
---
# Compliance

```yaml requirement
id: REQ-9
title: Strong customer authentication
```
"""


def test_coverage_passes_on_the_fixture_and_fails_on_an_uncovered_requirement(
    tmp_path: Path,
) -> None:
    ingest()
    assert EXPECTED["coverage_gaps"] == []

    clean = kg("coverage")
    assert clean.stdout == ""
    assert "every requirement is covered" in clean.stderr

    kg("land", str(write(tmp_path / "compliance.md", UNCOVERED)))
    gaps = kg("coverage", expect=1)

    assert gaps.stdout.splitlines() == [
        "gap: requirement REQ-9 (Strong customer authentication, in "
        f"{SUBJECT}/compliance/2026-09-12-compliance.md): no story covers it"
    ]
    data = kg_json("coverage", expect=1)
    assert [gap["key"] for gap in data["gaps"]] == ["REQ-9"]
    assert data["suspects"] == []
    assert kg("coverage", "--as-of", "2026-09-11").returncode == 0  # before it landed


def test_rebuild_twice_leaves_the_graph_as_it_was() -> None:
    ingest()
    view = ("show", "--json", "--items", "--units", "--sections")
    landed = kg(*view).stdout

    first = kg("rebuild")
    after_first = kg(*view).stdout
    second = kg_json("rebuild")
    after_second = kg(*view).stdout

    count = EXPECTED["artifact_versions"]
    assert first.stdout.strip() == f"rebuilt the graph rows of {count} artifact version(s)"
    assert second == {"rebuilt": count}
    assert after_first == after_second == landed
    assert any(node["type"] == "section" for node in json.loads(landed)["nodes"])


@pytest.mark.parametrize(
    "command",
    [
        ("show", "--as-of", "last tuesday"),
        ("search", "cart", "--as-of", "last tuesday"),
        ("coverage", "--as-of", "last tuesday"),
        ("diff", "--from", "last tuesday", "--to", "2026-09-20"),
    ],
    ids=["show", "search", "coverage", "diff"],
)
def test_a_time_that_is_not_a_time_is_refused_with_exit_2(command: tuple[str, ...]) -> None:
    result = kg(*command, expect=2)

    assert result.stdout == ""
    assert "'last tuesday' is not a date or time" in result.stderr


def test_resolve_prints_the_stored_text_and_list_the_heads() -> None:
    ingest()
    ref = f"{SUBJECT}/stories/2026-09-09-stories.md"

    assert kg("resolve", ref).stdout == STORIES.read_text("utf-8")
    assert kg_json("resolve", ref)["text"] == STORIES.read_text("utf-8")
    assert "no artifact version" in kg("resolve", f"{SUBJECT}/x/2026-01-01-x.md", expect=1).stderr
    heads = kg("list").stdout
    assert ref in heads
    assert "2026-09-01-requirements.md" not in heads
