"""Which agent definitions a run uses: pinned when it starts, the same ones when it resumes.

A run pins the exact version of every agent its nodes and compensations call: the library's
current version (``default`` over SYSTEM), or, for a definition read from an ``--agents``
folder or handed to the runner in code, a version recorded in the ``folder`` namespace. A
resumed run and a "run from here" use the pinned versions, whatever is current by then. An
execution stored before pinning existed uses the current definitions.
"""

from studio.engine.run_context import AgentSource
from studio.model import AgentDefinition, AgentRegistry, Workflow
from studio.model.agent_library import AgentPins, pin_hint, used_agent_ids
from studio.store.agent_library import AgentChoice, AgentLibraryRepository


def agent_choices(workflow: Workflow, agents: AgentRegistry) -> dict[str, AgentChoice]:
    """The definitions a new run of ``workflow`` starts with, each with its library version
    (None: recorded in ``folder`` as the run is created); unknown ids are left out."""
    choices: dict[str, AgentChoice] = {}
    for agent_id in used_agent_ids(workflow):
        definition = agents.get(agent_id)
        if definition is not None:
            choices[agent_id] = (definition, pin_hint(agents, agent_id))
    return choices


def pinned_choices(library: AgentLibraryRepository, pins: AgentPins) -> dict[str, AgentChoice]:
    """The definitions an earlier run pinned, to be pinned again as they are."""
    definitions = library.resolve(pins)
    return {agent_id: (definitions[agent_id], pin) for agent_id, pin in pins.items()}


def run_agents(
    library: AgentLibraryRepository, pins: AgentPins | None, current: AgentRegistry
) -> AgentSource:
    """Where a run finds its agents: the pinned versions, or (an execution stored before
    pinning) the current definitions."""
    if pins is None:
        return current
    definitions: dict[str, AgentDefinition] = library.resolve(pins)
    return definitions
