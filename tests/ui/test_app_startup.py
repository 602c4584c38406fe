"""Start-up holds the garbage collector off until the window is drawn, and then lets it work
again: a collector left off would let reference cycles pile up for as long as the app runs."""

import gc
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from studio.ui.app import collect_after_first_paint


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The collector as a desktop command leaves it before the window is built: off."""
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.enable()


@pytest.mark.usefixtures("collector_off")
def test_the_collector_waits_while_the_window_is_not_drawn(qtbot) -> None:
    window = QLabel("Studio")
    qtbot.addWidget(window)
    collect_after_first_paint(window)
    for _ in range(5):
        QApplication.processEvents()
    assert not gc.isenabled()


@pytest.mark.usefixtures("collector_off")
def test_the_collector_is_back_once_the_window_is_drawn(qtbot) -> None:
    window = QLabel("Studio")
    qtbot.addWidget(window)
    collect_after_first_paint(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(gc.isenabled)
    assert gc.get_freeze_count() > 0  # what start-up made is out of the collector's way


@pytest.mark.usefixtures("collector_off")
def test_the_collector_comes_back_even_when_the_window_is_never_drawn(qtbot) -> None:
    window = QLabel("Studio")  # started minimised, say: no paint comes
    qtbot.addWidget(window)
    collect_after_first_paint(window, latest_ms=50)
    qtbot.waitUntil(gc.isenabled, timeout=2000)
