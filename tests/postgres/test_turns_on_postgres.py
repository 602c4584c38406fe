"""Writers that number versions side by side on PostgreSQL: agent library saves take turns,
knowledge landings are numbered by a sequence. Started at the same moment by several
connections, all land, numbered once each; two that would fork one history never both land."""

import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from studio.bundled import builtin_agents_dir
from studio.fabric.queue import Pulled, Scope, WorkQueue
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.landing import ArtifactRejectedError, LandingBatch
from studio.model import AgentRegistry
from studio.model.agent_library import DEFAULT, SYSTEM
from studio.store import AgentLibraryRepository, Database, open_database, work_queue_changes
from studio.store.knowledge import KnowledgeConflictError, KnowledgeRepository
from studio.store.knowledge_schema import VERSION_NUMBERS, artifact_versions
from studio.store.work_queue import Change, WorkQueueRepository
from tests.fabric.conftest import world_of
from tests.fabric.items import BRIEF, CAPABILITY, MANIFEST, SUBJECT, item_text
from tests.postgres.test_workers_on_postgres import fresh_database

WRITERS = 6


def side_by_side(write: Callable[[int], object]) -> list[BaseException]:
    """Run ``write(n)`` on WRITERS threads released together; the failures."""
    start, failures = threading.Barrier(WRITERS), []

    def writer(number: int) -> None:
        start.wait()
        try:
            write(number)
        except BaseException as failure:
            failures.append(failure)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return failures


def test_workers_starting_together_record_the_built_in_agents_once(postgres_url: str) -> None:
    url = fresh_database(postgres_url, "turns_agents")
    builtins = AgentRegistry.from_folders([builtin_agents_dir()])
    open_database(url).close()  # the schema, made once

    failures = side_by_side(
        lambda _n: AgentLibraryRepository(open_database(url)).record_system(builtins)
    )

    assert failures == []
    library = AgentLibraryRepository(open_database(url))
    for definition in builtins:
        assert [entry.version for entry in library.versions(definition.id, SYSTEM)] == [1]


def test_saves_of_one_agent_at_the_same_moment_number_its_versions_once_each(
    postgres_url: str,
) -> None:
    url = fresh_database(postgres_url, "turns_saves")
    echo = AgentRegistry.from_folders([builtin_agents_dir()]).get("demo-echo-agent")
    assert echo is not None
    open_database(url).close()

    def save(number: int) -> None:
        library = AgentLibraryRepository(open_database(url))
        for step in range(5):
            library.save(echo.model_copy(update={"description": f"take {number}.{step}"}))

    assert side_by_side(save) == []
    versions = AgentLibraryRepository(open_database(url)).versions("demo-echo-agent", DEFAULT)
    assert sorted(entry.version for entry in versions) == list(range(1, WRITERS * 5 + 1))


def test_landings_at_the_same_moment_each_get_their_own_number(postgres_url: str) -> None:
    url = fresh_database(postgres_url, "turns_landings")
    open_database(url).close()

    def land(number: int) -> None:
        knowledge = KnowledgeBase(KnowledgeRepository(open_database(url)))
        for step in range(5):
            knowledge.land(
                f"---\nid: note-{number}-{step}\nkind: note\nsubject: acme\ntitle: Note\n"
                "created_at: 2026-09-12T09:00:00Z\nproduced_by: {capability: tests}\n---\n\nText.\n"
            )

    assert side_by_side(land) == []
    versions = KnowledgeRepository(open_database(url)).versions()
    assert len(versions) == WRITERS * 5


def note(number: int, supersedes: str | None = None) -> str:
    """A note of the subject acme, one per number, superseding a ref if one is given."""
    replaces = f"supersedes: {supersedes}\n" if supersedes else ""
    return (
        f"---\nid: note\nkind: note\nsubject: acme\ntitle: Note {number}\n{replaces}"
        "created_at: 2026-09-12T09:00:00Z\nproduced_by: {capability: tests}\n---\n\n"
        f"Take {number}.\n"
    )


def test_landings_superseding_one_version_at_the_same_moment_land_once(
    postgres_url: str,
) -> None:
    url = fresh_database(postgres_url, "turns_forks")
    repository = KnowledgeRepository(open_database(url))
    head = KnowledgeBase(repository).land(note(0))

    def supersede(number: int) -> None:
        KnowledgeBase(KnowledgeRepository(open_database(url))).land(note(number + 1, head))

    failures = side_by_side(supersede)

    assert len(failures) == WRITERS - 1
    # Refused by the store as it writes, or, when the winner was stored first, by the lint
    # that finds the version it supersedes is no longer the head.
    assert all(
        isinstance(failure, KnowledgeConflictError)
        or (isinstance(failure, ArtifactRejectedError) and "supersedes" in str(failure))
        for failure in failures
    ), failures
    versions = repository.versions()
    assert len(versions) == 2 and versions[1].front.supersedes == head
    check = KnowledgeBase(repository).verify()
    assert check.damaged == [] and check.differing == []


def test_a_database_from_before_the_sequence_numbers_after_its_last_version(
    postgres_url: str,
) -> None:
    url = fresh_database(postgres_url, "turns_upgrade")
    database = open_database(url)
    knowledge = KnowledgeBase(KnowledgeRepository(database))
    for number in range(3):
        knowledge.land(note(number).replace("id: note", f"id: note-{number}"))
    with database.write() as connection:  # the database as schema 7 left it
        connection.execute(text(f"DROP SEQUENCE {VERSION_NUMBERS}"))
        connection.execute(text("UPDATE schema_info SET version = 7"))
    database.close()

    upgraded = open_database(url)
    KnowledgeBase(KnowledgeRepository(upgraded)).land(note(9))

    with upgraded.read() as connection:
        numbers = connection.execute(select(artifact_versions.c.seq)).scalars().all()
    assert sorted(numbers) == [1, 2, 3, 4]


@pytest.mark.parametrize("count", [1, 4])
def test_landings_in_one_call_take_consecutive_numbers(postgres_url: str, count: int) -> None:
    url = fresh_database(postgres_url, f"turns_batch_{count}")
    repository = KnowledgeRepository(open_database(url))
    knowledge = KnowledgeBase(repository)
    knowledge.land(note(0).replace("id: note", "id: first"))
    batch = LandingBatch(repository, knowledge.registry)
    for number in range(count):
        batch.add(note(number).replace("id: note", f"id: batch-{number}"))
    batch.commit()

    landed = repository.all_versions_in_landing_order()
    assert [version.front.id for version in landed] == [
        "first",
        *(f"batch-{number}" for number in range(count)),
    ]


def leased_order(
    postgres_url: str, tmp_path: Path, name: str, queued: int = 0
) -> tuple[str, Database, WorkQueue, Pulled]:
    """A fresh database whose queue holds order-one leased to w1, and ``queued`` more orders
    behind it."""
    url = fresh_database(postgres_url, name)
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / BRIEF).write_text("# Brief\n\nGuests pay by card.\n", encoding="utf-8")
    database = open_database(url)
    queue = WorkQueue(WorkQueueRepository(database), world_of(database, folder))
    queue.publish_manifest(MANIFEST)
    for number in range(queued + 1):
        queue.enqueue(item_text(f"order-{number}" if number else "order-one"))
    pulled = queue.pull("w1", Scope(CAPABILITY))
    assert pulled is not None and pulled.item.id == "order-one"
    return url, database, queue, pulled


def land_first_meanwhile(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make another writer land the same record after an ack has read its facts."""
    stored = work_queue_changes.store_landings

    def landed_meanwhile(connection: Any, landings: list[Any], facts: Any) -> None:
        KnowledgeRepository(open_database(url)).add_versions(landings)
        stored(connection, landings, facts)

    monkeypatch.setattr(work_queue_changes, "store_landings", landed_meanwhile)


def test_an_ack_whose_filing_meets_a_landing_of_the_same_moment_changes_nothing(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, database, queue, pulled = leased_order(postgres_url, tmp_path, "turns_ack_clash")
    land_first_meanwhile(url, monkeypatch)

    with pytest.raises(KnowledgeConflictError, match="at the same moment"):
        queue.ack("order-one", "advance", pulled.token)

    item = queue.read("order-one")
    assert item.status == "leased" and not any("filed" in line for line in item.work_log)
    assert len(KnowledgeRepository(database).versions(subject=SUBJECT)) == 1


def test_an_ack_and_pull_whose_filing_meets_a_landing_of_the_same_moment_leases_nothing(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, database, queue, pulled = leased_order(postgres_url, tmp_path, "turns_pull_clash", 1)
    land_first_meanwhile(url, monkeypatch)

    with pytest.raises(KnowledgeConflictError, match="at the same moment"):
        queue.ack_and_pull("order-one", "advance", pulled.token, "w1", Scope(CAPABILITY))

    assert queue.read("order-one").status == "leased"
    assert queue.read("order-1").status == "queued" and queue.leases()[0][0] == "order-one"
    assert len(KnowledgeRepository(database).versions(subject=SUBJECT)) == 1


def test_a_guarded_change_whose_filing_meets_a_landing_of_the_same_moment_changes_nothing(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, database, queue, pulled = leased_order(postgres_url, tmp_path, "turns_change_clash")
    closed = replace(pulled.item, status="killed", lease=None)
    landing = queue.world.filing(closed, None)
    change = Change("killed", frozenset({"leased"}), pulled.token, landing=landing)
    land_first_meanwhile(url, monkeypatch)

    with pytest.raises(KnowledgeConflictError, match="at the same moment"):
        WorkQueueRepository(database).change("order-one", change, pulled.item.created_at)

    assert queue.read("order-one").status == "leased"
    assert len(KnowledgeRepository(database).versions(subject=SUBJECT)) == 1
