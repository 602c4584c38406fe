"""Gate B: whether an item's Order and eager context are enough to build from.

The executor's first judgment after Gate A. It returns one of three verdicts: Clear (build),
Ambiguous (the Order could mean more than one deliverable: back to the submitter with
questions) or Insufficient (named context is missing: back with the list of what). A
capability names how its verdict is reached: a rule of ``RULES``, or a node of its workflow
whose output is ``{verdict, rationale, questions | missing}`` (``verdict_of_output``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from studio.model.work_items import ContextSource, WorkItem

CLEAR, AMBIGUOUS, INSUFFICIENT = "Clear", "Ambiguous", "Insufficient"
VERDICTS = (CLEAR, AMBIGUOUS, INSUFFICIENT)
_SPELLINGS = {"clear": CLEAR, "ambiguous": AMBIGUOUS, "insufficient": INSUFFICIENT}
_SPELLINGS["thin"] = INSUFFICIENT  # the spec's word for it


class GateBOutputError(ValueError):
    """A gate node whose output is not a verdict."""


@dataclass(frozen=True)
class Verdict:
    """Gate B's answer, why, and what it asks of the submitter when it is not Clear."""

    verdict: str
    rationale: str
    asks: tuple[str, ...] = ()
    """The questions (Ambiguous) or the missing context (Insufficient)."""

    @property
    def clear(self) -> bool:
        return self.verdict == CLEAR

    def log_text(self, judged_by: str) -> str:
        """The work log line: who judged, the verdict and its rationale."""
        asks = f" ({'; '.join(self.asks)})" if self.asks else ""
        return f"Gate B ({judged_by}): {self.verdict} — {self.rationale}{asks}"

    def reason(self) -> str:
        """The reason a reroute-to-steward carries back to intake."""
        heading = "questions" if self.verdict == AMBIGUOUS else "missing"
        listed = "; ".join(self.asks) if self.asks else self.rationale
        return f"Gate B {self.verdict}: {heading}: {listed}"


Rule = Callable[[WorkItem, Sequence[ContextSource]], Verdict]
"""(the item, its eager sources that did not resolve at build time) → the verdict."""


def resolved_context(item: WorkItem, unresolved: Sequence[ContextSource]) -> Verdict:
    """Clear when every eager source resolved at build time; Insufficient naming those that
    did not."""
    if unresolved:
        missing = tuple(
            f"{source.id} ({source.type} {source.ref}) does not resolve" for source in unresolved
        )
        return Verdict(INSUFFICIENT, "eager context did not resolve at build time", missing)
    eager = [source.id for source in item.context if source.eager]
    named = f": {', '.join(eager)}" if eager else " (the item names none)"
    return Verdict(CLEAR, f"every eager source resolved{named}")


def clear_order(item: WorkItem, unresolved: Sequence[ContextSource]) -> Verdict:
    """``resolved-context``, and an Order that says what done looks like (Ambiguous if not)."""
    context = resolved_context(item, unresolved)
    if not context.clear:
        return context
    if not item.order.strip():
        return Verdict(AMBIGUOUS, "the Order is empty", ("What should be built?",))
    if "done" not in item.order.lower():
        question = f"When is the {item.artifact} done: what must it hold to be accepted?"
        return Verdict(AMBIGUOUS, "the Order does not say what done looks like", (question,))
    return Verdict(CLEAR, f"{context.rationale}; the Order says when it is done")


RULES: dict[str, Rule] = {"resolved-context": resolved_context, "clear-order": clear_order}
"""The named Gate B rules a capability definition may choose."""


def verdict_of_output(node: str, output: Any) -> Verdict:
    """The verdict a gate node answered.

    Raises:
        GateBOutputError: the output is not ``{verdict, rationale, questions | missing}``.
    """
    if not isinstance(output, dict):
        raise GateBOutputError(
            f"gate node '{node}' answered {type(output).__name__}, not "
            "{verdict, rationale, questions | missing}"
        )
    said = output.get("verdict")
    verdict = _SPELLINGS.get(said.strip().lower()) if isinstance(said, str) else None
    if verdict is None:
        raise GateBOutputError(
            f"gate node '{node}': verdict {said!r} is not one of {', '.join(VERDICTS)}"
        )
    rationale = output.get("rationale")
    if not isinstance(rationale, str) or not rationale.strip():
        raise GateBOutputError(f"gate node '{node}': a verdict needs its rationale (a text)")
    asks = output.get("questions" if verdict == AMBIGUOUS else "missing") or []
    if not isinstance(asks, list) or not all(isinstance(ask, str) for ask in asks):
        raise GateBOutputError(f"gate node '{node}': questions and missing must be lists of text")
    return Verdict(verdict, " ".join(rationale.split()), tuple(asks))
