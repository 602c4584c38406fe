"""The per-node execution overrides an agent may honour, after their size caps.

An over-cap ``systemPromptAddition`` or ``modelOverride`` is skipped entirely, never truncated:
the node still runs, without that override, and a WARN log says which key, how long it was and
what the cap is. The value itself is never logged.
"""

import copy
import logging
import os
from collections.abc import Mapping
from typing import Any

from studio.model.overrides import MODEL_OVERRIDE_CAP, prompt_addition_cap

SYSTEM_PROMPT_ADDITION = "systemPromptAddition"
MODEL_OVERRIDE = "modelOverride"

log = logging.getLogger("studio.engine.runner")


def override_caps(environ: Mapping[str, str] = os.environ) -> dict[str, int]:
    """The cap on each override key, in characters."""
    return {
        SYSTEM_PROMPT_ADDITION: prompt_addition_cap(environ),
        MODEL_OVERRIDE: MODEL_OVERRIDE_CAP,
    }


def effective_overrides(
    configuration: Mapping[str, Any],
    *,
    environ: Mapping[str, str] = os.environ,
    context: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A copy of a merged configuration without the overrides that are over their caps.

    ``context`` (execution, workflow, node and agent ids) is added to each WARN log.
    """
    effective = {key: _copied(value) for key, value in configuration.items()}
    for key, cap in override_caps(environ).items():
        value = effective.get(key)
        if isinstance(value, str) and len(value) > cap:
            del effective[key]
            _warn_skipped(key, len(value), cap, context or {})
    return effective


def _copied(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), several times cheaper than
    ``copy.deepcopy``; anything else is deep-copied."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    if value is None or isinstance(value, str | int | float):
        return value
    return copy.deepcopy(value)


def _warn_skipped(key: str, length: int, cap: int, context: Mapping[str, Any]) -> None:
    log.warning(
        "%s skipped: %d characters is over the cap of %d; the node runs without it",
        key,
        length,
        cap,
        extra={**context, "action": "override_skipped", "key": key, "length": length, "cap": cap},
    )
