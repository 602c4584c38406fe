"""Size caps on the two per-node execution overrides."""

import os
from collections.abc import Mapping

DEFAULT_PROMPT_ADDITION_CAP = 4000
MODEL_OVERRIDE_CAP = 256
PROMPT_ADDITION_CAP_VARIABLE = "STUDIO_MAX_PROMPT_ADDITION_CHARS"


def prompt_addition_cap(environ: Mapping[str, str] = os.environ) -> int:
    """The cap on ``systemPromptAddition``: the environment's value when it is a positive
    whole number, else the default of 4000."""
    raw = environ.get(PROMPT_ADDITION_CAP_VARIABLE, "").strip()
    if raw.isascii() and raw.isdigit() and int(raw) > 0:
        return int(raw)
    return DEFAULT_PROMPT_ADDITION_CAP
