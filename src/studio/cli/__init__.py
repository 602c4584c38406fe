"""The ``studio`` command."""

from studio.cli.main import main

__all__ = ["main"]
