"""The insights panel, from the gaps and suspect links of a small corpus landed for the test:
stories written against the first requirements, which were revised after."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QImage

from studio.knowledge.insight import Gap, Suspect
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.ui.knowledge.insights_panel import EMPTY_TEXT, InsightsPanel
from studio.ui.theme import apply_theme
from studio.workspace import Workspace
from tests.ui.pixels import picture, place_in_view

SUBJECT = "shop"


def requirements(day: int, supersedes: str = "") -> str:
    replaced = f"supersedes: {supersedes}\n" if supersedes else ""
    return f"""---
id: requirements
kind: requirements
subject: {SUBJECT}
title: Shop requirements
produced_by: {{capability: analysis, workflow: intake, execution: exec-{day}, node: draft}}
{replaced}created_at: 2026-09-{day:02d}T09:00:00Z
---
# Shop requirements

```yaml requirement
id: REQ-1
title: Guest checkout
text: A shopper can pay without an account{" and without a phone number" if supersedes else ""}.
```

```yaml requirement
id: REQ-2
title: Saved carts
text: A cart is kept for 30 days.
```
"""


STORIES = f"""---
id: stories
kind: stories
subject: {SUBJECT}
title: Shop stories
produced_by: {{capability: analysis, workflow: intake, execution: exec-2, node: stories}}
links:
  - {{type: DERIVED_FROM, target: requirements}}
created_at: 2026-09-02T09:00:00Z
---
# Shop stories

```yaml story
id: ST-1
title: Pay as a guest
covers: [REQ-1]
```
"""


@pytest.fixture(scope="module")
def insights(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Gap], list[Suspect]]:
    """REQ-2 is covered by no story, ST-1 implemented by no unit, and the stories' links to the
    requirements were written before the requirements were revised."""
    folder = tmp_path_factory.mktemp("insights")
    workspace = Workspace(data_dir=folder, database=str(folder / "knowledge.db"))
    try:
        knowledge: KnowledgeBase = workspace.knowledge
        first = knowledge.land(requirements(1))
        knowledge.land(STORIES)
        knowledge.land(requirements(4, supersedes=Path(first).name))
        return knowledge.coverage(), knowledge.suspects()
    finally:
        workspace.close()


_shown: list[InsightsPanel] = []


@pytest.fixture(autouse=True)
def _release_shown() -> Iterator[None]:
    yield
    _shown.clear()


def open_panel(qtbot, gaps, suspects, **kwargs) -> InsightsPanel:
    panel = InsightsPanel(**kwargs)
    panel.show_insights(gaps, suspects)
    qtbot.addWidget(panel)
    _shown.append(panel)
    panel.resize(560, 320)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def rows(panel: InsightsPanel) -> dict[str, list[QModelIndex]]:
    """Each group's title and the indexes of its entries, as the view's model has them."""
    model = panel.tree.model()
    groups = [model.index(g, 0) for g in range(model.rowCount())]
    return {g.data(): [model.index(r, 0, g) for r in range(model.rowCount(g))] for g in groups}


def tooltip(row: QModelIndex) -> str:
    return row.data(Qt.ItemDataRole.ToolTipRole)


def has_icon(row: QModelIndex) -> bool:
    icon = row.data(Qt.ItemDataRole.DecorationRole)
    return icon is not None and not icon.isNull()


def click(qtbot, panel: InsightsPanel, row: QModelIndex) -> None:
    rect = panel.tree.visualRect(row)
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_the_corpus_has_the_gaps_and_suspect_links_the_panel_lists(insights) -> None:
    gaps, suspects = insights
    assert [(g.key, g.missing) for g in gaps] == [
        ("REQ-2", "no story covers it"),
        ("ST-1", "no unit implements it"),
    ]
    assert [(s.item, s.link, s.target) for s in suspects] == [
        ("ST-1", "COVERS", "REQ-1"),
        ("stories", "DERIVED_FROM", "requirements"),
    ]


def test_gaps_and_suspect_links_are_grouped_with_counts_and_a_warning_icon(qtbot, insights) -> None:
    panel = open_panel(qtbot, *insights)
    listed = rows(panel)
    assert panel.group_titles() == ["Coverage gaps (2)", "Suspect links (2)"]
    assert [r.data() for r in listed["Coverage gaps (2)"]] == [
        "REQ-2 Saved carts: no story covers it",
        "ST-1 Pay as a guest: no unit implements it",
    ]
    suspect = listed["Suspect links (2)"][0]
    assert suspect.data() == (
        "ST-1 COVERS REQ-1: REQ-1 revised 2026-09-04, after the link (2026-09-02)"
    )
    assert tooltip(suspect) == insights[1][0].message
    every = [row for group in listed.values() for row in group]
    assert all(has_icon(row) for row in every)


def test_selecting_a_gap_asks_for_its_node(qtbot, insights) -> None:
    panel = open_panel(qtbot, *insights)
    with qtbot.waitSignal(panel.nodeRequested) as asked:
        click(qtbot, panel, rows(panel)["Coverage gaps (2)"][0])
    assert asked.args == [f"{SUBJECT}/REQ-2"]


def test_selecting_a_suspect_link_asks_for_the_edge_as_the_view_names_it(qtbot, insights) -> None:
    panel = open_panel(qtbot, *insights, node_id=lambda _subject, key: key)
    with qtbot.waitSignal(panel.edgeRequested) as asked:
        click(qtbot, panel, rows(panel)["Suspect links (2)"][1])
    assert asked.args == [("stories", "DERIVED_FROM", "requirements")]
    panel.set_node_id(lambda subject, key: f"{subject}:{key}")
    panel.show_insights(*insights)
    panel.tree.setFocus()
    with qtbot.waitSignal(panel.edgeRequested) as asked:
        click(qtbot, panel, rows(panel)["Suspect links (2)"][0])
    assert asked.args == [("shop:ST-1", "COVERS", "shop:REQ-1")]


def test_an_implements_link_is_asked_for_in_its_stored_direction(qtbot, insights) -> None:
    """A unit relies on the story whose IMPLEMENTS edge points at it: story -> unit."""
    suspect = Suspect(
        SUBJECT,
        "unit:pay",
        "IMPLEMENTS",
        "ST-1",
        "plan@1",
        insights[1][0].item_written,
        "stories@2",
        insights[1][0].target_revised,
    )
    panel = open_panel(qtbot, [], [suspect])
    with qtbot.waitSignal(panel.edgeRequested) as asked:
        click(qtbot, panel, rows(panel)["Suspect links (1)"][0])
    assert asked.args == [(f"{SUBJECT}/ST-1", "IMPLEMENTS", f"{SUBJECT}/unit:pay")]


def test_two_thousand_suspect_links_are_all_listed(qtbot, insights) -> None:
    """A large store: every suspect link is there, down to the last, once scrolled to."""
    first = insights[1][0]
    suspects = [
        Suspect(
            SUBJECT,
            f"ST-{n}",
            "COVERS",
            f"REQ-{n}",
            "stories@1",
            first.item_written,
            "requirements@2",
            first.target_revised,
        )
        for n in range(1, 2001)
    ]
    panel = open_panel(qtbot, [], suspects)
    assert panel.group_titles() == ["Suspect links (2000)"]
    last = rows(panel)["Suspect links (2000)"][-1]
    panel.tree.scrollTo(last)
    assert last.data() == (
        "ST-2000 COVERS REQ-2000: REQ-2000 revised 2026-09-04, after the link (2026-09-02)"
    )
    assert panel.tree.viewport().rect().contains(panel.tree.visualRect(last).center())
    with qtbot.waitSignal(panel.edgeRequested) as asked:
        click(qtbot, panel, last)
    assert asked.args == [(f"{SUBJECT}/ST-2000", "COVERS", f"{SUBJECT}/REQ-2000")]


def test_nothing_to_report_shows_the_empty_state(qtbot, insights) -> None:
    panel = open_panel(qtbot, [], [])
    assert panel.empty.isVisible() and panel.empty.text() == EMPTY_TEXT
    panel.show_insights(*insights)
    assert panel.tree.isVisible() and not panel.empty.isVisible()
    panel.show_insights(insights[0], [])
    assert panel.group_titles() == ["Coverage gaps (2)"]


def coloured_pixels(image: QImage, rect: QRect) -> int:
    """Pixels of strong colour (a warning icon's yellow or orange), not greys."""
    count = 0
    for y in range(rect.top(), rect.bottom() + 1):
        for x in range(rect.left(), rect.right() + 1):
            colour = QColor(image.pixel(x, y))
            count += colour.saturation() > 120 and colour.value() > 120
    return count


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_warning_icons_and_text_are_drawn_in_both_themes(qtbot, insights, theme) -> None:
    apply_theme(theme)
    try:
        panel = open_panel(qtbot, *insights)
        image = picture(panel)
        tree = panel.tree
        for row in rows(panel)["Coverage gaps (2)"]:
            cell = place_in_view(tree, row, panel)
            icon = QRect(cell.left(), cell.top(), cell.height() + 4, cell.height())
            assert coloured_pixels(image, icon) >= 10, f"no warning icon on {row.data()!r}"
    finally:
        apply_theme("system")
