"""Giving a widget the object name that style sheets and tests find it by."""

from typing import TypeVar

from PySide6.QtCore import QObject

Named = TypeVar("Named", bound=QObject)


def named(widget: Named, name: str) -> Named:
    """``widget`` with its object name set to ``name``, to build and name in one expression."""
    widget.setObjectName(name)
    return widget
