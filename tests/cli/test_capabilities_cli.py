"""``studio capabilities publish|list|show`` on a SQLite file: publishing a source or a
capability folder (version-bumped, hash-stamped), refusing what is not a manifest, the
readiness check of ``show --source``, and Gate A reading what was published."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.workspace import Workspace
from tests.cli_runner import run_studio, studio, studio_json
from tests.fabric.items import BRIEF, item_text, manifest

FIXTURE = Path(__file__).resolve().parents[1] / "ui" / "work" / "fixtures"
DESIGN_STUDIO = FIXTURE / "capability-design-studio.md"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "studio.db")


def capability_folder(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "design-studio"
    folder.mkdir(exist_ok=True)
    (folder / "manifest.md").write_text(text, encoding="utf-8")
    return folder


def test_publish_stamps_the_source_and_bumps_the_version(db: str, tmp_path: Path) -> None:
    first = run_studio("capabilities", "publish", str(DESIGN_STUDIO), "--db", db)
    assert first.returncode == 0, first.stderr
    stamp = hashlib.sha256(DESIGN_STUDIO.read_bytes()).hexdigest()
    assert first.stdout == (
        f"published design-studio version 1 (sha256 {stamp[:12]}): "
        "design live, design-review planned\n"
    )
    folder = capability_folder(tmp_path, manifest(design="planned"))
    second = run_studio("capabilities", "publish", str(folder), "--db", db, "--json")
    assert second.returncode == 0, second.stderr
    published = json.loads(second.stdout)
    assert (published["capability"], published["version"], published["stamped"]) == (
        "design-studio",
        2,
        True,
    )
    stamp = hashlib.sha256((folder / "manifest.md").read_bytes()).hexdigest()
    assert published["source_hash"] == stamp
    assert [(t["name"], t["status"]) for t in published["types"]] == [
        ("design", "planned"),
        ("design-review", "planned"),
        ("wireframe", "live"),
    ]
    listed = run_studio("capabilities", "list", "--db", db)
    assert listed.stdout == (
        f"design-studio  v2    sha256 {stamp[:12]}  "
        "design (planned), design-review (planned), wireframe (live)\n"
    )


def test_list_of_nothing_published_says_so(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert studio(capsys, "capabilities", "list", "--db", db) == (
        "",
        "no capability has published a manifest\n",
    )
    assert studio_json(capsys, "capabilities", "list", "--db", db) == []


def test_a_source_that_is_no_manifest_is_refused_and_nothing_is_published(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    source = tmp_path / "manifest.md"
    source.write_text(manifest().replace("**Status:** live\n\nA wireframe", "A wireframe"))
    _out, err = studio(capsys, "capabilities", "publish", str(source), "--db", db, expect=1)
    assert err == f"studio: {source}: type 'wireframe' has no '**Status:** live|planned' line\n"
    refused = studio_json(capsys, "capabilities", "publish", str(source), "--db", db, expect=1)
    assert "wireframe" in refused["error"]
    assert studio_json(capsys, "capabilities", "list", "--db", db) == []


def test_a_source_that_cannot_be_read_exits_2(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    _out, err = studio(capsys, "capabilities", "publish", str(tmp_path), "--db", db, expect=2)
    assert err == f"studio: {tmp_path}: the folder holds no manifest.md\n"
    missing = tmp_path / "gone.md"
    _out, err = studio(capsys, "capabilities", "publish", str(missing), "--db", db, expect=2)
    assert err == f"studio: {missing}: there is no such file\n"


def test_show_prints_the_published_manifest(capsys: pytest.CaptureFixture[str], db: str) -> None:
    studio(capsys, "capabilities", "publish", str(DESIGN_STUDIO), "--db", db)
    out, err = studio(capsys, "capabilities", "show", "design-studio", "--db", db)
    lines = out.splitlines()
    assert lines[0].startswith("design-studio version 1, published ")
    assert lines[1] == f"stamp: {hashlib.sha256(DESIGN_STUDIO.read_bytes()).hexdigest()}"
    assert lines[2:4] == ["  design: live", "  design-review: planned"]
    assert out.endswith(DESIGN_STUDIO.read_text(encoding="utf-8"))
    assert err == ""
    _out, err = studio(capsys, "capabilities", "show", "nobody", "--db", db, expect=2)
    assert err == "studio: capability 'nobody' has published no manifest\n"


def test_show_with_its_source_says_whether_the_copy_is_stale(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    folder = capability_folder(tmp_path, manifest())
    studio(capsys, "capabilities", "publish", str(folder), "--db", db)
    fresh = studio_json(
        capsys, "capabilities", "show", "design-studio", "--source", str(folder), "--db", db
    )
    assert (fresh["stale"], fresh["source"]) == (False, str(folder / "manifest.md"))
    _out, err = studio(
        capsys, "capabilities", "show", "design-studio", "--source", str(folder), "--db", db
    )
    assert err == ""

    (folder / "manifest.md").write_text(manifest(wireframe="planned"), encoding="utf-8")
    _out, err = studio(
        capsys, "capabilities", "show", "design-studio", "--source", str(folder), "--db", db
    )
    assert err == (
        "studio: warning: stale: re-run discovery "
        f"(studio capabilities publish {folder / 'manifest.md'})\n"
    )
    stale = studio_json(
        capsys, "capabilities", "show", "design-studio", "--source", str(folder), "--db", db
    )
    assert stale["stale"] is True
    assert stale["current_hash"] != stale["source_hash"]


def test_show_with_the_source_of_another_capability_is_refused(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    studio(capsys, "capabilities", "publish", str(DESIGN_STUDIO), "--db", db)
    other = tmp_path / "other.md"
    other.write_text(manifest().replace("id: design-studio", "id: copy-desk"), encoding="utf-8")
    _out, err = studio(
        capsys,
        "capabilities",
        "show",
        "design-studio",
        "--source",
        str(other),
        "--db",
        db,
        expect=1,
    )
    assert err == f"studio: {other}: this is the manifest of 'copy-desk', not of 'design-studio'\n"


def test_gate_a_reads_the_latest_published_manifest(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, studio_data_dir: Path
) -> None:
    (studio_data_dir / BRIEF).write_text("# Brief\n", encoding="utf-8")
    order = tmp_path / "order.md"
    order.write_text(item_text("order-one", artifact="wireframe"), encoding="utf-8")
    folder = capability_folder(tmp_path, manifest(wireframe="planned"))
    studio(capsys, "capabilities", "publish", str(folder), "--db", db)
    out, _err = studio(capsys, "work", "lint", str(order), "--db", db, expect=1)
    assert out == (
        f"{order}: rule 2: 'wireframe' is planned at capability 'design-studio', not live\n"
    )
    capability_folder(tmp_path, manifest())
    studio(capsys, "capabilities", "publish", str(folder), "--db", db)
    out, _err = studio(capsys, "work", "enqueue", str(order), "--db", db)
    assert out == "enqueued order-one: wireframe from design-studio about checkout-redesign\n"


def test_a_copy_without_a_freshness_stamp_is_flagged_and_gate_a_refuses_it(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, studio_data_dir: Path
) -> None:
    workspace = Workspace(database=db)
    workspace.work_queue.repository.publish("design-studio", "", manifest(), datetime.now(UTC))
    workspace.close()
    listed, _err = studio(capsys, "capabilities", "list", "--db", db)
    assert (
        listed == "design-studio  v1    unstamped  design (live), design-review (planned), "
        "wireframe (live)\n"
    )
    _out, err = studio(capsys, "capabilities", "show", "design-studio", "--db", db)
    assert err == (
        "studio: warning: no freshness stamp: Gate A refuses it "
        "(studio capabilities publish SOURCE)\n"
    )
    (studio_data_dir / BRIEF).write_text("# Brief\n", encoding="utf-8")
    order = tmp_path / "order.md"
    order.write_text(item_text("order-one"), encoding="utf-8")
    out, _err = studio(capsys, "work", "enqueue", str(order), "--db", db, expect=1)
    assert "rule 2: the manifest of 'design-studio' (version 1) has no freshness stamp" in out
