"""Reviewing a newer blueprint version beside the local edits, and applying it."""

import pytest
from PySide6.QtCore import Qt

from studio.model import Edge, EdgeCondition, Workflow
from studio.ui.catalog.update_review import BLUEPRINT_COLUMN, LOCAL_COLUMN, UpdateReviewDialog

PARTLY = EdgeCondition(field="result.partial", operator="exists", value=True)


@pytest.fixture
def router(seeds: list[Workflow]) -> Workflow:
    """The Conditional Router blueprint Studio ships, as version 1."""
    return next(blueprint for blueprint in seeds if blueprint.name == "Conditional Router")


def with_node(workflow: Workflow, node_id: str, **configuration: object) -> Workflow:
    """The workflow with one node's name or configuration fields replaced."""
    nodes = []
    for node in workflow.nodes:
        if node.id == node_id and "name" in configuration:
            node = node.model_copy(update={"name": configuration.pop("name")})
        if node.id == node_id:
            changed = node.configuration.model_copy(update=configuration)
            node = node.model_copy(update={"configuration": changed})
        nodes.append(node)
    return workflow.model_copy(update={"nodes": nodes})


def newer(router: Workflow) -> Workflow:
    """Version 2: the classifier's settings change and an edge is added."""
    theirs = with_node(router, "classify", parameters={"threshold": 0.7})
    edge = Edge(source="fulfil", target="explain", condition=PARTLY)
    return theirs.model_copy(update={"version": 2, "edges": [*theirs.edges, edge]})


def imported(router: Workflow) -> Workflow:
    """The copy in an app, with a local edit to another node."""
    copy = router.model_copy(
        update={"id": "wf-1", "name": "Conditional Router (Copy)", "is_blueprint": False}
    )
    return with_node(copy, "explain", name="Explain the refusal")


def opened(qtbot, base: Workflow, theirs: Workflow, ours: Workflow) -> UpdateReviewDialog:
    dialog = UpdateReviewDialog(base, theirs, ours)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_review_lists_the_blueprint_changes_beside_the_local_edit(qtbot, router) -> None:
    dialog = opened(qtbot, router, newer(router), imported(router))

    assert dialog.shown_lines(BLUEPRINT_COLUMN) == [
        "Node 'Classify request': parameter 'threshold' not set → 0.7",
        "Edge 'Fulfil' → 'Explain the refusal': added (when result.partial exists)",
    ]
    assert dialog.shown_lines(LOCAL_COLUMN) == [
        "Node 'Explain the refusal': name Explain rejection → Explain the refusal"
    ]
    assert dialog.conflict_lines() == []


def test_a_conflict_is_marked_on_both_sides_and_explained(qtbot, router) -> None:
    theirs = with_node(newer(router), "classify", model_override="gpt-4.1")
    ours = with_node(imported(router), "classify", model_override="gpt-4o-mini")

    dialog = opened(qtbot, router, theirs, ours)

    assert "Node 'Classify request': model override none → gpt-4.1 [conflict]" in (
        dialog.shown_lines(BLUEPRINT_COLUMN)
    )
    assert "Node 'Classify request': model override none → gpt-4o-mini [conflict]" in (
        dialog.shown_lines(LOCAL_COLUMN)
    )
    assert dialog.conflict_lines() == [
        "Node 'Classify request': model override: the blueprint has gpt-4.1, this workflow "
        "gpt-4o-mini; the local value is kept"
    ]


def test_apply_update_gives_the_merged_workflow(qtbot, router) -> None:
    theirs = with_node(newer(router), "classify", model_override="gpt-4.1")
    ours = with_node(imported(router), "classify", model_override="gpt-4o-mini")
    dialog = opened(qtbot, router, theirs, ours)
    assert dialog.merged() is None

    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)

    merged = dialog.merged()
    assert merged is not None and merged.id == "wf-1"
    classify, explain = merged.node("classify"), merged.node("explain")
    assert classify is not None and explain is not None
    assert classify.configuration.parameters == {"threshold": 0.7}
    assert classify.configuration.model_override == "gpt-4o-mini"
    assert explain.name == "Explain the refusal"
    assert ("fulfil", "explain") in [(edge.source, edge.target) for edge in merged.edges]
    assert not dialog.isVisible()


def test_cancel_gives_no_workflow(qtbot, router) -> None:
    dialog = opened(qtbot, router, newer(router), imported(router))

    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)

    assert dialog.merged() is None
    assert not dialog.isVisible()


def test_an_update_without_changes_says_so(qtbot, router) -> None:
    copy = router.model_copy(update={"id": "wf-1"})

    dialog = opened(qtbot, router, router, copy)

    assert dialog.shown_lines(BLUEPRINT_COLUMN) == dialog.shown_lines(LOCAL_COLUMN) == []
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert dialog.merged() == copy
