"""The ``artifact`` kind: land a Markdown artifact in the knowledge store, with provenance.

The Markdown comes from the node's input (its ``markdown`` field, or the input itself when it
is a string) or from the agent's ``template`` setting rendered with ``${input.…}``,
``${parameters.…}`` and ``${config.…}``. The engine fills ``produced_by`` (workflow and its
version, execution, node, attempt) from the call, over whatever the text says: provenance is
recorded by the runner, never taken from what an agent wrote. The node's output is the
landed ref, so a run's outputs link to what it added to the graph.

A text that holds the value of a credential known to the call (``${credentials.NAME}`` rendered
into the template, or the value in the input, percent-encoded or escaped included) is refused
as ``ArtifactRejected`` naming the reference: what lands can never be removed.

The kind does not know the store: the workspace gives it a ``land(text, provenance)``
function, so a Studio without a knowledge store simply has no artifact kind installed.
"""

from collections.abc import Callable
from typing import Any, ClassVar

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.engine.agent_kinds.settings import rendered_text
from studio.engine.credentials import secrets_in
from studio.model.errors import StudioError
from studio.store.errors import StorageFaultError

Lander = Callable[[str, dict[str, Any]], str]
"""(Markdown text, provenance) → the ref it landed as; raises ValueError with the problems."""


class ArtifactKind(AgentKind):
    """Lands the node's Markdown and answers with its ref."""

    name: ClassVar[str] = "artifact"

    def __init__(self, land: Lander) -> None:
        self.land = land

    async def run(self, call: AgentCall) -> Any:
        """Land the Markdown; a lint failure is an ArtifactRejected error listing every problem."""
        text = _markdown_of(call)
        _refuse_credentials(call, text)
        try:
            ref = self.land(text, provenance(call))
        except ValueError as refused:
            raise AgentError("ArtifactRejected", str(refused)) from None
        except StorageFaultError:
            raise  # the store failed, not the artifact: the run stops, resumable
        except StudioError as conflict:  # e.g. another landing superseded the head first
            raise AgentError("ArtifactConflict", str(conflict)) from None
        return {"ref": ref}


def provenance(call: AgentCall) -> dict[str, Any]:
    """Who made the artifact, as the runner knows it."""
    produced_by: dict[str, Any] = {
        "workflow": call.workflow_id,
        "execution": call.execution_id,
        "node": call.node_id,
        "attempt": call.attempt + 1,
    }
    if call.workflow_version is not None:
        produced_by["workflow_version"] = call.workflow_version
    return produced_by


def _refuse_credentials(call: AgentCall, text: str) -> None:
    """A credential in the text would stay in the store for good, so nothing lands; the error
    names the references that matched, never their values."""
    found = secrets_in(text, call.secrets)
    if found:
        message = (
            f"the artifact was not landed: it holds the value of {', '.join(found)}; a "
            "credential never goes into the knowledge store, where nothing can be removed"
        )
        raise AgentError("ArtifactRejected", message, {"references": found})


def _markdown_of(call: AgentCall) -> str:
    template = call.agent.settings.get("template")
    if template is not None:
        return rendered_text(call, "template", template)
    value = call.input.get("markdown") if isinstance(call.input, dict) else call.input
    if not isinstance(value, str) or not value.strip():
        raise AgentError(
            "InvalidInput",
            "the artifact kind needs Markdown: a 'markdown' field in its input, a string "
            "input, or a 'template' setting",
        )
    return value
