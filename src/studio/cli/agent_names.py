"""Agent ids a workflow file names that the registry does not hold, with the ids it may have
meant ("did you mean 'demo-echo-agent'?")."""

import difflib
from collections.abc import Iterable
from typing import Any

from studio.model import AgentRegistry, Problem, parse_workflow
from studio.model.problems import warning
from studio.model.publish_rules import PLACEHOLDER_PREFIX

SUGGESTIONS = 3
"""At most this many agent ids are offered for one that is unknown."""


def with_agent_suggestions(
    data: Any, problems: list[Problem], agents: AgentRegistry, *, warn: bool
) -> list[Problem]:
    """``problems`` with a "did you mean" on each unknown agent; with ``warn``, a warning is
    added for each node whose agent is unknown (placeholders excepted: they are meant to be
    mapped later)."""
    workflow, _found = parse_workflow(data)
    if workflow is None:
        return problems
    known = [agent.id for agent in agents]
    agent_of = {node.id: node.agent_id for node in workflow.nodes}
    suggested = [_suggested(problem, agent_of, known) for problem in problems]
    if not warn:
        return suggested
    unknown = [
        node
        for node in workflow.nodes
        if node.agent_id not in agents and not node.agent_id.startswith(PLACEHOLDER_PREFIX)
    ]
    return suggested + [
        warning("agent.unknown", unknown_agent_text(node.agent_id, known), node_id=node.id)
        for node in unknown
    ]


def unknown_agent_text(agent_id: str, known: Iterable[str]) -> str:
    """Why an agent id is a problem, and which known ids are close to it."""
    suggestion = did_you_mean(agent_id, known)
    return f"uses agent '{agent_id}', which is not in the agent registry{suggestion}"


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``; did you mean 'a' or 'b'?`` for the known names close to ``name``, or nothing."""
    close = difflib.get_close_matches(name, list(known), n=SUGGESTIONS)
    if not close:
        return ""
    return "; did you mean " + " or ".join(f"'{candidate}'" for candidate in close) + "?"


def _suggested(problem: Problem, agent_of: dict[str, str], known: list[str]) -> Problem:
    if problem.code != "agent.unknown" or problem.node_id not in agent_of:
        return problem
    text = unknown_agent_text(agent_of[problem.node_id], known)
    return problem.model_copy(update={"message": text})
