"""``studio screenshot`` never waits for a click: where the app would show a dialog it prints
one line naming the thing and why, and exits 2. What it writes has the size it reports and the
format its file name says; Qt's harmless platform chatter is not printed. Real subprocesses,
each with its own data folder."""

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import REPO_ROOT

ECHO_DEMO = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SIGNATURE = b"\xff\xd8\xff"
SECONDS_ALLOWED = 60


def shot(*args: str) -> subprocess.CompletedProcess:
    """``studio screenshot ARGS``; a dialog waiting for a click runs into the timeout."""
    return subprocess.run(
        [sys.executable, "-m", "studio", "screenshot", *args],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=dict(os.environ),
        timeout=SECONDS_ALLOWED,
    )


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def refused(result: subprocess.CompletedProcess, *words: str) -> str:
    """The one line of a refusal (exit 2, nothing on stdout), checked for ``words``."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_a_missing_workflow_file_is_named_with_the_reason(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-flow.yaml"
    result = shot(str(tmp_path / "x.png"), "--open", str(missing))
    refused(result, str(missing), "no such file")
    assert not (tmp_path / "x.png").exists()


def test_a_binary_workflow_file_is_refused_without_a_dialog(tmp_path: Path) -> None:
    binary = tmp_path / "flow.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    result = shot(str(tmp_path / "x.png"), "--open", str(binary))
    refused(result, str(binary), "binary")


def test_an_unreadable_workflow_file_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "flow.yaml"
    folder.mkdir()  # a folder where a file was meant: the same for root as for anyone
    result = shot(str(tmp_path / "x.png"), "--open", str(folder))
    refused(result, str(folder), "folder")


def test_a_malformed_workflow_file_names_its_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: Broken\nnodes:\n  - id: a\n    agentId: [unclosed\n", "utf-8")
    result = shot(str(tmp_path / "x.png"), "--open", str(broken))
    refused(result, f"{broken}:5:", "invalid YAML")


def test_an_unknown_run_is_named(tmp_path: Path) -> None:
    result = shot(str(tmp_path / "x.png"), "--run", "0123456789abcdef")
    refused(result, "no execution", "0123456789abcdef")


def test_replay_at_without_run_is_refused(tmp_path: Path) -> None:
    result = shot(str(tmp_path / "x.png"), "--replay-at", "3")
    refused(result, "--replay-at", "--run")


@pytest.mark.parametrize("name", ["shot.gif", "shot", "shot.pngg"])
def test_an_unknown_picture_format_is_refused_before_anything_is_drawn(
    tmp_path: Path, name: str
) -> None:
    result = shot(str(tmp_path / name))
    refused(result, name, ".png", ".jpg")
    assert list(tmp_path.iterdir()) == []


def test_a_png_has_the_size_it_reports_and_no_qt_chatter(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    result = shot(str(out), "--open", str(ECHO_DEMO), "--size", "1100x720")
    assert result.returncode == 0, result.stderr
    assert png_size(out) == (1100, 720)
    assert result.stdout.strip() == f"wrote {out} (1100x720 PNG, view main)"
    assert "propagateSizeHints" not in result.stderr
    assert result.stderr == ""


def test_a_size_under_the_windows_smallest_is_reported_as_written(tmp_path: Path) -> None:
    out = tmp_path / "small.png"
    result = shot(str(out), "--size", "300x200")
    assert result.returncode == 0, result.stderr
    width, height = png_size(out)
    assert result.stdout.strip() == f"wrote {out} ({width}x{height} PNG, view main)"
    assert result.stderr == (
        f"studio: warning: the window cannot be 300x200; the picture is {width}x{height}\n"
    )


def test_the_canvas_view_reports_the_size_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "canvas.png"
    result = shot(str(out), "--open", str(ECHO_DEMO), "--size", "900x600", "--view", "canvas")
    assert result.returncode == 0, result.stderr
    width, height = png_size(out)
    assert result.stdout.strip() == f"wrote {out} ({width}x{height} PNG, view canvas)"
    assert width < 900 and height < 600  # the canvas is a part of the window


def test_a_jpg_name_writes_a_jpeg(tmp_path: Path) -> None:
    out = tmp_path / "shot.jpg"
    result = shot(str(out), "--size", "1000x700")
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:3] == JPEG_SIGNATURE
    assert result.stdout.strip() == f"wrote {out} (1000x700 JPEG, view main)"


def test_a_dialog_the_window_would_show_is_closed_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past the command's own checks (here called directly), a dialog the window opens is
    closed at once and what it said is the error."""
    from studio.ui.screenshot import render_screenshot
    from studio.workspace import Workspace

    gone = tmp_path / "gone.yaml"
    code = render_screenshot(Workspace(tmp_path), tmp_path / "x.png", (1000, 700), str(gone))
    assert code == 2
    assert capsys.readouterr().err == (
        f"studio: Cannot open workflow: gone.yaml {gone}: cannot read the file: "
        "there is no such file\n"
    )
    assert not (tmp_path / "x.png").exists()
