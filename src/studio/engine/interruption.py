"""Telling an interrupted execution (its runner died or was closed) from a live one."""

from datetime import datetime, timedelta

from studio.engine.compensation import RUNNING_UNWIND
from studio.engine.ownership import owner_is_dead
from studio.model.execution import FAILED, PENDING, RUNNING, ExecutionRecord


def is_interrupted(record: ExecutionRecord, now: datetime, stale_after: float) -> bool:
    """Whether an unfinished execution has nobody driving it, so it can be resumed.

    Running with no owner means its runner stopped without finishing (closed or killed); an
    owner that is a dead process, or whose heartbeat is older than ``stale_after`` seconds, has
    gone. A pending execution nobody claimed for that long was started and then abandoned.
    A failed run still rolling back (its unwind was cut short) is interrupted the same way.
    Waiting executions are not interrupted: they wait for a person, not for a runner.
    """
    unwinding = record.status == FAILED and record.compensation_status == RUNNING_UNWIND
    if record.status not in (PENDING, RUNNING) and not unwinding:
        return False
    stale_before = now - timedelta(seconds=stale_after)
    if record.owner is None:
        return (
            record.status == RUNNING
            or unwinding
            or (record.created_at is not None and record.created_at < stale_before)
        )
    if owner_is_dead(record.owner):
        return True
    return record.heartbeat_at is None or record.heartbeat_at < stale_before
