"""Fixtures the command tests share."""

from tests.fabric.webhook import hook  # noqa: F401  (a local webhook receiver)
