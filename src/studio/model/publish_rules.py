"""Publish validation: what a structurally sound workflow still needs before it may run."""

from collections.abc import Container

from studio.model.agent_parameters import node_parameter_problems
from studio.model.agent_setting_rules import agent_setting_problems
from studio.model.agents import AgentRegistry
from studio.model.configuration import NodeConfiguration, WorkflowConfiguration
from studio.model.graph import isolated_nodes
from studio.model.overrides import MODEL_OVERRIDE_CAP, prompt_addition_cap
from studio.model.problems import Problem, error, warning
from studio.model.structure import reference_problems
from studio.model.workflow import Node, Workflow

PLACEHOLDER_PREFIX = "placeholder-"


def publish_problems(
    workflow: Workflow,
    known_agents: Container[str],
    prompt_cap: int | None = None,
    *,
    template: bool = False,
) -> list[Problem]:
    """Problems that stop a workflow from being published, plus warnings worth seeing.

    The structural checks run again too: a workflow built in memory (on the canvas, by a
    program) never went through a file's validation."""
    problems: list[Problem] = list(reference_problems(workflow))
    if not workflow.nodes:
        problems.append(error("graph.empty", "the workflow has no nodes"))
    links = [(edge.source, edge.target) for edge in workflow.edges]
    for node_id in isolated_nodes([node.id for node in workflow.nodes], links):
        problems.append(
            error("graph.disconnected", "the node is not connected to any other", node_id=node_id)
        )
    for node in workflow.nodes:
        if template:
            continue  # a catalog template: its agents are mapped when someone uses it
        problems.extend(agent_problems(node, known_agents))
        problems.extend(compensation_problems(node, known_agents))
        if isinstance(known_agents, AgentRegistry):  # ids alone say nothing of settings
            problems.extend(agent_setting_problems(node, known_agents))
            problems.extend(_parameter_problems(node, known_agents))
    problems.extend(override_warnings(workflow, prompt_cap))
    return problems


def agent_problems(node: Node, known_agents: Container[str]) -> list[Problem]:
    """An error when the node's agent is a placeholder or is not in the registry."""
    if node.agent_id.startswith(PLACEHOLDER_PREFIX):
        message = (
            f"uses placeholder agent '{node.agent_id}'; map it to a real agent before publishing"
        )
        return [error("agent.placeholder", message, node_id=node.id)]
    if node.agent_id not in known_agents:
        message = f"uses agent '{node.agent_id}', which is not in the agent registry"
        return [error("agent.unknown", message, node_id=node.id)]
    return []


def _parameter_problems(node: Node, agents: AgentRegistry) -> list[Problem]:
    agent = agents.get(node.agent_id)
    if agent is None:
        return []
    return node_parameter_problems(node.id, agent.parameters, node.configuration.parameters)


def compensation_problems(node: Node, known_agents: Container[str]) -> list[Problem]:
    """An error when a node's compensation names a tool that is not an agent in the registry."""
    if node.compensation is None or node.compensation.tool in known_agents:
        return []
    message = f"its compensation tool '{node.compensation.tool}' is not an agent in the registry"
    return [error("compensation.unknown-tool", message, node_id=node.id)]


def override_warnings(workflow: Workflow, prompt_cap: int | None = None) -> list[Problem]:
    """Warnings for overrides over their caps: at run time they are skipped, not truncated."""
    cap = prompt_cap if prompt_cap is not None else prompt_addition_cap()
    problems: list[Problem] = []
    places: list[tuple[dict[str, str], WorkflowConfiguration | NodeConfiguration]] = [
        ({"path": "configuration"}, workflow.configuration)
    ]
    places += [({"node_id": node.id}, node.configuration) for node in workflow.nodes]
    for place, configuration in places:
        checks = [
            ("systemPromptAddition", configuration.system_prompt_addition, cap, "prompt"),
            ("modelOverride", configuration.model_override, MODEL_OVERRIDE_CAP, "model"),
        ]
        for key, value, limit, short in checks:
            if value is not None and len(value) > limit:
                message = (
                    f"{key} is {len(value)} characters, over the cap of {limit}; "
                    "it will be skipped at run time, not truncated"
                )
                problems.append(warning(f"override.{short}-too-long", message, **place))
    return problems
