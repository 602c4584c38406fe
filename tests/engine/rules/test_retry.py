"""Retry rules: bounded backoff with full jitter (P4) and the retry decision table."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.engine.rules.retry import (
    NEVER_RETRIED,
    backoff_ceiling,
    calculate_backoff,
    should_retry,
)
from studio.model.workflow import RetryPolicy

seconds = st.floats(min_value=0, allow_nan=False, allow_infinity=False)
error_types = st.one_of(
    st.sampled_from(sorted(NEVER_RETRIED)),
    st.sampled_from(("Timeout", "RateLimited", "AgentError")),
    st.text(max_size=8),
)


# P4 -------------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(st.integers(0, 2000), seconds, seconds, st.none() | st.integers(0, 2**32))
def test_backoff_is_between_zero_and_the_maximum(
    attempt: int, base: float, max_delay: float, seed: int | None
) -> None:
    rng = None if seed is None else random.Random(seed)  # None: the shared module generator
    delay = calculate_backoff(attempt, base, max_delay, rng)
    assert 0 <= delay <= max_delay
    assert delay <= backoff_ceiling(attempt, base, max_delay)


@settings(max_examples=200)
@given(st.integers(0, 2000), seconds, seconds)
def test_the_ceiling_grows_with_each_attempt_until_it_caps(
    attempt: int, base: float, max_delay: float
) -> None:
    ceiling = backoff_ceiling(attempt, base, max_delay)
    assert ceiling <= backoff_ceiling(attempt + 1, base, max_delay) <= max_delay
    if attempt < 1000:  # 2.0**attempt is still a float here
        assert ceiling == min(base * 2.0**attempt, max_delay)


@settings(max_examples=200)
@given(st.integers(0, 10**30), seconds, seconds)
def test_huge_attempts_do_not_overflow(attempt: int, base: float, max_delay: float) -> None:
    assert 0 <= calculate_backoff(attempt, base, max_delay, random.Random(0)) <= max_delay


def test_the_ceiling_doubles_then_caps() -> None:
    ceilings = [backoff_ceiling(attempt, 1.0, 30.0) for attempt in range(8)]
    assert ceilings == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
    assert backoff_ceiling(10**9, 1.0, 30.0) == 30.0
    assert backoff_ceiling(10**9, 0.0, 30.0) == 0.0
    assert backoff_ceiling(3, 5e-324, 30.0) == 4e-323


def test_delays_spread_over_the_whole_jitter_range() -> None:
    rng = random.Random(1234)
    delays = [calculate_backoff(2, 1.0, 30.0, rng) for _ in range(2000)]
    assert all(0 <= delay <= 4.0 for delay in delays)
    assert min(delays) < 0.1
    assert max(delays) > 3.9
    assert 1.8 < sum(delays) / len(delays) < 2.2


def test_the_same_seed_gives_the_same_delays() -> None:
    first = [calculate_backoff(n, 0.5, 10.0, random.Random(7)) for n in range(6)]
    second = [calculate_backoff(n, 0.5, 10.0, random.Random(7)) for n in range(6)]
    assert first == second


@pytest.mark.parametrize(
    ("attempt", "base", "max_delay", "message"),
    [
        (-1, 1.0, 30.0, "attempt counts from 0"),
        (0, -1.0, 30.0, "base must be"),
        (0, 1.0, -0.5, "max_delay must be"),
        (0, float("nan"), 30.0, "base must be"),
        (0, 1.0, float("inf"), "max_delay must be"),
    ],
)
def test_impossible_backoff_arguments_are_refused(
    attempt: int, base: float, max_delay: float, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        calculate_backoff(attempt, base, max_delay)


# should_retry ---------------------------------------------------------------------------------

ANY_ERROR = RetryPolicy(max_retries=3)
ONLY_TIMEOUTS = RetryPolicy(max_retries=2, retryable_errors=["Timeout", "Cancelled"])


@pytest.mark.parametrize(
    ("policy", "error_type", "retry_count", "expected"),
    [
        (None, "Timeout", 0, False),
        (ANY_ERROR, "Timeout", 0, True),
        (ANY_ERROR, "AgentError", 2, True),
        (ANY_ERROR, "AgentError", 3, False),
        (ANY_ERROR, "AgentError", 4, False),
        (RetryPolicy(max_retries=0), "Timeout", 0, False),
        (ONLY_TIMEOUTS, "Timeout", 1, True),
        (ONLY_TIMEOUTS, "Timeout", 2, False),
        (ONLY_TIMEOUTS, "AgentError", 0, False),
        (ONLY_TIMEOUTS, "Cancelled", 0, False),  # listed, but never retried
        (ANY_ERROR, "UnknownAgent", 0, False),
        (ANY_ERROR, "UnknownAgentKind", 0, False),
        (ANY_ERROR, "InvalidAgent", 0, False),
        (ANY_ERROR, "UpstreamFailed", 0, False),
        (ANY_ERROR, "Cancelled", 0, False),
        (ANY_ERROR, "InvalidInput", 0, False),
        (ANY_ERROR, "TemplateError", 0, False),
    ],
)
def test_should_retry_table(
    policy: RetryPolicy | None, error_type: str, retry_count: int, expected: bool
) -> None:
    assert should_retry(policy, error_type, retry_count) is expected


@settings(max_examples=200)
@given(
    st.integers(0, 10),
    st.lists(error_types, max_size=3),
    error_types,
    st.integers(0, 12),
)
def test_should_retry_follows_its_rules(
    max_retries: int, retryable: list[str], error_type: str, retry_count: int
) -> None:
    policy = RetryPolicy(max_retries=max_retries, retryable_errors=retryable)
    expected = (
        retry_count < max_retries
        and error_type not in NEVER_RETRIED
        and (not retryable or error_type in retryable)
    )
    assert should_retry(policy, error_type, retry_count) is expected
    assert should_retry(None, error_type, retry_count) is False
