"""Writers that number versions take turns on PostgreSQL: agent library saves and knowledge
landings started at the same moment by several connections all land, numbered once each."""

import threading
from collections.abc import Callable

from studio.bundled import builtin_agents_dir
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.model import AgentRegistry
from studio.model.agent_library import DEFAULT, SYSTEM
from studio.store import AgentLibraryRepository, KnowledgeRepository, open_database
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
