"""Tell, before Qt starts, whether there is a screen to open a window on.

Qt aborts the process when its platform plugin cannot connect or cannot be loaded; a person
deserves a sentence instead. This module imports no Qt so it can run first.
"""

import ctypes
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

X11_SOCKET_DIR = Path("/tmp/.X11-unix")
X11_SYSTEM_PACKAGES = "libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0"


def missing_display_reason(
    environ: Mapping[str, str] = os.environ,
    platform: str = sys.platform,
    plugin_problem: Callable[[], str | None] | None = None,
) -> str | None:
    """Why no window can be opened, or None when one can (or the platform decides itself).

    ``plugin_problem`` checks Qt's X11 plugin once a display is found (by default
    ``x11_plugin_problem``, which loads the installed plugin)."""
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
    return (plugin_problem or x11_plugin_problem)()


def x11_plugin_problem(plugin: Path | None = None) -> str | None:
    """Why Qt's X11 plugin would fail to load (a missing system library), or None."""
    plugin = plugin or _xcb_plugin_path()
    if plugin is None or not plugin.is_file():
        return None
    try:
        ctypes.CDLL(str(plugin))
    except OSError as failure:
        found = re.search(r"([\w.+-]+\.so[\w.]*): cannot open shared object", str(failure))
        missing = found.group(1) if found else str(failure)
        return (
            f"Qt's X11 support cannot load {missing}; install the system packages "
            f"{X11_SYSTEM_PACKAGES} (Debian/Ubuntu names)"
        )
    return None


def _xcb_plugin_path() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    package = Path(next(iter(spec.submodule_search_locations)))
    return package / "Qt" / "plugins" / "platforms" / "libqxcb.so"


def _local_x_display_missing(display: str) -> bool:
    """For a local display like ``:0`` the server's socket must exist."""
    if not display.startswith(":"):
        return False
    number = display[1:].split(".", 1)[0]
    return number.isdigit() and not (X11_SOCKET_DIR / f"X{number}").exists()
