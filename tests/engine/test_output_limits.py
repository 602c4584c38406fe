"""An agent's output is held to the input limits before it is redacted, stored or passed on:
one nested too deep, with too long a text or with a number JSON cannot carry fails its node
with a clear error, and the run ends instead of hanging in ``running``."""

import json
import sys
from pathlib import Path

import pytest

from studio.model import AgentDefinition
from tests.engine.runner_harness import chain, make_harness


def printing_agent(folder: Path, text: str) -> AgentDefinition:
    """A shell agent that prints ``text`` (kept in a file, as it may be long)."""
    output = folder / "output.txt"
    output.write_text(text, encoding="utf-8")
    return AgentDefinition(
        id="printer",
        name="Printer",
        kind="shell",
        settings={
            "argv": [
                sys.executable,
                "-c",
                f"import sys; sys.stdout.write(open({str(output)!r}).read())",
            ]
        },
    )


def run_printer(tmp_path: Path, text: str):
    harness = make_harness(tmp_path)
    harness.agents.add(printing_agent(tmp_path, text))
    record = harness.execute(harness.publish(chain("produce", "after", agent="printer")))
    return harness, record


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "[" * 300 + "]" * 300,
            "[0][0][0][0][0][0][0][0]…: nested deeper than 200 levels",
        ),
        (
            '{"items": ' * 600 + "1" + "}" * 600,
            "items.items.items.items.items.items.items.items…: nested deeper than 200 levels",
        ),
        ("[" * 2000 + "]" * 2000, "nested deeper than 200 levels"),
        ("x" * 1_000_001, "text: a text of 1,000,001 characters; at most 1,000,000 are allowed"),
        ('{"score": NaN}', "score: numbers must be finite"),
    ],
    ids=["300-deep", "600-deep", "2000-deep", "long-text", "nan"],
)
def test_an_output_over_the_limits_fails_its_node_with_the_reason(
    tmp_path: Path, text: str, problem: str
) -> None:
    harness, record = run_printer(tmp_path, text)
    assert record.status == "failed"
    produce = record.node_results["produce"]
    assert produce.status == "failed"
    assert produce.error["type"] == "InvalidOutput"
    assert produce.error["message"] == f"the agent's output breaks a limit: {problem}"
    assert produce.output is None
    assert record.node_results["after"].status != "completed"
    stored = harness.executions.get(record.execution_id)
    assert stored.status == "failed"


def test_an_output_within_the_limits_goes_on_as_before(tmp_path: Path) -> None:
    text = json.dumps({"deep": json.loads("[" * 190 + "]" * 190), "long": "y" * 1_000_000})
    _, record = run_printer(tmp_path, text)
    assert record.status == "completed"
    assert len(record.node_results["after"].output["long"]) == 1_000_000


def test_a_compensation_whose_output_is_over_the_limits_fails_in_words(tmp_path: Path) -> None:
    """The unwind records the failed compensation and ends, instead of a RecursionError."""
    harness = make_harness(tmp_path)
    undo = printing_agent(tmp_path, "[" * 600 + "]" * 600)
    harness.agents.add(undo.model_copy(update={"id": "undo", "name": "Undo"}))
    workflow = harness.publish(
        {
            "name": "compensated by a deep answer",
            "configuration": {"compensation": {"enabled": True}},
            "nodes": [
                {"id": "act", "agentId": "echo", "compensation": {"tool": "undo"}},
                {"id": "boom", "agentId": "failing"},
            ],
            "edges": [{"source": "act", "target": "boom"}],
        }
    )

    record = harness.execute(workflow, {"order": 1})

    stored = harness.executions.get(record.execution_id)
    assert (stored.status, stored.compensation_status) == ("failed", "partial")
    undone = stored.node_results["act#comp"]
    assert undone.status == "compensation_failed"
    assert undone.error["type"] == "InvalidOutput"
    assert "nested deeper than 200 levels" in undone.error["message"]
