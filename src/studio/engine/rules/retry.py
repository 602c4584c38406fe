"""Retry rules: exponential backoff with full jitter, and whether a failure is retried."""

import math
import random

from studio.model.workflow import RetryPolicy

NEVER_RETRIED: frozenset[str] = frozenset(
    {
        "UnknownAgent",
        "UnknownAgentKind",
        "InvalidAgent",
        "UpstreamFailed",
        "Cancelled",
        "InvalidInput",
        "TemplateError",
        "InvalidParameters",
        "ProcessStart",
        "PolicyDenied",
        "CircuitOpen",
        "ApprovalRejected",
        "Interrupted",
        "CredentialUnavailable",
    }
)
"""Error types that another attempt cannot fix, whatever a node's policy lists."""


def backoff_ceiling(attempt: int, base: float, max_delay: float) -> float:
    """The upper bound of the jitter: ``min(base × 2^attempt, max_delay)``, never overflowing.

    Raises:
        ValueError: the attempt is negative, or base or max_delay is negative or not finite.
    """
    _check_backoff_arguments(attempt, base, max_delay)
    if base == 0:
        return 0.0
    try:
        grown = math.ldexp(base, attempt)
    except OverflowError:  # base × 2^attempt is beyond any float, so far beyond max_delay
        return max_delay
    return min(grown, max_delay)


def calculate_backoff(
    attempt: int, base: float, max_delay: float, rng: random.Random | None = None
) -> float:
    """Seconds to wait before retry ``attempt`` (0-based): ``uniform(0, backoff_ceiling)``."""
    ceiling = backoff_ceiling(attempt, base, max_delay)
    draw = rng.random() if rng is not None else random.random()
    return ceiling * draw  # draw < 1, so the product never exceeds the ceiling


def should_retry(policy: RetryPolicy | None, error_type: str, retry_count: int) -> bool:
    """Whether a node that failed with ``error_type`` after ``retry_count`` retries goes again."""
    if policy is None or retry_count >= policy.max_retries:
        return False
    if error_type in NEVER_RETRIED:
        return False
    return not policy.retryable_errors or error_type in policy.retryable_errors


def _check_backoff_arguments(attempt: int, base: float, max_delay: float) -> None:
    if attempt < 0:
        raise ValueError(f"a retry attempt counts from 0, got {attempt}")
    for name, number in (("base", base), ("max_delay", max_delay)):
        if not math.isfinite(number) or number < 0:
            raise ValueError(f"backoff {name} must be a finite number of seconds ≥ 0, got {number}")
