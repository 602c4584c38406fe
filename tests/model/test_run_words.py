"""The words runs are told in, shared by the canvas, the Steps table and the CLI."""

import pytest

from studio.model.run_words import UPSTREAM_FAILED, duration_words, shown_status, status_words


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (None, "—"),
        (0.0004, "0 ms"),
        (0.008, "8 ms"),
        (0.999, "999 ms"),
        (1.24, "1.2 s"),
        (12.4, "12 s"),
        (184, "3 min 4 s"),
        (3720, "1 h 2 min"),
        (-3, "0 ms"),
    ],
)
def test_every_duration_is_told_one_way(seconds, words) -> None:
    assert duration_words(seconds) == words


def test_a_node_failed_only_because_one_before_it_did_reads_not_run() -> None:
    upstream = {"type": "UpstreamFailed", "message": "upstream node 'boom' failed"}
    assert shown_status("failed", upstream) == UPSTREAM_FAILED
    assert status_words(shown_status("failed", upstream)) == "Not run · upstream failed"
    assert shown_status("failed", {"type": "NodeFailed"}) == "failed"
    assert shown_status("completed", None) == "completed"
    assert status_words("interrupted") == "Interrupted"
    assert status_words("some_new_state") == "Some new state"
