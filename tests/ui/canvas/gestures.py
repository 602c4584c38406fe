"""Mouse and keyboard gestures on a QGraphicsView, as a person makes them."""

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QGraphicsView


def _send(
    view: QGraphicsView,
    kind: QEvent.Type,
    at: QPoint,
    button: Qt.MouseButton,
    buttons: Qt.MouseButton,
    modifiers=Qt.KeyboardModifier.NoModifier,
) -> None:
    local = QPointF(at)
    event = QMouseEvent(
        kind, local, QPointF(view.viewport().mapToGlobal(at)), button, buttons, modifiers
    )
    QApplication.sendEvent(view.viewport(), event)


def drag(
    view: QGraphicsView,
    start: QPointF,
    end: QPointF,
    steps: int = 6,
    button: Qt.MouseButton = Qt.MouseButton.LeftButton,
) -> None:
    """Press at ``start`` (scene), move in steps to ``end`` (scene) and release."""
    begin, finish = view.mapFromScene(start), view.mapFromScene(end)
    _send(view, QEvent.Type.MouseButtonPress, begin, button, button)
    for step in range(1, steps + 1):
        point = begin + (finish - begin) * step / steps
        _send(view, QEvent.Type.MouseMove, point, Qt.MouseButton.NoButton, button)
    _send(view, QEvent.Type.MouseButtonRelease, finish, button, Qt.MouseButton.NoButton)


def click(view: QGraphicsView, at: QPointF, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A left click at a scene point."""
    point = view.mapFromScene(at)
    left = Qt.MouseButton.LeftButton
    _send(view, QEvent.Type.MouseButtonPress, point, left, left, modifiers)
    _send(view, QEvent.Type.MouseButtonRelease, point, left, Qt.MouseButton.NoButton, modifiers)


def double_click(view: QGraphicsView, at: QPointF) -> None:
    """A left double-click at a scene point."""
    point = view.mapFromScene(at)
    left = Qt.MouseButton.LeftButton
    _send(view, QEvent.Type.MouseButtonPress, point, left, left)
    _send(view, QEvent.Type.MouseButtonRelease, point, left, Qt.MouseButton.NoButton)
    _send(view, QEvent.Type.MouseButtonDblClick, point, left, left)
    _send(view, QEvent.Type.MouseButtonRelease, point, left, Qt.MouseButton.NoButton)
