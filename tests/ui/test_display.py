"""Knowing, before Qt starts, whether a window can be opened."""

from pathlib import Path

import pytest

from studio.ui import display


def test_no_display_variables_on_linux_is_reported() -> None:
    reason = display.missing_display_reason({}, "linux")
    assert reason is not None and "no display" in reason


def test_an_explicit_qt_platform_is_trusted() -> None:
    assert display.missing_display_reason({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None


def test_wayland_counts_as_a_display() -> None:
    assert display.missing_display_reason({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None


def test_other_platforms_decide_for_themselves() -> None:
    assert display.missing_display_reason({}, "darwin") is None
    assert display.missing_display_reason({}, "win32") is None


def plugin_loads() -> None:
    """Qt's X11 plugin loads, whatever this host has installed."""
    return None


def test_a_local_x_display_needs_its_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(display, "X11_SOCKET_DIR", tmp_path)
    reason = display.missing_display_reason({"DISPLAY": ":7"}, "linux", plugin_loads)
    assert "not running" in (reason or "")
    (tmp_path / "X7").touch()
    assert display.missing_display_reason({"DISPLAY": ":7"}, "linux", plugin_loads) is None
    assert display.missing_display_reason({"DISPLAY": "remote:0"}, "linux", plugin_loads) is None


def test_a_running_x_display_without_qt_x11_libraries_is_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(display, "X11_SOCKET_DIR", tmp_path)
    (tmp_path / "X7").touch()
    broken = tmp_path / "libqxcb.so"
    broken.write_bytes(b"not a shared library")
    reason = display.missing_display_reason(
        {"DISPLAY": ":7"}, "linux", lambda: display.x11_plugin_problem(broken)
    )
    assert reason is not None and "install the system packages" in reason


def test_a_qt_x11_plugin_that_cannot_load_is_explained(tmp_path: Path) -> None:
    broken = tmp_path / "libqxcb.so"
    broken.write_bytes(b"not a shared library")
    reason = display.x11_plugin_problem(broken)
    assert reason is not None and "install the system packages" in reason


def test_the_installed_qt_x11_plugin_is_checked_without_aborting() -> None:
    reason = display.x11_plugin_problem()
    assert reason is None or "cannot load" in reason
