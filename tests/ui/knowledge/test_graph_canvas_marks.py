"""Marks on the knowledge graph canvas: lineage dimming, compare colours and ghosts, gap
badges, suspect edges, and edge types on hover."""

from PySide6.QtCore import QPointF, Qt

from studio.knowledge.graph_layout import NODE_H, NODE_W
from studio.ui.knowledge.graph_canvas import KnowledgeCanvas
from studio.ui.knowledge.node_look import ADDED, CHANGED
from tests.ui.knowledge.test_graph_canvas import canvas, full, grid, node, workspace

__all__ = ["canvas", "full", "workspace"]  # the fixtures, shared


def test_lineage_dims_everything_else(canvas: KnowledgeCanvas) -> None:
    keep = {node("REQ-1"), node("ST-1"), node("unit:guest-pay")}
    canvas.set_dimmed(keep)
    assert canvas.node_item(node("REQ-1")).opacity() == 1.0
    assert canvas.node_item(node("design")).opacity() < 0.5
    covers = canvas.scene.edges[(node("ST-1"), "COVERS", node("REQ-1"))]
    derived = canvas.scene.edges[(node("ST-1"), "DERIVED_FROM", node("stories"))]
    assert covers.opacity() == 1.0 and derived.opacity() < 0.5
    canvas.set_dimmed(None)
    assert canvas.node_item(node("design")).opacity() == 1.0 and derived.opacity() == 1.0


def test_compare_colours_changes_and_draws_removed_nodes_as_ghosts(canvas, full) -> None:
    removed = {
        node("old-plan"): {
            "id": node("old-plan"),
            "type": "artifact",
            "label": "Old plan",
            "kind": "unit-plan",
        }
    }
    canvas.set_changes(
        added={node("design")},
        removed=removed,
        changed={node("requirements")},
        removed_positions={node("old-plan"): (0.0, -300.0)},
    )
    assert canvas.node_item(node("design")).pen().color() == ADDED
    assert canvas.node_item(node("requirements")).pen().color() == CHANGED
    ghost = canvas.scene.ghosts[node("old-plan")]
    assert ghost.pen().style() == Qt.PenStyle.DashLine and ghost.opacity() < 1.0
    assert ghost.scene_rect().center() == QPointF(NODE_W / 2, -300.0 + NODE_H / 2)
    assert node("old-plan") not in canvas.node_ids()
    assert "removed" in ghost.toolTip() and "Old plan" in ghost.label.text()
    canvas.show_graph(full, grid(full))  # another moment: the marks stay
    assert canvas.node_item(node("design")).pen().color() == ADDED
    assert node("old-plan") in canvas.scene.ghosts
    canvas.clear_changes()
    assert not canvas.scene.ghosts
    assert canvas.node_item(node("design")).pen().color() != ADDED
    assert ghost.scene() is None


def test_gaps_carry_a_badge_with_the_message(qtbot, canvas) -> None:
    canvas.set_gaps({node("REQ-3"): "no story covers this requirement"})
    badge = canvas.node_item(node("REQ-3")).badge
    assert badge is not None and badge.isVisible()
    canvas.center_on(node("REQ-3"))
    at = canvas.view.mapFromScene(badge.sceneBoundingRect().center())
    under = canvas.view.items(at)
    assert any(item.toolTip() == "no story covers this requirement" for item in under)
    canvas.set_gaps({})
    assert not badge.isVisible()


def test_suspect_edges_are_dashed_with_the_reason(canvas) -> None:
    key = (node("ST-2"), "COVERS", node("REQ-2"))
    edge = canvas.scene.edges[key]
    plain = edge.pen().style()
    canvas.set_suspect_edges({key: "written before REQ-2 was revised"})
    assert edge.pen().style() == Qt.PenStyle.DashLine != plain
    assert "written before REQ-2 was revised" in edge.toolTip()
    canvas.set_suspect_edges({})
    assert edge.pen().style() == plain and "suspect" not in edge.toolTip()


def test_an_edge_says_its_type_near_its_line(canvas) -> None:
    key = (node("run:exec-0007"), "PRODUCES", node("design"))
    edge = canvas.scene.edges[key]
    assert edge.toolTip().startswith("PRODUCES")
    canvas.zoom_by(1.0 / canvas.zoom_level())
    middle = edge.path().pointAtPercent(0.5)
    canvas.view.centerOn(middle)
    near = canvas.view.mapFromScene(middle) + QPointF(0, 4).toPoint()
    assert edge in canvas.view.items(near)  # a generous hover band, not the 1.5 px line
