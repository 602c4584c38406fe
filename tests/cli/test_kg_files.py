"""``studio kg`` with the files people hand it: ``land`` says why a file cannot be read,
``ingest`` reports every bad file with its reason and lands the good ones (exit 1 when any
failed, never a traceback), ``show --around`` takes a bare item id when it is unique."""

import shutil
from pathlib import Path

import pytest

from tests.cli.test_id_prefixes import studio
from tests.cli.test_kg_handlers import EXPECTED, FIXTURE, SUBJECT

BROKEN_FRONT = "---\nid: oops\nkind: note\n---\n# No subject, no title\n"


def test_land_a_missing_file_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "notes.md"
    code, out, err = studio(capsys, "kg", "land", str(missing))
    assert (code, out) == (2, "")
    assert err == f"studio: cannot land {missing}: there is no such file\n"


def test_land_a_binary_file_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    picture = tmp_path / "diagram.md"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    code, _out, err = studio(capsys, "kg", "land", str(picture))
    assert code == 2
    assert err == f"studio: cannot land {picture}: it is a binary file, not text\n"


def test_land_a_file_not_in_utf8_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    latin = tmp_path / "cafe.md"
    latin.write_bytes("---\ntitle: Café\n---\n".encode("latin-1"))
    code, _out, err = studio(capsys, "kg", "land", str(latin))
    assert code == 2
    assert err == (f"studio: cannot land {latin}: it is not UTF-8 text (byte 0xe9 on line 2)\n")


def test_land_a_folder_says_it_is_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _out, err = studio(capsys, "kg", "land", str(tmp_path))
    assert code == 2
    assert err == f"studio: cannot land {tmp_path}: it is a folder; `studio kg ingest` lands one\n"


def test_ingest_reports_every_bad_file_and_lands_the_good_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "corpus"
    shutil.copytree(FIXTURE, folder)
    (folder / "binary.md").write_bytes(b"\x00\x01\x02")
    (folder / "latin.md").write_bytes("caf\xe9".encode("latin-1"))
    (folder / "broken.md").write_text(BROKEN_FRONT, encoding="utf-8")

    code, out, err = studio(capsys, "kg", "ingest", str(folder), "--quiet")

    assert code == 1
    count = EXPECTED["artifact_versions"]
    assert out == f"landed {count} artifact(s) from {folder}; 3 file(s) did not land\n"
    assert f"studio: {folder / 'binary.md'}: it is a binary file, not text\n" in err
    assert f"studio: {folder / 'latin.md'}: it is not UTF-8 text (byte 0xe9 on line 1)\n" in err
    assert f"studio: {folder / 'broken.md'}: " in err
    assert "Traceback" not in err
    code, out, _err = studio(capsys, "kg", "list")
    assert len(out.splitlines()) == EXPECTED["logical_artifacts"]


def test_ingest_of_a_clean_folder_still_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = studio(capsys, "kg", "ingest", str(FIXTURE), "--quiet")
    assert code == 0, err
    assert out == f"landed {EXPECTED['artifact_versions']} artifact(s) from {FIXTURE}\n"


def test_show_around_takes_a_bare_item_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert studio(capsys, "kg", "ingest", str(FIXTURE), "--quiet")[0] == 0
    code, out, err = studio(capsys, "kg", "show", "--items", "--around", "REQ-1")
    assert code == 0, err
    nodes = {line.split()[0] for line in out.splitlines() if " -" not in line}
    assert {f"{SUBJECT}/REQ-1", f"{SUBJECT}/requirements"} <= nodes


def test_show_around_an_unknown_bare_id_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert studio(capsys, "kg", "ingest", str(FIXTURE), "--quiet")[0] == 0
    code, out, err = studio(capsys, "kg", "show", "--items", "--around", "R-NOPE")
    assert (code, out) == (2, "")
    assert "no node 'R-NOPE'" in err
