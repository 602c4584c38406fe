"""Tell, before Qt starts, whether there is a screen to open a window on.

Qt aborts the process when its platform plugin cannot connect; a person deserves a
sentence instead. This module imports no Qt so it can run first.
"""

import os
import sys
from collections.abc import Mapping
from pathlib import Path

X11_SOCKET_DIR = Path("/tmp/.X11-unix")


def missing_display_reason(
    environ: Mapping[str, str] = os.environ, platform: str = sys.platform
) -> str | None:
    """Why no window can be opened, or None when one can (or the platform decides itself)."""
    if environ.get("QT_QPA_PLATFORM") or not platform.startswith("linux"):
        return None
    if environ.get("WAYLAND_DISPLAY"):
        return None
    display = environ.get("DISPLAY", "")
    if not display:
        return (
            "no display found (DISPLAY and WAYLAND_DISPLAY are unset); "
            "`studio screenshot` renders the window without one"
        )
    if _local_x_display_missing(display):
        return f"the X display {display} is not running"
    return None


def _local_x_display_missing(display: str) -> bool:
    """For a local display like ``:0`` the server's socket must exist."""
    if not display.startswith(":"):
        return False
    number = display[1:].split(".", 1)[0]
    return number.isdigit() and not (X11_SOCKET_DIR / f"X{number}").exists()
