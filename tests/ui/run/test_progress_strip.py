"""The run's progress strip in the status bar asks for a repaint and never paints on the spot
(as QProgressBar does inside setValue), so a run's many progress steps cost one paint a frame;
what it draws is how much is done."""

from PySide6.QtGui import QColor, QPalette

from studio.ui.run.progress_strip import ProgressStrip


class CountedStrip(ProgressStrip):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def paintEvent(self, event) -> None:
        self.paints += 1
        super().paintEvent(event)


def test_progress_steps_are_painted_with_the_next_frame_not_on_the_spot(qtbot) -> None:
    strip = CountedStrip()
    qtbot.addWidget(strip)
    strip.resize(160, 12)
    strip.show()
    qtbot.waitExposed(strip)
    qtbot.waitUntil(lambda: strip.paints > 0)
    before = strip.paints

    strip.setRange(0, 200)
    for value in range(1, 101):
        strip.setValue(value)

    assert strip.paints == before  # nothing painted inside setValue
    qtbot.waitUntil(lambda: strip.paints > before)
    assert strip.paints <= before + 2 and strip.value() == 100


def test_the_strip_is_filled_as_far_as_the_work_is_done(qtbot) -> None:
    strip = ProgressStrip()
    qtbot.addWidget(strip)
    strip.resize(160, 12)
    strip.setRange(0, 4)
    strip.setValue(1)
    picture = strip.grab().toImage()
    highlight = strip.palette().color(QPalette.ColorRole.Highlight)

    def filled(x: int) -> bool:
        return QColor(picture.pixel(x, 6)) == highlight

    assert filled(20) and not filled(100)
