"""A real PostgreSQL server for the tests in this folder, started once per pytest process
(each of scripts/check's parallel processes has its own)."""

from collections.abc import Iterator

import pytest

from tests.postgres.server import running_server, server_binaries


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of an empty database on a throwaway PostgreSQL server."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("the PostgreSQL server is not installed here (.ci/run installs it)")
    with running_server(binaries) as url:
        yield url
