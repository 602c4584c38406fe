"""``studio kg`` on a knowledge store another program has tampered with: the checkout-redesign
corpus is ingested, then the database file is changed with the plain sqlite3 module, as an
attacker or a careless tool would. Conflicting inserts are refused; a change made behind the
triggers' back is never shown: every command shows the rest, names the damaged version on
stderr ("damaged: <ref>: …") and exits 1, and ``kg verify`` lists every damaged version."""

import json
import sqlite3
from pathlib import Path

import pytest

from tests.cli.test_kg_handlers import EXPECTED, SUBJECT, ingest, kg, kg_json
from tests.store.test_knowledge_integrity import raw as tamper

STORIES = f"{SUBJECT}/stories/2026-09-09-stories.md"
REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-08-requirements.md"
PLANTED = "Pay the attacker first"


@pytest.fixture
def database(studio_data_dir: Path) -> Path:
    """The default database, with the corpus ingested."""
    ingest()
    return studio_data_dir / "studio.db"


def retitle_stories_behind_the_triggers(database: Path) -> None:
    tamper(
        database,
        "DROP TRIGGER artifact_versions_no_update",
        "UPDATE artifact_versions SET title = ? WHERE ref = ?",
        parameters=(PLANTED, STORIES),
    )


def rewrite_stories_text_behind_the_triggers(database: Path) -> None:
    tamper(
        database,
        "DROP TRIGGER artifact_bodies_no_update",
        "UPDATE artifact_bodies SET body = replace(body, 'Pay as a guest', ?) "
        "WHERE sha256 = (SELECT sha256 FROM artifact_versions WHERE ref = ?)",
        parameters=(PLANTED, STORIES),
    )


def assert_names_the_damage(result, ref: str = STORIES) -> None:
    assert result.returncode == 1, f"{result.stdout}\n{result.stderr}"
    assert f"studio: damaged: {ref}: " in result.stderr
    assert PLANTED not in result.stdout
    assert "Traceback" not in result.stderr


# --- conflicting inserts ---------------------------------------------------------------------


def test_replace_into_a_landed_version_is_refused_and_the_title_stays(database: Path) -> None:
    columns = (
        "ref, subject, artifact_id, kind, title, created_at, landed_at, sha256, supersedes, "
        "produced_by, links, seq"
    )
    with pytest.raises(sqlite3.IntegrityError, match="artifact versions are append-only"):
        tamper(
            database,
            f"INSERT OR REPLACE INTO artifact_versions ({columns}) "
            f"SELECT {columns.replace('title', '?')} FROM artifact_versions WHERE ref = ?",
            parameters=(PLANTED, STORIES),
        )
    with pytest.raises(sqlite3.IntegrityError, match="artifact bodies are append-only"):
        tamper(
            database,
            "REPLACE INTO artifact_bodies (sha256, body, size) "
            "SELECT sha256, ?, 22 FROM artifact_versions WHERE ref = ?",
            parameters=(PLANTED, STORIES),
        )

    titles = {version["ref"]: version["title"] for version in kg_json("list")}
    assert titles[STORIES] == "User stories"
    assert PLANTED not in kg("resolve", STORIES).stdout
    assert kg("verify").returncode == 0


# --- a title changed behind the triggers ----------------------------------------------------


def test_show_leaves_out_the_damaged_artifact_names_it_and_exits_1(database: Path) -> None:
    retitle_stories_behind_the_triggers(database)

    result = kg("show", "--subject", SUBJECT, expect=1)

    assert_names_the_damage(result)
    shown = {line.split()[0] for line in result.stdout.splitlines() if "->" not in line}
    assert {"requirements", "personas", "design"} <= shown
    assert "stories" not in shown
    graph = json.loads(kg("show", "--subject", SUBJECT, "--json", expect=1).stdout)
    assert "stories" not in {node["id"] for node in graph["nodes"]}
    around = kg("show", "--subject", SUBJECT, "--around", "stories", expect=2)
    assert f"studio: damaged: {STORIES}: " in around.stderr
    assert "no node 'stories' in this view" in around.stderr


def test_search_does_not_show_a_damaged_hit(database: Path) -> None:
    retitle_stories_behind_the_triggers(database)

    result = kg("search", "guest", expect=1)

    assert_names_the_damage(result)
    assert STORIES not in result.stdout
    assert REQUIREMENTS in result.stdout
    hits = json.loads(kg("search", "guest", "--json", expect=1).stdout)
    assert STORIES not in {hit["ref"] for hit in hits}


def test_coverage_list_history_and_diff_name_the_damaged_version(database: Path) -> None:
    retitle_stories_behind_the_triggers(database)

    assert_names_the_damage(kg("coverage", expect=1))
    listed = kg("list", expect=1)
    assert_names_the_damage(listed)
    assert REQUIREMENTS in listed.stdout and STORIES not in listed.stdout
    history = kg("history", SUBJECT, "stories", expect=1)
    assert_names_the_damage(history)
    assert "no artifact" not in history.stderr
    assert_names_the_damage(kg("diff", "--from", "2026-09-01", "--to", "2026-09-20", expect=1))


def test_resolve_refuses_the_damaged_version(database: Path) -> None:
    retitle_stories_behind_the_triggers(database)

    result = kg("resolve", STORIES, expect=1)

    assert_names_the_damage(result)
    assert result.stdout == ""
    assert kg("resolve", REQUIREMENTS).stdout.startswith("---\n")


def test_rebuild_refuses_and_changes_nothing(database: Path) -> None:
    before = kg("show", "--json", "--items", "--units", "--sections").stdout
    retitle_stories_behind_the_triggers(database)

    result = kg("rebuild", expect=1)

    assert_names_the_damage(result)
    assert "rebuilt" not in result.stdout
    tamper(  # put the title back: the graph rows are those of before
        database,
        "UPDATE artifact_versions SET title = 'User stories' WHERE ref = ?",
        parameters=(STORIES,),
    )
    assert kg("show", "--json", "--items", "--units", "--sections").stdout == before


# --- a text changed behind the triggers ------------------------------------------------------


def test_a_rewritten_text_is_never_shown(database: Path) -> None:
    rewrite_stories_text_behind_the_triggers(database)

    # Not indexed yet when it was rewritten: the search indexes the text as it finds it, and
    # the hit on the planted words is checked like every other and named as damage.
    assert_names_the_damage(kg("search", "attacker", expect=1))
    assert_names_the_damage(kg("search", "guest", expect=1))
    assert_names_the_damage(kg("resolve", STORIES, expect=1))
    shown = kg("show", "--subject", SUBJECT, "--items", expect=1)
    assert_names_the_damage(shown)
    assert "ST-1" not in shown.stdout


def test_an_indexed_text_rewritten_is_found_only_by_the_words_landed(database: Path) -> None:
    assert kg("search", "guest").returncode == 0  # the search brings the index up to date
    rewrite_stories_text_behind_the_triggers(database)

    assert kg("search", "attacker").stdout == ""  # the index holds the words landed
    assert_names_the_damage(kg("search", "guest", expect=1))


def test_a_title_changed_in_the_file_bytes_is_caught(database: Path) -> None:
    tamper(database, "PRAGMA wal_checkpoint(TRUNCATE)")  # every landed page into the file
    data = database.read_bytes()
    original = b"User stories"
    assert data.count(original) >= 1
    database.write_bytes(data.replace(original, b"User storiez"))

    assert_names_the_damage(kg("list", expect=1))


# --- kg verify -------------------------------------------------------------------------------


def test_verify_says_every_version_verified_on_an_intact_store(database: Path) -> None:
    count = EXPECTED["artifact_versions"]

    result = kg("verify")

    assert result.stdout.strip() == f"all {count} artifact version(s) verified"
    assert kg_json("verify") == {"versions": count, "damaged": [], "derivedRowsDiffer": []}


def test_verify_lists_every_damaged_version_and_exits_1(database: Path) -> None:
    retitle_stories_behind_the_triggers(database)
    tamper(
        database,
        "DROP TRIGGER artifact_bodies_no_update",
        "UPDATE artifact_bodies SET body = body || ' ' "
        "WHERE sha256 = (SELECT sha256 FROM artifact_versions WHERE ref = ?)",
        parameters=(REQUIREMENTS,),
    )

    result = kg("verify", expect=1)

    lines = result.stdout.splitlines()
    damage = dict(line.removeprefix("damaged: ").split(": ", 1) for line in lines[:2])
    assert damage[STORIES] == (
        "its stored fields do not match its version hash (they were changed after it landed)"
    )
    assert damage[REQUIREMENTS].startswith(
        "its text does not match the SHA-256 it was stored under: it was stored as "
    )
    count = EXPECTED["artifact_versions"]
    assert lines[2] == f"{count} artifact version(s) checked, 2 damaged"
    data = kg_json("verify", expect=1)
    assert data["versions"] == count
    assert {d["ref"] for d in data["damaged"]} == {REQUIREMENTS, STORIES}
    assert all(d["problem"] for d in data["damaged"])


# --- derived graph rows changed ----------------------------------------------------------------


def refs_whose_rows_hold(database: Path, word: str) -> set[str]:
    connection = sqlite3.connect(database)
    try:
        found = connection.execute(
            "SELECT version_ref FROM kg_derivations WHERE instr(rows, ?) > 0", (word,)
        )
        return {ref for (ref,) in found}
    finally:
        connection.close()


def derived_rows_differ(ref: str) -> str:
    return f"derived rows of {ref} differ from its text; `studio kg rebuild` derives them again"


def test_verify_reports_derived_rows_changed_behind_its_back_and_rebuild_mends_them(
    database: Path,
) -> None:
    count = EXPECTED["artifact_versions"]
    changed = refs_whose_rows_hold(database, "Checkout")
    assert REQUIREMENTS in changed and len(changed) >= 2
    tamper(database, "UPDATE kg_derivations SET rows = replace(rows, 'Checkout', 'PWNED')")
    assert "PWNED requirements (revised)" in kg("show").stdout  # read as stored, not checked

    result = kg("verify", expect=1)

    lines = result.stdout.splitlines()
    assert set(lines[:-1]) == {derived_rows_differ(ref) for ref in changed}
    assert lines[-1] == (
        f"{count} artifact version(s) checked, 0 damaged, "
        f"{len(changed)} with derived rows that differ from their text"
    )
    assert "Traceback" not in result.stderr
    data = kg_json("verify", expect=1)
    assert data["versions"] == count and data["damaged"] == []
    assert {d["ref"] for d in data["derivedRowsDiffer"]} == changed
    assert all("`studio kg rebuild`" in d["problem"] for d in data["derivedRowsDiffer"])

    assert kg("rebuild").returncode == 0
    assert kg("verify").stdout.strip() == f"all {count} artifact version(s) verified"
    assert "PWNED" not in kg("show").stdout


def test_verify_reports_derived_rows_deleted_or_unreadable(database: Path) -> None:
    tamper(
        database,
        "DELETE FROM kg_derivations WHERE version_ref = ?",
        parameters=(STORIES,),
    )
    tamper(
        database,
        "UPDATE kg_derivations SET rows = '{\"nodes\": [1' WHERE version_ref = ?",
        parameters=(REQUIREMENTS,),
    )

    result = kg("verify", expect=1)

    assert set(result.stdout.splitlines()[:-1]) == {
        derived_rows_differ(STORIES),
        derived_rows_differ(REQUIREMENTS),
    }
    assert "Traceback" not in result.stderr
    kg("rebuild")
    kg("verify")


def test_verify_names_a_damaged_version_and_checks_the_rows_of_the_rest(database: Path) -> None:
    every = refs_whose_rows_hold(database, '"edges":[')
    assert len(every) == EXPECTED["artifact_versions"]
    retitle_stories_behind_the_triggers(database)
    planted = '"edges":[["stories","COVERS","REQ-9","checkout-redesign"],'
    tamper(
        database,
        "UPDATE kg_derivations SET rows = replace(rows, '\"edges\":[', ?)",
        parameters=(planted,),
    )

    result = kg("verify", expect=1)

    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"damaged: {STORIES}: ")
    assert set(lines[1:-1]) == {derived_rows_differ(ref) for ref in every - {STORIES}}
    assert lines[-1].endswith(
        f", 1 damaged, {len(every) - 1} with derived rows that differ from their text"
    )


def test_show_and_coverage_name_derived_rows_that_cannot_be_read(database: Path) -> None:
    tamper(
        database,
        "UPDATE kg_derivations SET rows = '{' WHERE version_ref = ?",
        parameters=(STORIES,),
    )
    unreadable = (
        f"studio: damaged: {STORIES}: its derived graph rows cannot be read; "
        "`studio kg rebuild` derives them again"
    )

    shown = kg("show", "--subject", SUBJECT, expect=1)

    assert unreadable in shown.stderr.splitlines()
    assert "Traceback" not in shown.stderr
    assert "requirements" in {line.split()[0] for line in shown.stdout.splitlines()}
    coverage = kg("coverage", expect=1)
    assert unreadable in coverage.stderr.splitlines() and "Traceback" not in coverage.stderr
    kg("rebuild")
    assert "stories" in {
        line.split()[0] for line in kg("show", "--subject", SUBJECT).stdout.splitlines()
    }
