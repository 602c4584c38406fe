"""Checking the files a person hands over to land, before anything lands.

Dropped (or chosen) paths are files and folders. A folder stands for its ``*.md`` files
(README.md excepted), in the date order an ingest lands them; a file stands for itself. Each
file is read and linted: a file that cannot be read, that is binary (NUL bytes, or not UTF-8)
or that fails the lint is a ``FileProblem`` naming the file and why, with the lint's place
(front matter field, or line of a typed item) in each message.

The lint here needs no store: what ``supersedes`` names is checked when the file lands,
because it may name a version that lands from the same drop.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from studio.knowledge.ingest_order import date_order
from studio.knowledge.item_types import DEFAULT_REGISTRY, ItemTypeRegistry
from studio.knowledge.lint import lint_artifact
from studio.model.problems import Problem


@dataclass(frozen=True)
class FileProblem:
    """A file that does not land, and why."""

    path: Path
    messages: tuple[str, ...]


@dataclass(frozen=True)
class DropPlan:
    """What a drop lands: folders with their files, and loose files, each in date order."""

    folders: tuple[tuple[Path, tuple[Path, ...]], ...] = ()
    files: tuple[Path, ...] = ()
    problems: tuple[FileProblem, ...] = field(default=())
    """Paths that are neither a file nor a folder of Markdown files."""

    def every_file(self) -> list[Path]:
        """Every file to check: the folders' files, then the loose ones."""
        return [path for _folder, files in self.folders for path in files] + list(self.files)


def folder_files(folder: Path) -> list[Path]:
    """The files an ingest of ``folder`` lands, in the order it lands them."""
    found = (path for path in folder.rglob("*.md") if path.name.lower() != "readme.md")
    return sorted(found, key=date_order)


def plan_drop(paths: Iterable[Path]) -> DropPlan:
    """Sort dropped paths into folders and loose files; name what is neither."""
    folders: list[tuple[Path, tuple[Path, ...]]] = []
    files: list[Path] = []
    problems: list[FileProblem] = []
    for path in dict.fromkeys(paths):  # the same path twice lands once
        if path.is_dir():
            inside = folder_files(path)
            if inside:
                folders.append((path, tuple(inside)))
            else:
                problems.append(FileProblem(path, ("the folder holds no Markdown (.md) files",)))
        elif path.is_file():
            files.append(path)
        else:
            problems.append(FileProblem(path, ("there is no such file or folder",)))
    return DropPlan(tuple(folders), tuple(sorted(files, key=date_order)), tuple(problems))


def read_text(path: Path) -> str | FileProblem:
    """The file's text, or why it is not Markdown text that can land."""
    try:
        data = path.read_bytes()
    except OSError as failure:
        return FileProblem(path, (f"cannot be read: {failure.strerror or failure}",))
    if b"\0" in data:
        return FileProblem(path, ("is a binary file (it holds NUL bytes); only text lands",))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as failure:
        byte = data[failure.start]
        message = f"is not UTF-8 text (byte 0x{byte:02x} at offset {failure.start})"
        return FileProblem(path, (f"{message}; only text lands",))


def check_file(path: Path, registry: ItemTypeRegistry = DEFAULT_REGISTRY) -> str | FileProblem:
    """The file's text when it may land, or its problems."""
    text = read_text(path)
    if isinstance(text, FileProblem):
        return text
    problems = lint_artifact(text, known_refs=_any_ref, registry=registry)
    if problems:
        return FileProblem(path, tuple(describe(problem) for problem in problems))
    return text


def describe(problem: Problem) -> str:
    """A lint problem for a person: where, then what."""
    return f"{problem.place}: {problem.message}"


def _any_ref(_ref: str) -> bool:
    return True
