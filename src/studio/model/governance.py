"""Governance: which agents may run, which need a person's approval, when a target is
considered down, and how every failure is classified."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from studio.model.base import StudioModel

POLICY_DENIED = "POLICY_DENIED"
CIRCUIT_OPEN = "CIRCUIT_OPEN"
APPROVAL_ABSENT = "APPROVAL_ABSENT"
APPROVAL_REJECTED = "APPROVAL_REJECTED"
INTERRUPTED = "INTERRUPTED"
UNRESOLVED_TEMPLATE = "UNRESOLVED_TEMPLATE"
TARGET_UNAVAILABLE = "TARGET_UNAVAILABLE"
UPSTREAM_FAILED = "UPSTREAM_FAILED"
AGENT_ERROR = "AGENT_ERROR"

ESCALATE_TO_HUMAN = "escalate_to_human"
RETRY_AFTER_TARGET_RECOVERY = "retry_after_target_recovery"
MANUAL_REVIEW_REQUIRED = "manual_review_required"
RECOMMENDED_ACTIONS = (ESCALATE_TO_HUMAN, RETRY_AFTER_TARGET_RECOVERY, MANUAL_REVIEW_REQUIRED)

RETRY_AFTER_HUMAN = "RETRY_AFTER_HUMAN"
TERMINAL = "TERMINAL"


class CircuitBreakerSettings(StudioModel):
    """A breaker per agent opens after consecutive failures and half-opens after a cool-down."""

    failure_threshold: int = Field(default=5, ge=1)
    cooldown_seconds: float = Field(default=30.0, ge=0)


class GovernanceSettings(StudioModel):
    """Policy for agent calls: a deny-list, approvals and the circuit breaker."""

    deny_agents: list[str] = Field(default_factory=list)
    deny_tools: list[str] = Field(default_factory=list)
    require_approval: list[str] = Field(default_factory=list)
    circuit_breaker: CircuitBreakerSettings | None = None

    def merged_with(self, other: "GovernanceSettings | None") -> "GovernanceSettings":
        """Both policies at once: lists are joined, the other's breaker settings win."""
        if other is None:
            return self
        return GovernanceSettings(
            deny_agents=_union(self.deny_agents, other.deny_agents),
            deny_tools=_union(self.deny_tools, other.deny_tools),
            require_approval=_union(self.require_approval, other.require_approval),
            circuit_breaker=other.circuit_breaker or self.circuit_breaker,
        )


@dataclass(frozen=True)
class Classification:
    """What a failure is, what should happen next, and whether a person must act first."""

    failure_class: str
    recommended_action: str
    disposition: str = TERMINAL


_BY_ERROR_TYPE: dict[str, Classification] = {
    "PolicyDenied": Classification(POLICY_DENIED, ESCALATE_TO_HUMAN),
    "CircuitOpen": Classification(CIRCUIT_OPEN, RETRY_AFTER_TARGET_RECOVERY),
    "ApprovalPending": Classification(APPROVAL_ABSENT, ESCALATE_TO_HUMAN, RETRY_AFTER_HUMAN),
    "ApprovalRejected": Classification(APPROVAL_REJECTED, MANUAL_REVIEW_REQUIRED),
    "Interrupted": Classification(INTERRUPTED, MANUAL_REVIEW_REQUIRED),
    "TemplateError": Classification(UNRESOLVED_TEMPLATE, MANUAL_REVIEW_REQUIRED),
    "UpstreamFailed": Classification(UPSTREAM_FAILED, MANUAL_REVIEW_REQUIRED),
    "Timeout": Classification(TARGET_UNAVAILABLE, RETRY_AFTER_TARGET_RECOVERY),
    "WorkflowTimeout": Classification(TARGET_UNAVAILABLE, MANUAL_REVIEW_REQUIRED),
    "ConnectionError": Classification(TARGET_UNAVAILABLE, RETRY_AFTER_TARGET_RECOVERY),
    "RateLimited": Classification(TARGET_UNAVAILABLE, RETRY_AFTER_TARGET_RECOVERY),
}


def classify(error_type: str) -> Classification:
    """The classification of an error type; anything unlisted is an agent error to review."""
    return _BY_ERROR_TYPE.get(error_type, Classification(AGENT_ERROR, MANUAL_REVIEW_REQUIRED))


def _union(first: Iterable[str], second: Iterable[str]) -> list[str]:
    return list(dict.fromkeys([*first, *second]))


def classified(error: dict[str, Any]) -> dict[str, Any]:
    """An error record (``{type, message, ...}``) with its failure class and recommended action."""
    classification = classify(error["type"])
    return {
        **error,
        "failureClass": classification.failure_class,
        "recommendedAction": classification.recommended_action,
    }
