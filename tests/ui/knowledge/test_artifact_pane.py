"""The artifact pane, used as a person would: the checkout-redesign corpus is ingested into a
fresh database, versions are shown as the Knowledge view hands them over, and links, the
history list and the Compare button are clicked."""

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QLabel, QTextBrowser
from pytestqt.qtbot import QtBot

from studio.knowledge.knowledge_base import KnowledgeBase
from studio.model.knowledge import ArtifactVersion
from studio.store.knowledge import ArtifactIntegrityError
from studio.ui.knowledge.artifact_pane import EMPTY_TEXT, ArtifactPane, provenance_text
from studio.ui.theme import apply_theme
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parents[2] / "knowledge" / "fixtures" / "checkout-redesign"
SUBJECT = "checkout-redesign"
STORIES = f"{SUBJECT}/stories/2026-09-09-stories.md"
OLD_REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-01-requirements.md"
NEW_REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-08-requirements.md"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "knowledge.db"


@pytest.fixture
def knowledge(tmp_path: Path, database: Path) -> Iterator[KnowledgeBase]:
    workspace = Workspace(data_dir=tmp_path, database=str(database))
    workspace.knowledge.ingest(FIXTURE)
    yield workspace.knowledge
    workspace.close()


@pytest.fixture
def pane(qtbot: QtBot) -> ArtifactPane:
    widget = ArtifactPane()
    qtbot.addWidget(widget)
    widget.resize(640, 900)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def head(knowledge: KnowledgeBase, artifact_id: str) -> ArtifactVersion:
    (version,) = [v for v in knowledge.heads(subject=SUBJECT) if v.artifact_id == artifact_id]
    return version


def show(pane: ArtifactPane, knowledge: KnowledgeBase, artifact_id: str) -> ArtifactVersion:
    version = head(knowledge, artifact_id)
    history = knowledge.history(SUBJECT, artifact_id)
    pane.show_artifact(version, knowledge.resolve(version.ref), None, history)
    return version


def click_link(qtbot: QtBot, browser: QTextBrowser, text: str) -> None:
    """Click the middle of the first place ``text`` is shown."""
    found = browser.document().find(text, 0, QTextDocument.FindFlag.FindCaseSensitively)
    assert not found.isNull(), f"{text!r} is not shown"
    middle = QTextCursor(found)
    middle.setPosition((found.selectionStart() + found.selectionEnd()) // 2)
    browser.setTextCursor(middle)
    browser.ensureCursorVisible()
    point = browser.cursorRect(middle).center()
    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_the_design_is_shown_with_its_header_provenance_and_cards(
    pane: ArtifactPane, knowledge: KnowledgeBase, tmp_path: Path
) -> None:
    version = show(pane, knowledge, "design")

    assert pane.shown_ref() == version.ref
    assert pane.findChild(QLabel, "artifactTitle").text() == "Checkout design"
    details = pane.findChild(QLabel, "artifactDetails").text()
    assert details.startswith("design · checkout-redesign · created 2026-09-")
    provenance = pane.findChild(QLabel, "artifactProvenance").text()
    assert ">produced by run exec-0007 of design-pipeline, node design</a>" in provenance
    page = pane.browser.toHtml()
    assert "Components" in pane.shown_text() and "font-size:xx-large" in page
    assert "Payment gateway adapter" in pane.shown_text()
    assert "id: C-PAY" not in pane.shown_text()
    pane.grab().save(str(tmp_path / "pane.png"))
    assert (tmp_path / "pane.png").stat().st_size > 10_000


def test_clicking_an_item_link_asks_for_its_node(
    qtbot: QtBot, pane: ArtifactPane, knowledge: KnowledgeBase
) -> None:
    show(pane, knowledge, "design")

    with qtbot.waitSignal(pane.nodeRequested, timeout=2000) as requested:
        click_link(qtbot, pane.browser, "C-PAY")
    assert requested.args == ["C-PAY"]

    with qtbot.waitSignal(pane.nodeRequested, timeout=2000) as requested:
        click_link(qtbot, pane.browser, "exec-0007")
    assert requested.args == ["run:exec-0007"]


def test_a_citation_asks_for_the_node_the_caller_names(
    qtbot: QtBot, pane: ArtifactPane, knowledge: KnowledgeBase
) -> None:
    pane.set_node_href(lambda subject, key: f"studio-node:{subject}%2F{key.replace(':', '%3A')}")
    show(pane, knowledge, "design")

    with qtbot.waitSignal(pane.nodeRequested, timeout=2000) as requested:
        click_link(qtbot, pane.browser, "[[requirements]]")
    assert requested.args == ["checkout-redesign/kind:requirements"]


def test_the_provenance_link_asks_for_the_run(
    qtbot: QtBot, pane: ArtifactPane, knowledge: KnowledgeBase
) -> None:
    show(pane, knowledge, "stories")
    label = pane.findChild(QLabel, "artifactProvenance")

    with qtbot.waitSignal(pane.provenanceRequested, timeout=2000) as requested:
        qtbot.mouseClick(label, Qt.MouseButton.LeftButton, pos=QPoint(20, label.height() // 2))
    assert requested.args == [
        {
            "capability": "analysis",
            "workflow": "intake-pipeline",
            "execution": "exec-0004",
            "node": "stories",
        }
    ]


def test_provenance_names_the_workflow_version_node_and_attempt() -> None:
    produced_by = {
        "workflow": "wf-1",
        "workflow_version": 3,
        "execution": "4f1c2a3b-9d7e-4e0a-8c55-0123456789ab",
        "node": "write-design",
        "attempt": 1,
    }

    text = provenance_text(produced_by, {"wf-1": "Checkout flow"})
    assert text == "produced by run 4f1c2a3b… of Checkout flow v3, node write-design, attempt 1"
    assert provenance_text({"capability": "analysis"}, {}) == (
        "produced by analysis, no run recorded"
    )


def test_workflow_names_replace_ids_in_the_header(
    pane: ArtifactPane, knowledge: KnowledgeBase
) -> None:
    show(pane, knowledge, "design")
    pane.set_workflow_names({"design-pipeline": "Design pipeline"})

    provenance = pane.findChild(QLabel, "artifactProvenance").text()
    assert "of Design pipeline, node design" in provenance


def test_a_damaged_stored_text_is_named_in_the_pane(
    pane: ArtifactPane, knowledge: KnowledgeBase, database: Path
) -> None:
    connection = sqlite3.connect(database)
    connection.execute("DROP TRIGGER artifact_bodies_no_update")
    connection.execute(
        "UPDATE artifact_bodies SET body = 'Pay the attacker first' "
        "WHERE sha256 = (SELECT sha256 FROM artifact_versions WHERE ref = ?)",
        (STORIES,),
    )
    connection.commit()
    connection.close()
    version = head(knowledge, "stories")
    with pytest.raises(ArtifactIntegrityError) as damaged:
        knowledge.resolve(STORIES)

    pane.show_artifact(version, None, str(damaged.value), [version])

    shown = pane.shown_text()
    assert "This version cannot be shown" in shown
    assert f"damaged: {STORIES}: its text does not match the SHA-256" in shown
    assert "Pay the attacker first" not in shown
    assert pane.findChild(QLabel, "artifactTitle").text() == "User stories"

    pane.show_error(str(damaged.value))
    assert "The artifact cannot be shown" in pane.shown_text()
    assert STORIES in pane.shown_text()
    assert pane.shown_ref() is None


def test_the_history_lists_newest_first_and_choosing_one_asks_for_it(
    qtbot: QtBot, pane: ArtifactPane, knowledge: KnowledgeBase
) -> None:
    show(pane, knowledge, "requirements")
    versions = pane.history.list

    texts = [versions.item(row).text() for row in range(versions.count())]
    assert texts[0].endswith("Checkout requirements (revised)   (current)")
    assert "2026-09-01" in texts[1] and texts[1].endswith("Checkout requirements")
    assert versions.item(0).font().bold() and not versions.item(1).font().bold()

    with qtbot.waitSignal(pane.versionRequested, timeout=2000) as requested:
        point = versions.visualItemRect(versions.item(1)).center()
        qtbot.mouseClick(versions.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert requested.args == [OLD_REQUIREMENTS]


def test_compare_opens_the_two_versions_side_by_side(
    qtbot: QtBot, pane: ArtifactPane, knowledge: KnowledgeBase
) -> None:
    show(pane, knowledge, "requirements")
    compare = pane.history.compare
    assert compare.isEnabled()

    with qtbot.waitSignal(pane.compareRequested, timeout=2000) as requested:
        qtbot.mouseClick(compare, Qt.MouseButton.LeftButton)
    assert requested.args == [OLD_REQUIREMENTS, NEW_REQUIREMENTS]

    old, new = requested.args
    pane.show_comparison(old, knowledge.resolve(old), new, knowledge.resolve(new))
    diff = pane.comparison()
    assert diff is not None and diff.isVisible()
    shown = diff.shown_text()
    assert "-\nThe checkout must take fewer steps and never lose a cart." in shown
    assert "+\nThe checkout must take fewer steps, never lose a cart, and accept wallets." in shown


def test_one_version_cannot_be_compared(pane: ArtifactPane, knowledge: KnowledgeBase) -> None:
    show(pane, knowledge, "design")

    assert pane.history.list.count() == 1
    assert not pane.history.compare.isEnabled()


def test_clear_shows_the_empty_state(pane: ArtifactPane, knowledge: KnowledgeBase) -> None:
    show(pane, knowledge, "design")
    pane.clear()

    assert pane.shown_text().strip() == EMPTY_TEXT
    assert pane.shown_ref() is None
    assert not pane.findChild(QLabel, "artifactTitle").isVisible()
    assert not pane.history.isVisible()


def test_a_theme_change_renders_the_artifact_again_in_its_colours(
    qtbot: QtBot, pane: ArtifactPane, knowledge: KnowledgeBase
) -> None:
    show(pane, knowledge, "design")
    assert "#eef1f5" in pane.browser.toHtml()

    apply_theme("dark")
    try:
        qtbot.waitUntil(lambda: "#2f3237" in pane.browser.toHtml(), timeout=2000)
        assert "#eef1f5" not in pane.browser.toHtml()
        assert "Payment gateway adapter" in pane.shown_text()
    finally:
        apply_theme("system")
