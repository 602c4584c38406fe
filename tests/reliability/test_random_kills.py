"""A 200-node DAG of side-effecting shell nodes survives 30 SIGKILLs at random moments.

`studio run` and each `studio resume` after it are killed at random moments (see
kill_campaign); a last resume, left to finish, ends the last execution. What the outside
world saw (each round's ledger) and what the store holds must then agree:

- every execution is finished, and so is each of its nodes;
- no node's side effect happened twice, and no node's call was made twice;
- a completed node's side effect happened exactly once, and none happened without the
  node's reservation (its ``node.started`` event);
- each execution's events are numbered 1..N without a gap;
- ``PRAGMA integrity_check`` says ok.

The DAG and the kill schedule come from one seed, printed with every failure;
``STUDIO_KILL_SEED=N`` replays them (the timing of the processes still varies).
"""

import contextlib
import os
import random
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from studio.model.execution import EXECUTION_TERMINAL, NODE_TERMINAL
from studio.store import ExecutionRepository, open_database
from tests.reliability.kill_campaign import Campaign, Round
from tests.reliability.random_dag import ledger_counts

NODES = 200
KILLS = 30
MAX_PROBLEMS_SHOWN = 40


def campaign_seed() -> int:
    """The seed to replay from ``STUDIO_KILL_SEED``, or a fresh one."""
    chosen = os.environ.get("STUDIO_KILL_SEED")
    return int(chosen) if chosen else random.SystemRandom().randrange(2**32)


def test_a_dag_killed_thirty_times_loses_and_repeats_no_side_effect(tmp_path: Path) -> None:
    campaign = Campaign(tmp_path, campaign_seed(), KILLS, NODES)
    try:
        campaign.play()
    except Exception as failure:
        pytest.fail(f"{failure}\n{campaign.describe()}")
    report = campaign.describe()
    assert campaign.kills_made == KILLS, report
    problems = campaign_problems(campaign)
    shown = problems[:MAX_PROBLEMS_SHOWN]
    if len(problems) > len(shown):
        shown.append(f"... and {len(problems) - len(shown)} more")
    assert not problems, "\n".join([*shown, "", report])


def campaign_problems(campaign: Campaign) -> list[str]:
    """Everything the file, the ledgers and the store disagree on after the campaign."""
    problems = [*integrity_problems(campaign.database), *event_sequence_gaps(campaign.database)]
    database = open_database(campaign.database)
    try:
        executions = ExecutionRepository(database)
        problems += unfinished_executions(executions)
        for played in campaign.rounds:
            problems += side_effect_problems(executions, played)
    finally:
        database.close()
    return problems


def unfinished_executions(executions: ExecutionRepository) -> list[str]:
    """Executions (or nodes of theirs) the final resume left unfinished."""
    problems = []
    for summary in executions.find(limit=1000):
        record = executions.get(summary.execution_id)
        if record.status not in EXECUTION_TERMINAL:
            problems.append(f"execution {record.execution_id} is {record.status}")
        stuck = [n for n, r in record.node_results.items() if r.status not in NODE_TERMINAL]
        if stuck:
            problems.append(f"execution {record.execution_id}: nodes not finished: {stuck}")
    return problems


def side_effect_problems(executions: ExecutionRepository, played: Round) -> list[str]:
    """Where a round's ledger disagrees with its execution's record and events."""
    if played.execution_id is None:
        return [] if not played.ledger.exists() else [f"round {played.number}: no execution"]
    record = executions.get(played.execution_id)
    starts = Counter(
        e.node_id for e in executions.events(played.execution_id) if e.type == "node.started"
    )
    done = ledger_counts(played.ledger)
    where = f"round {played.number} ({played.execution_id})"
    problems = [
        f"{where}: node {node_id} {what}"
        for node_id, result in record.node_results.items()
        for what in _node_problems(result.status, done[node_id], starts[node_id])
    ]
    unknown = sorted(set(done) - set(record.node_results))
    if unknown:
        problems.append(f"{where}: side effects of nodes not in the execution: {unknown}")
    return problems


def _node_problems(status: str, side_effects: int, starts: int) -> list[str]:
    problems = []
    if side_effects > 1:
        problems.append(f"had its side effect {side_effects} times ({status})")
    if starts > 1:
        problems.append(f"was started {starts} times ({status}, side effect {side_effects})")
    if status == "completed" and side_effects == 0:
        problems.append("completed without its side effect")
    if side_effects and not starts:
        problems.append(f"had its side effect without being started ({status})")
    return problems


def event_sequence_gaps(database: Path) -> list[str]:
    """Executions whose events are not numbered 1..N."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        rows = connection.execute(
            "SELECT execution_id, seq FROM execution_events ORDER BY execution_id, seq"
        ).fetchall()
    numbers: dict[str, list[int]] = {}
    for execution_id, seq in rows:
        numbers.setdefault(execution_id, []).append(seq)
    return [
        f"execution {execution_id}: events numbered {_ranges(seqs)}, not 1..{len(seqs)}"
        for execution_id, seqs in numbers.items()
        if seqs != list(range(1, len(seqs) + 1))
    ]


def _ranges(numbers: list[int]) -> str:
    spans = []
    start = previous = numbers[0]
    for current in [*numbers[1:], None]:
        if current != previous + 1:
            spans.append(f"{start}..{previous}" if previous > start else str(start))
            start = current
        previous = current
    return ", ".join(spans)


def integrity_problems(database: Path) -> list[str]:
    """What ``PRAGMA integrity_check`` finds, unless it says ok."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        rows = [row[0] for row in connection.execute("PRAGMA integrity_check")]
    return [] if rows == ["ok"] else [f"integrity_check: {row}" for row in rows]
