"""Size caps on the per-node overrides: over-cap values are skipped with a WARN, never cut."""

import copy
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from studio.engine.logs import JsonLogFormatter
from studio.engine.overrides import effective_overrides
from studio.model.overrides import PROMPT_ADDITION_CAP_VARIABLE

RUNNER_LOGGER = "studio.engine.runner"
NO_ENVIRONMENT: dict[str, str] = {}


@pytest.fixture
def warnings(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The runner's log records, captured even when logging is configured not to propagate."""
    logger = logging.getLogger(RUNNER_LOGGER)
    monkeypatch.setattr(logger, "propagate", False)
    logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.WARNING, logger=RUNNER_LOGGER):
            yield caplog
    finally:
        logger.removeHandler(caplog.handler)


def skipped(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The override_skipped records logged so far."""
    return [r for r in caplog.records if getattr(r, "action", None) == "override_skipped"]


def test_an_addition_at_the_cap_is_kept(warnings: pytest.LogCaptureFixture) -> None:
    configuration = {"systemPromptAddition": "a" * 4000}
    assert effective_overrides(configuration, environ=NO_ENVIRONMENT) == configuration
    assert skipped(warnings) == []


def test_an_addition_over_the_cap_is_removed_with_a_warning(
    warnings: pytest.LogCaptureFixture,
) -> None:
    configuration = {"systemPromptAddition": "a" * 4001, "parameters": {"x": 1}}
    context = {"executionId": "e-1", "nodeId": "n-1"}
    effective = effective_overrides(configuration, environ=NO_ENVIRONMENT, context=context)
    assert effective == {"parameters": {"x": 1}}
    [record] = skipped(warnings)
    assert record.levelno == logging.WARNING and record.name == RUNNER_LOGGER
    assert (record.key, record.length, record.cap) == ("systemPromptAddition", 4001, 4000)
    assert (record.executionId, record.nodeId) == ("e-1", "n-1")
    assert "a" * 100 not in record.getMessage()  # the value itself is never logged


def test_the_json_log_carries_the_length_and_the_cap(warnings: pytest.LogCaptureFixture) -> None:
    effective_overrides({"modelOverride": "m" * 300}, environ=NO_ENVIRONMENT)
    [record] = skipped(warnings)
    entry = json.loads(JsonLogFormatter().format(record))
    assert entry["level"] == "WARN" and entry["action"] == "override_skipped"
    assert (entry["key"], entry["length"], entry["cap"]) == ("modelOverride", 300, 256)


@pytest.mark.parametrize(("raw", "cap"), [("10", 10), ("  12 ", 12), ("5000", 5000)])
def test_the_environment_sets_the_addition_cap(
    raw: str, cap: int, warnings: pytest.LogCaptureFixture
) -> None:
    environ = {PROMPT_ADDITION_CAP_VARIABLE: raw}
    assert effective_overrides({"systemPromptAddition": "a" * cap}, environ=environ) != {}
    assert effective_overrides({"systemPromptAddition": "a" * (cap + 1)}, environ=environ) == {}
    assert [record.cap for record in skipped(warnings)] == [cap]


@pytest.mark.parametrize("raw", ["", "abc", "-5", "0", "4.5", "١٠"])
def test_an_invalid_environment_value_falls_back_to_4000(
    raw: str, warnings: pytest.LogCaptureFixture
) -> None:
    environ = {PROMPT_ADDITION_CAP_VARIABLE: raw}
    assert effective_overrides({"systemPromptAddition": "a" * 4000}, environ=environ) != {}
    assert effective_overrides({"systemPromptAddition": "a" * 4001}, environ=environ) == {}
    assert [record.cap for record in skipped(warnings)] == [4000]


def test_the_process_environment_is_the_default(
    monkeypatch: pytest.MonkeyPatch, warnings: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(PROMPT_ADDITION_CAP_VARIABLE, "3")
    assert effective_overrides({"systemPromptAddition": "abcd"}) == {}
    assert [record.cap for record in skipped(warnings)] == [3]


def test_a_model_override_is_capped_at_256(warnings: pytest.LogCaptureFixture) -> None:
    assert effective_overrides({"modelOverride": "m" * 256}) == {"modelOverride": "m" * 256}
    assert effective_overrides({"modelOverride": "m" * 257}) == {}
    [record] = skipped(warnings)
    assert (record.key, record.length, record.cap) == ("modelOverride", 257, 256)


def test_both_over_the_cap_are_both_skipped(warnings: pytest.LogCaptureFixture) -> None:
    configuration = {"modelOverride": "m" * 257, "systemPromptAddition": "a" * 4001}
    assert effective_overrides(configuration, environ=NO_ENVIRONMENT) == {}
    assert sorted(record.key for record in skipped(warnings)) == [
        "modelOverride",
        "systemPromptAddition",
    ]


def test_other_keys_pass_through_and_the_input_is_not_changed() -> None:
    configuration = {
        "modelOverride": "m" * 257,
        "systemPromptAddition": "short and sweet",
        "credentials": {"api": "env:TOKEN"},
        "parameters": {"nested": [1, {"x": 2}]},
        "integrations": {},
    }
    before = copy.deepcopy(configuration)
    effective = effective_overrides(configuration, environ=NO_ENVIRONMENT)
    assert configuration == before
    assert effective == {key: value for key, value in before.items() if key != "modelOverride"}
    effective["parameters"]["nested"][1]["x"] = 99
    assert configuration == before
