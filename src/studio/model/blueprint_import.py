"""Importing a blueprint: its placeholder agent slots, the real agents suggested for each,
the copy with its slots mapped, and the copy's name. Pure functions, no store."""

import difflib
import re
from collections.abc import Collection, Iterable, Mapping

from studio.model.agents import AgentDefinition
from studio.model.errors import NotAllowedError
from studio.model.publish_rules import PLACEHOLDER_PREFIX
from studio.model.workflow import Workflow

COPY_SUFFIX = "Copy"
_WORD = re.compile(r"[a-z0-9]+")
_SHARED_STEM = 5
"""Two words that begin with this many equal letters are taken as one ("classifier",
"classify")."""


class UnknownSlotError(NotAllowedError):
    """A mapping names an agent slot the blueprint does not have."""

    def __init__(self, slots: list[str]) -> None:
        named = ", ".join(f"'{slot}'" for slot in slots)
        super().__init__(f"the blueprint has no placeholder {named}")
        self.slots = slots


class UnmappedPlaceholdersError(NotAllowedError):
    """Placeholder slots left without a real agent (and not kept on purpose)."""

    def __init__(self, slots: list[str]) -> None:
        super().__init__("placeholders not mapped to an agent: " + ", ".join(slots))
        self.slots = slots


def placeholder_slots(workflow: Workflow) -> list[str]:
    """The distinct placeholder agent ids of a workflow, in node order."""
    slots = (node.agent_id for node in workflow.nodes)
    return list(dict.fromkeys(slot for slot in slots if slot.startswith(PLACEHOLDER_PREFIX)))


def slot_words(slot: str) -> str:
    """What a slot is called, for people: ``placeholder-data-loader`` -> ``data loader``."""
    return " ".join(_WORD.findall(slot.removeprefix(PLACEHOLDER_PREFIX).lower()))


def suggested_agents(slot: str, definitions: Iterable[AgentDefinition]) -> list[str]:
    """Every real agent's id, the closest to the slot (by id, name and description) first."""
    wanted = slot_words(slot)
    scored = [
        (-_closeness(wanted, definition), definition.id)
        for definition in definitions
        if not definition.id.startswith(PLACEHOLDER_PREFIX)
    ]
    return [agent_id for _score, agent_id in sorted(scored)]


def _closeness(wanted: str, definition: AgentDefinition) -> float:
    """How well an agent fits a slot: the best spelling match of its id or name, plus the
    share of the slot's words found among the agent's words (description included)."""
    spelled = max(
        difflib.SequenceMatcher(None, wanted, text).ratio()
        for text in (slot_words(definition.id), slot_words(definition.name))
    )
    told = f"{definition.id} {definition.name} {definition.description}"
    words = set(_WORD.findall(told.lower()))
    slot_parts = wanted.split()
    found = sum(any(_same_word(part, word) for word in words) for part in slot_parts)
    return spelled + found / max(len(slot_parts), 1)


def _same_word(first: str, second: str) -> bool:
    if first == second:
        return True
    return min(len(first), len(second)) >= _SHARED_STEM and (
        first[:_SHARED_STEM] == second[:_SHARED_STEM]
    )


def remapped(workflow: Workflow, mapping: Mapping[str, str]) -> Workflow:
    """The workflow with each slot in ``mapping`` replaced by its agent id; a key that is not
    a slot of the workflow is an UnknownSlotError naming it."""
    unknown = [slot for slot in mapping if slot not in placeholder_slots(workflow)]
    if unknown:
        raise UnknownSlotError(unknown)
    chosen = {slot: agent for slot, agent in mapping.items() if agent}  # blank: left unmapped
    nodes = [
        node.model_copy(update={"agent_id": chosen.get(node.agent_id, node.agent_id)})
        for node in workflow.nodes
    ]
    return workflow.model_copy(update={"nodes": nodes}, deep=True)


def copy_name(name: str, taken: Collection[str]) -> str:
    """``<name> (Copy)``, else ``<name> (Copy 2)``, ``(Copy 3)``… the first not in ``taken``."""
    candidate = f"{name} ({COPY_SUFFIX})"
    number = 1
    while candidate in taken:
        number += 1
        candidate = f"{name} ({COPY_SUFFIX} {number})"
    return candidate
