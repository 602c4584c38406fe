"""Status looks: every status has its own words and icon, so colour is never the only sign;
no status leans on a font having a symbol."""

import pytest

from studio.model.execution import (
    COMPENSATED,
    COMPENSATING,
    COMPENSATION_FAILED,
    EXECUTION_STATUSES,
    NODE_STATUSES,
)
from studio.model.run_words import UPSTREAM_FAILED
from studio.ui.icons import ICONS
from studio.ui.run.status_look import (
    INTERRUPTED,
    NOT_STARTED,
    decision_look,
    execution_look,
    status_look,
    unwind_look,
)

EVERY_STATUS = sorted(
    {
        *NODE_STATUSES,
        *EXECUTION_STATUSES,
        COMPENSATING,
        COMPENSATED,
        COMPENSATION_FAILED,
        NOT_STARTED,
        INTERRUPTED,
    }
)


def test_every_status_reads_differently_in_words() -> None:
    looks = [status_look(status) for status in EVERY_STATUS]
    assert all(look.icon and look.label for look in looks)
    assert len({look.label for look in looks}) == len(looks)
    assert all(look.text == look.label for look in looks)


def test_every_status_has_an_icon_of_studios_set_and_no_symbol_in_its_words(qapp) -> None:
    for status in EVERY_STATUS:
        look = status_look(status)
        assert look.icon in ICONS, status
        assert look.text.replace(" ", "").replace("·", "").isalnum(), look.text
        assert not look.qicon(dark=False).isNull()


def test_outcomes_a_person_tells_apart_have_icons_of_their_own() -> None:
    outcomes = ("completed", "failed", "waiting", "cancelled", UPSTREAM_FAILED, INTERRUPTED)
    assert len({status_look(status).icon for status in outcomes}) == len(outcomes)


@pytest.mark.parametrize(
    ("status", "text"),
    [
        ("pending", "Pending"),
        ("running", "Running"),
        ("completed", "Completed"),
        ("failed", "Failed"),
        ("skipped", "Skipped"),
        ("waiting", "Waiting for approval"),
        ("retrying", "Retrying"),
        ("cancelled", "Cancelled"),
        ("compensating", "Compensating"),
        ("compensated", "Compensated"),
        ("compensation_failed", "Compensation failed"),
    ],
)
def test_the_words_of_each_node_status(status: str, text: str) -> None:
    assert status_look(status).text == text


def test_colours_differ_for_success_failure_and_waiting_on_light_and_dark() -> None:
    for dark in (False, True):
        colours = {status_look(s).colour(dark).name() for s in ("completed", "failed", "waiting")}
        assert len(colours) == 3


def test_an_execution_whose_runner_went_away_reads_interrupted_and_resumable() -> None:
    assert execution_look("running", interrupted=True).text == "Interrupted"
    assert execution_look("running").text == "Running"


def test_the_second_badge_of_a_failed_run_says_how_far_the_rollback_got() -> None:
    assert unwind_look("failed", "completed").text == "failed · rolled back"
    assert unwind_look("failed", "partial").text == "failed · rollback incomplete"
    assert unwind_look("failed", None) is None
    assert unwind_look("completed", "completed") is None


def test_decisions_and_unknown_statuses_still_read_in_words() -> None:
    assert decision_look("approved").text == "Approved"
    assert decision_look("rejected").text == "Rejected"
    assert status_look("frozen_solid").text == "Frozen solid"
