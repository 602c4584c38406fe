"""Editors for multi-line values: a list of strings one per line, and YAML/JSON data."""

from typing import Any

import yaml
from PySide6.QtWidgets import QWidget

from studio.model.input_limits import limit_problem
from studio.model.safe_yaml import SafeYamlLoader
from studio.ui.panels.commit_text_edit import CommitTextEdit
from studio.ui.panels.field_editor import FieldEditor, default_placeholder
from studio.ui.panels.pygments_highlighter import PygmentsHighlighter


class StringListFieldEditor(FieldEditor):
    """A list of strings, one per line; blank lines are dropped and an empty box is "not set"."""

    def __init__(self, name: str, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(name, schema, parent)
        self.text_edit = CommitTextEdit()
        self.text_edit.set_visible_lines(3)
        self.text_edit.setPlaceholderText(default_placeholder(schema) or "One entry per line")
        self.text_edit.committed.connect(self._commit)
        self._add_input(self.text_edit)

    def value(self) -> list[str] | None:
        """The non-blank lines, trimmed, or None when there are none."""
        lines = [line.strip() for line in self.text_edit.toPlainText().splitlines()]
        return [line for line in lines if line] or None

    def set_placeholder(self, text: str) -> None:
        """Show ``text`` in the empty box."""
        self.text_edit.setPlaceholderText(text)

    def _show_value(self, value: Any) -> None:
        items = value if isinstance(value, list) else ([] if value is None else [value])
        self.text_edit.set_text_quietly("\n".join(str(item) for item in items))


class YamlFieldEditor(FieldEditor):
    """Structured data written as YAML (JSON is accepted too), coloured as it is typed.

    The schema decides what the text must hold (an object needs a mapping, an array a list; a
    schema without a type takes any value). Malformed text is reported with its line.
    """

    def __init__(self, name: str, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(name, schema, parent)
        self.text_edit = CommitTextEdit(monospace=True)
        self.text_edit.setLineWrapMode(CommitTextEdit.LineWrapMode.NoWrap)  # wrapped YAML misleads
        self.text_edit.set_visible_lines(5)
        self.text_edit.setPlaceholderText(default_placeholder(schema) or "key: value")
        self.highlighter = PygmentsHighlighter(self.text_edit.document())
        self.text_edit.committed.connect(self._commit)
        self._add_input(self.text_edit)

    def value(self) -> Any:
        """The data in the box, or None when it is empty or cannot be read."""
        parsed, problem = self._parse()
        return None if problem else parsed

    def set_placeholder(self, text: str) -> None:
        """Show ``text`` in the empty box."""
        self.text_edit.setPlaceholderText(text)

    def _show_value(self, value: Any) -> None:
        if value is None or value == {} or value == []:
            text = ""
        else:
            text = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=1000)
        self.text_edit.set_text_quietly(text.rstrip("\n"))

    def _input_error(self) -> str | None:
        return self._parse()[1]

    def _parse(self) -> tuple[Any, str | None]:
        text = self.text_edit.toPlainText()
        if not text.strip():
            return None, None
        try:
            parsed = yaml.load(text, Loader=_JsonLikeLoader)
        except yaml.MarkedYAMLError as failure:
            return None, _located(failure, text)
        except yaml.YAMLError as failure:
            return None, f"Invalid YAML: {failure}"
        beyond = limit_problem(parsed)
        if beyond is not None:
            return None, f"Not accepted: {beyond}."
        return parsed, None


class _JsonLikeLoader(SafeYamlLoader):
    """Studio's YAML loader, keeping dates as text so every value read can be saved as JSON."""


_JsonLikeLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _located(failure: yaml.MarkedYAMLError, text: str) -> str:
    mark = failure.problem_mark or failure.context_mark
    if failure.context_mark is not None and mark is not None and mark.index >= len(text.rstrip()):
        mark = failure.context_mark  # the text ended first: show where the open part began
    problem = failure.problem or failure.context or "cannot be read"
    if mark is None:
        return f"Invalid YAML: {problem}."
    return f"Invalid YAML at line {mark.line + 1}, column {mark.column + 1}: {problem}."
