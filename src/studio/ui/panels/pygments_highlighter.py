"""Syntax colouring for YAML and JSON text areas, driven by a Pygments lexer and style."""

from pygments.lexer import Lexer
from pygments.lexers.data import YamlLexer
from pygments.styles import get_style_by_name
from pygments.token import _TokenType
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from studio.ui.panels.inline_message import window_is_dark

LIGHT_STYLE = "default"
DARK_STYLE = "monokai"


class PygmentsHighlighter(QSyntaxHighlighter):
    """Colours each line of a document with the tokens a Pygments lexer finds in it.

    Lines are lexed one at a time, which suits YAML and JSON: their tokens rarely span lines.
    """

    def __init__(self, document: QTextDocument, lexer: Lexer | None = None) -> None:
        super().__init__(document)
        self._lexer = lexer or YamlLexer(stripnl=False, ensurenl=False)
        self._style = get_style_by_name(DARK_STYLE if window_is_dark() else LIGHT_STYLE)
        self._formats: dict[_TokenType, QTextCharFormat] = {}

    def highlightBlock(self, text: str) -> None:
        """Apply the token formats to one line of the document."""
        start = 0
        for token_type, value in self._lexer.get_tokens(text):
            length = _utf16_length(value)  # Qt positions count UTF-16 code units
            char_format = self._format_for(token_type)
            if char_format is not None:
                self.setFormat(start, length, char_format)
            start += length

    def _format_for(self, token_type: _TokenType) -> QTextCharFormat | None:
        if token_type not in self._formats:
            self._formats[token_type] = self._build_format(token_type)
        char_format = self._formats[token_type]
        return None if char_format.isEmpty() else char_format

    def _build_format(self, token_type: _TokenType) -> QTextCharFormat:
        while not self._style.styles_token(token_type) and token_type.parent is not None:
            token_type = token_type.parent  # lexers use token types a style may not list
        style = self._style.style_for_token(token_type)
        char_format = QTextCharFormat()
        if style["color"]:
            char_format.setForeground(QColor(f"#{style['color']}"))
        if style["bold"]:
            char_format.setFontWeight(QFont.Weight.Bold)
        if style["italic"]:
            char_format.setFontItalic(True)
        return char_format


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2
