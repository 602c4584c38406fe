"""Two versions of an artifact side by side: removed lines on the left, added on the right,
each marked with a sign as well as a colour, with line numbers."""

import difflib
import html
from dataclasses import dataclass
from typing import Literal

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QLabel, QTextBrowser, QVBoxLayout, QWidget

from studio.ui.panels.inline_message import window_is_dark

RowKind = Literal["same", "removed", "added", "changed"]
_FILLS = {  # (on a light window, on a dark window)
    "removed": ("#ffebe9", "#5a1e1e"),
    "added": ("#e6ffec", "#1e4620"),
}
_MUTED = ("#6a737d", "#8c8f94")


@dataclass(frozen=True)
class DiffRow:
    """One row of the side-by-side view; a side is None where that version has no line."""

    kind: RowKind
    old_number: int | None
    old_line: str | None
    new_number: int | None
    new_line: str | None


def diff_rows(old_text: str, new_text: str) -> list[DiffRow]:
    """The rows that show ``old_text`` beside ``new_text``; replaced lines are paired."""
    old, new = old_text.splitlines(), new_text.splitlines()
    rows: list[DiffRow] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows += [
                DiffRow("same", i + 1, old[i], j + 1, new[j])
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            ]
            continue
        for offset in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + offset, j1 + offset
            left = (i + 1, old[i]) if i < i2 else (None, None)
            right = (j + 1, new[j]) if j < j2 else (None, None)
            kind: RowKind = "changed" if i < i2 and j < j2 else "removed" if i < i2 else "added"
            rows.append(DiffRow(kind, left[0], left[1], right[0], right[1]))
    return rows


def diff_html(old_ref: str, new_ref: str, rows: list[DiffRow], dark: bool = False) -> str:
    """The rows as one HTML table: number, sign and text of each side."""
    shade = 1 if dark else 0
    muted = _MUTED[shade]
    head = (
        f'<tr><th colspan="3" align="left">{html.escape(old_ref)}</th>'
        f'<th colspan="3" align="left">{html.escape(new_ref)}</th></tr>\n'
    )
    body = "".join(_row_html(row, shade, muted) for row in rows)
    return (
        '<table width="100%" cellspacing="0" cellpadding="2" style="border-collapse: collapse">'
        f"\n{head}{body}</table>"
    )


def _row_html(row: DiffRow, shade: int, muted: str) -> str:
    removed = row.kind in ("removed", "changed")
    added = row.kind in ("added", "changed")
    left = _side_html(row.old_number, row.old_line, "-" if removed else "", removed, shade, muted)
    right = _side_html(row.new_number, row.new_line, "+" if added else "", added, shade, muted)
    return f"<tr>{left}{right}</tr>\n"


def _side_html(
    number: int | None, line: str | None, sign: str, marked: bool, shade: int, muted: str
) -> str:
    fill = ""
    if marked:
        fill = f' bgcolor="{_FILLS["removed" if sign == "-" else "added"][shade]}"'
    number_text = "" if number is None else str(number)
    text = "" if line is None else html.escape(line)
    return (
        f'<td align="right" width="4%" style="color: {muted}">{number_text}</td>'
        f'<td width="2%"{fill}>{sign}</td>'
        f'<td width="44%"{fill} style="white-space: pre-wrap">{text}</td>'
    )


def summary_text(rows: list[DiffRow]) -> str:
    """How many lines were removed and added, in words."""
    removed = sum(row.old_line is not None and row.kind != "same" for row in rows)
    added = sum(row.new_line is not None and row.kind != "same" for row in rows)
    if not removed and not added:
        return "The two versions have the same text."
    return f"{removed} line(s) removed, {added} line(s) added"


class VersionDiff(QDialog):
    """A window showing two versions' texts side by side, the older on the left."""

    def __init__(
        self,
        old_ref: str,
        old_text: str,
        new_ref: str,
        new_text: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare versions")
        self.rows = diff_rows(old_text, new_text)
        self.summary = QLabel(summary_text(self.rows), self)
        self.summary.setObjectName("diffSummary")
        self.view = QTextBrowser(self)
        self.view.setObjectName("diffView")
        self.view.setOpenLinks(False)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.view.setHtml(diff_html(old_ref, new_ref, self.rows, window_is_dark()))
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.view, 1)
        self.resize(1000, 600)

    def shown_text(self) -> str:
        """What the comparison shows, as plain text (cells separated by tabs and newlines)."""
        return self.view.toPlainText()
