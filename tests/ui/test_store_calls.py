"""A widget whose last reference is a store call's callback is released on the UI thread:
released by the store thread, its C++ object would be deleted there, where Qt cannot stop
its timers, and a timer firing later would run on freed memory."""

import threading

from PySide6.QtCore import QObject, QTimer

from studio.ui.store_calls import StoreCalls


def test_a_widget_held_only_by_a_store_call_is_released_on_the_ui_thread(qtbot) -> None:
    released_on: list[threading.Thread] = []
    answered: list[int] = []

    class Panel(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.ticker = QTimer(self, interval=50)
            self.ticker.start()

        def count(self) -> int:
            return 3

        def show_count(self, value: int) -> None:
            answered.append(value)

        def __del__(self) -> None:
            released_on.append(threading.current_thread())

    calls = StoreCalls()
    panel = Panel()
    future = calls.call(panel.count, panel.show_count)
    del panel

    qtbot.waitUntil(lambda: answered == [3] and len(released_on) == 1)
    assert future.done()
    assert released_on == [threading.main_thread()]
