"""Studio's icons come from the icon font QtAwesome bundles, so they draw on a machine whose only
fonts lack every symbol: each name of the table draws ink, in the theme's colour unless told,
and a message's icon stands level with its first line of words."""

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication

from studio.ui.icons import ICONS, icon, kind_icon_name, status_icon_name
from studio.ui.panels.inline_message import InlineMessage, message_colour
from studio.ui.theme import apply_theme
from tests.ui.pixels import picture, pixels_near


def ink(image: QImage) -> int:
    """How many pixels of ``image`` are not transparent."""
    size = image.size()
    return sum(
        image.pixelColor(x, y).alpha() > 0
        for y in range(size.height())
        for x in range(size.width())
    )


def test_every_icon_of_the_table_draws_ink(qapp) -> None:
    for name in ICONS:
        drawn = icon(name, "#1a66d2").pixmap(QSize(24, 24)).toImage()
        assert 20 < ink(drawn) < 24 * 24 * 0.9, name


def test_an_icon_without_a_colour_takes_the_themes_text_colour(qapp) -> None:
    try:
        for theme in ("light", "dark"):
            apply_theme(theme)
            text = QApplication.palette().color(QPalette.ColorRole.WindowText).name()
            image = icon("run").pixmap(QSize(24, 24)).toImage()
            solid = {
                image.pixelColor(x, y).name()
                for y in range(24)
                for x in range(24)
                if image.pixelColor(x, y).alpha() == 255
            }
            assert solid == {text}, theme
    finally:
        apply_theme("system")


def test_unknown_statuses_and_kinds_still_get_an_icon(qapp) -> None:
    assert status_icon_name("frozen_solid") == "status_unknown"
    assert kind_icon_name("telepathy") == "kind_agent"
    assert not icon(status_icon_name("frozen_solid")).isNull()


def test_a_message_shows_its_words_alone_and_its_icon_level_with_the_first_line(qtbot) -> None:
    message = InlineMessage()
    qtbot.addWidget(message)
    message.show_warning("The model is not in the provider's list; it may still work.")
    message.resize(220, 120)  # taller than its two lines of words: they sit in the middle
    message.show()
    assert message.text().startswith("The model")
    assert message.icon_name == "message_warning"
    image = picture(message)
    colour = QColor(message_colour("warning"))
    place = message.icon_rect()
    assert pixels_near(image, place, colour) > 30  # the icon is drawn
    words = QRect(place.right() + 2, 0, image.width() - place.right() - 2, image.height())
    inked_rows = [
        y
        for y in range(image.height())
        if pixels_near(image, QRect(words.left(), y, 200, 1), colour)
    ]
    first_line = (inked_rows[0], inked_rows[0] + message.fontMetrics().height())
    assert first_line[0] - 3 <= place.center().y() <= first_line[1], (place, first_line)
