"""Reading and writing workflow definitions as YAML or JSON, chosen by file extension."""

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Literal

import yaml

from studio.model.input_limits import InputLimitError, limit_problem, parse_json_text
from studio.model.safe_yaml import YamlLimitError, load_yaml_text
from studio.model.structure import load_workflow_data
from studio.model.text_files import UnreadableFileError, read_text_file
from studio.model.workflow import SERVER_FIELDS, Workflow

FileFormat = Literal["yaml", "json"]
# libyaml's emitter when PyYAML was built with it: many times faster on large workflows; the
# pure-Python class behaves the same.
_EXTENSIONS: dict[str, FileFormat] = {".yaml": "yaml", ".yml": "yaml", ".json": "json"}


class WorkflowFileError(Exception):
    """A file that cannot be read or parsed; names the file and, when known, the line."""

    def __init__(self, path: str, message: str, line: int | None = None, column: int | None = None):
        self.path, self.message, self.line, self.column = path, message, line, column
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}" + (f":{self.column}" if self.column is not None else "")
        return f"{where}: {self.message}"

    def located_message(self) -> str:
        """The message with its line and column but without the file name."""
        if self.line is None:
            return self.message
        column = f", column {self.column}" if self.column is not None else ""
        return f"line {self.line}{column}: {self.message}"

    def to_data(self) -> dict:
        """JSON-compatible form for ``--json`` output."""
        return {
            "file": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }


def format_of(path: str | Path) -> FileFormat:
    """The format a file name asks for, by its extension."""
    suffix = Path(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        known = ", ".join(sorted(_EXTENSIONS))
        raise WorkflowFileError(str(path), f"unknown file type '{suffix}'; expected one of {known}")
    return _EXTENSIONS[suffix]


def read_definition(path: str | Path) -> Any:
    """Load the raw data of a YAML or JSON file, with the line of any syntax error."""
    fmt = format_of(path)
    try:
        text = read_text_file(path)
    except UnreadableFileError as failure:
        raise WorkflowFileError(str(path), f"cannot read the file: {failure.reason}") from None
    return parse_text(text, fmt, str(path))


def parse_text(text: str, fmt: FileFormat, source: str = "<text>") -> Any:
    """Parse YAML or JSON text; duplicate keys are errors, as later ones would silently win,
    and so are infinite or not-a-number values, which JSON cannot carry, and anything over the
    input limits (nesting, text length, alias expansion)."""
    data = _parse_json(text, source) if fmt == "json" else _parse_yaml(text, source)
    problem = limit_problem(data)
    if problem is not None:
        raise WorkflowFileError(source, problem)
    return data


def load_workflow(path: str | Path) -> Workflow:
    """Read a file into a Workflow; raises WorkflowFileError or DefinitionError."""
    return load_workflow_data(read_definition(path))


def export_data(workflow: Workflow) -> dict[str, Any]:
    """The portable definition: everything but the fields the store assigns."""
    return workflow.model_dump(
        mode="json", by_alias=True, exclude=set(SERVER_FIELDS), exclude_defaults=True
    )


def dump_text(data: Any, fmt: FileFormat) -> str:
    """Render data as formatted YAML or JSON text."""
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return yaml.dump(data, Dumper=_ExactDumper, sort_keys=False, allow_unicode=True, width=100)


class _ExactDumper(yaml.SafeDumper):
    """A safe dumper that keeps every character of every string."""


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # PyYAML writes NEXT LINE (U+0085) raw in plain and single-quoted scalars, where a reader
    # takes it for a line break; double quotes escape it.
    style = '"' if "\x85" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_ExactDumper.add_representer(str, _represent_str)


def export_text(workflow: Workflow, fmt: FileFormat) -> str:
    """The portable definition rendered as YAML or JSON."""
    return dump_text(export_data(workflow), fmt)


def import_text(text: str, fmt: FileFormat, source: str = "<text>") -> Workflow:
    """Parse exported text back into a Workflow (a new draft, without store fields)."""
    return load_workflow_data(parse_text(text, fmt, source))


def write_workflow(workflow: Workflow, path: str | Path) -> None:
    """Export to a file atomically: a crash mid-write never leaves a half-written file."""
    target = Path(path)
    write_text_file(target, export_text(workflow, format_of(target)))


def write_text_file(target: Path, text: str) -> None:
    """Write ``text`` atomically: a crash mid-write never leaves a half-written file."""
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _parse_json(text: str, source: str) -> Any:
    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise ValueError(f"duplicate key '{key}'")
            result[key] = value
        return result

    try:
        return parse_json_text(text, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as failure:
        raise WorkflowFileError(
            source, f"invalid JSON: {failure.msg}", failure.lineno, failure.colno
        ) from failure
    except InputLimitError as failure:
        raise WorkflowFileError(source, str(failure)) from failure
    except ValueError as failure:
        raise WorkflowFileError(source, f"invalid JSON: {failure}") from failure


def _parse_yaml(text: str, source: str) -> Any:
    try:
        return load_yaml_text(text)
    except yaml.MarkedYAMLError as failure:
        mark = failure.problem_mark or failure.context_mark
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        problem = failure.problem or failure.context or "syntax error"
        if not isinstance(failure, YamlLimitError):
            problem = f"invalid YAML: {problem}"
        raise WorkflowFileError(source, problem, line, column) from failure
    except yaml.YAMLError as failure:
        raise WorkflowFileError(source, f"invalid YAML: {failure}") from failure
