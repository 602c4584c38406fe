"""Making an HTTP agent in the app: the palette offers every kind, the editor shows the HTTP
form, Try it calls a real local server, mistakes are shown beside their field and keep Save
disabled, and Save writes a definition the registry loads and places the node."""

import json

import pytest
from PySide6.QtCore import QPointF

from studio.model import AgentRegistry, Workflow
from studio.model.agent_files import agent_file_path
from studio.ui.agent_editor.kind_forms import KIND_FORMS
from studio.ui.canvas.editor import WorkflowEditor
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH
from studio.workspace import Workspace
from tests.ui.agent_editor.acting import choose_kind, click, retype
from tests.ui.agent_editor.conftest import ORDERS, OrdersServer

KIND_TITLES = [
    "HTTP request",
    "Shell command",
    "Python function",
    "LLM chat",
    "Transform",
    "Approval",
    "Land artifact",
]


@pytest.fixture
def workspace(tmp_path) -> Workspace:
    return Workspace(data_dir=tmp_path / "data")


@pytest.fixture
def editor(qtbot, workspace) -> WorkflowEditor:
    editor = WorkflowEditor(Workflow(name="Orders"), workspace.agents)
    qtbot.addWidget(editor)
    editor.resize(1000, 700)
    editor.show()
    return editor


def test_the_palette_offers_every_kind_beside_the_agents(qtbot, editor) -> None:
    palette = editor.open_palette(QPointF(0, 0))
    assert palette.visible_kinds() == KIND_TITLES == [form.title for form in KIND_FORMS]
    assert "demo-echo-agent" in palette.visible_agent_ids()
    qtbot.keyClicks(palette.search, "transform")
    assert palette.visible_kinds() == ["Transform"]
    assert palette.visible_agent_ids() == []


def test_choosing_http_request_opens_the_http_form(qtbot, editor) -> None:
    dialog = choose_kind(qtbot, editor, "HTTP request", QPointF(0, 0))
    assert dialog.windowTitle() == "New agent: HTTP request"
    assert list(dialog.settings_form.editors) == ["url", "method", "headers", "params", "body"]
    assert "${input.name}" in dialog.settings_form.blocks["url"].hint.text()
    assert editor.document.nodes == []  # nothing is placed before the agent is saved
    assert not dialog.save_button.isEnabled()


def fill_http_agent(qtbot, dialog, server: OrdersServer, name: str = "Fetch orders") -> None:
    qtbot.keyClicks(dialog.name_edit, name)
    qtbot.keyClicks(dialog.settings_form.editors["url"].edit, f"{server.url}/orders")


def test_try_it_shows_the_servers_json(qtbot, editor, orders_server) -> None:
    dialog = choose_kind(qtbot, editor, "HTTP request", QPointF(0, 0))
    fill_http_agent(qtbot, dialog, orders_server)
    click(qtbot, dialog.try_box.try_button)
    qtbot.waitUntil(lambda: dialog.try_box.output.toPlainText() != "", timeout=10_000)
    assert json.loads(dialog.try_box.output.toPlainText()) == ORDERS
    assert orders_server.paths == ["/orders"]
    assert dialog.try_box.status.text().startswith("Answered in")


def test_try_it_shows_the_kinds_error_for_a_failing_request(qtbot, editor, orders_server) -> None:
    dialog = choose_kind(qtbot, editor, "HTTP request", QPointF(0, 0))
    qtbot.keyClicks(dialog.name_edit, "Missing")
    qtbot.keyClicks(dialog.settings_form.editors["url"].edit, f"{orders_server.url}/nothing")
    click(qtbot, dialog.try_box.try_button)
    qtbot.waitUntil(dialog.try_box.error.isVisible, timeout=10_000)
    assert "404" in dialog.try_box.error.text()
    assert dialog.try_box.output.toPlainText() == ""


def test_a_bad_url_is_shown_beside_the_url_and_save_stays_disabled(
    qtbot, editor, orders_server
) -> None:
    dialog = choose_kind(qtbot, editor, "HTTP request", QPointF(0, 0))
    qtbot.keyClicks(dialog.name_edit, "Fetch orders")
    url = dialog.settings_form.editors["url"].edit
    qtbot.keyClicks(url, "127.0.0.1/orders")
    url_block = dialog.settings_form.blocks["url"]
    assert "must start with http:// or https://" in url_block.problem_text()
    assert not dialog.save_button.isEnabled()
    retype(qtbot, url, "http://${input.host}/orders")
    assert "write them out in full" in dialog.settings_form.blocks["url"].problem_text()
    assert not dialog.save_button.isEnabled()
    retype(qtbot, url, f"{orders_server.url}/orders")
    assert dialog.settings_form.blocks["url"].problem_text() == ""
    assert dialog.save_button.isEnabled()


def test_a_missing_required_field_is_shown_beside_it_and_save_stays_disabled(
    qtbot, editor, orders_server
) -> None:
    dialog = choose_kind(qtbot, editor, "HTTP request", QPointF(0, 0))
    qtbot.keyClicks(dialog.name_edit, "Fetch orders")
    assert "URL" in dialog.general.text()  # not yet touched: told in the line above Save
    assert not dialog.save_button.isEnabled()
    url = dialog.settings_form.editors["url"].edit
    qtbot.keyClicks(url, f"{orders_server.url}/orders")
    assert dialog.save_button.isEnabled()
    retype(qtbot, url, "")
    assert dialog.settings_form.blocks["url"].problem_text().endswith("Required, and not set.")
    assert not dialog.save_button.isEnabled()
    qtbot.keyClicks(url, f"{orders_server.url}/orders")
    retype(qtbot, dialog.name_edit, "")
    # The loader's own words for an empty name, beside the name.
    assert "at least 1 character" in dialog.blocks["name"].problem_text()
    assert not dialog.save_button.isEnabled()


def test_an_id_already_taken_is_refused_beside_the_id(qtbot, editor, orders_server) -> None:
    dialog = choose_kind(qtbot, editor, "HTTP request", QPointF(0, 0))
    fill_http_agent(qtbot, dialog, orders_server)
    retype(qtbot, dialog.id_edit, "demo-echo-agent")
    assert "exists already" in dialog.blocks["id"].problem_text()
    assert not dialog.save_button.isEnabled()
    retype(qtbot, dialog.id_edit, "orders feed")
    assert "not a valid agent id" in dialog.blocks["id"].problem_text()
    retype(qtbot, dialog.id_edit, "orders-feed")
    assert dialog.save_button.isEnabled()


def test_save_writes_a_definition_the_registry_loads_and_places_the_node(
    qtbot, editor, workspace, orders_server
) -> None:
    where = QPointF(240, 160)
    dialog = choose_kind(qtbot, editor, "HTTP request", where)
    fill_http_agent(qtbot, dialog, orders_server)
    qtbot.keyClicks(dialog.description_edit, "Reads the open orders")
    click(qtbot, dialog.parameters.rows.add_button)
    qtbot.keyClicks(dialog.parameters.rows.rows[-1].cells[0], "status")
    assert dialog.id_edit.text() == "fetch-orders"
    click(qtbot, dialog.save_button)

    path = agent_file_path(workspace.own_agents_dir, "fetch-orders")
    assert dialog.saved_path == path and path.is_file()
    assert not dialog.isVisible()
    fresh = AgentRegistry.from_folders([workspace.own_agents_dir])
    assert fresh.problems == []
    definition = fresh.get("fetch-orders")
    assert definition is not None and definition == workspace.agents.get("fetch-orders")
    assert (definition.kind, definition.description) == ("http", "Reads the open orders")
    assert definition.settings == {"url": f"{orders_server.url}/orders", "method": "GET"}
    assert definition.parameters["properties"] == {"status": {"type": "string"}}

    (node,) = editor.document.nodes
    assert node.agent_id == "fetch-orders" and node.name == "Fetch orders"
    centre = (node.position.x + NODE_WIDTH / 2, node.position.y + NODE_HEIGHT / 2)
    assert centre == pytest.approx((where.x(), where.y()), abs=20)  # grid snapping aside
    # The palette lists the new agent from now on.
    assert "fetch-orders" in editor.open_palette(QPointF(0, 0)).visible_agent_ids()
