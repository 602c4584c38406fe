"""The README's pictures of the blueprint catalog and of its Use in app dialog, drawn in the
window ``make_pictures.py`` sets up."""

from picture_scenes import Stage

from studio.model import Edge, Node, Workflow
from studio.model.configuration import NodeConfiguration
from studio.ui.catalog.update_review import UpdateReviewDialog
from studio.ui.catalog.use_in_app_dialog import UseInAppDialog

ECHO = "demo-echo-agent"


def catalog(stage: Stage) -> None:
    """The catalog browser with the seed blueprints, at a size that shows two rows."""
    actions = stage.window.workflows.catalog
    future = actions.browse()
    stage.until(future.done)
    browser = actions.browser
    assert browser is not None
    browser.resize(1100, 640)
    stage.save(browser, "blueprint-catalog.png")
    browser.close()


def use_in_app(stage: Stage) -> None:
    """Use the Conditional Router in an app: two slots mapped, the third still to choose."""
    workspace = stage.workspace
    workspace.apps.create("Support desk", "Answers and refunds for the help desk")
    blueprint = next(b.workflow for b in workspace.blueprints if b.slug == "conditional-router")
    agents = list(workspace.agents)
    names = {w.name for w in workspace.workflows.find(blueprints=False)}
    dialog = UseInAppDialog(blueprint, workspace.apps.find(), agents, names, stage.window)
    combos = list(dialog.slot_combos.values())
    for combo in combos[:2]:
        combo.setCurrentIndex(1)
    dialog.show()
    stage.save(dialog, "use-in-app.png")
    dialog.reject()


def blueprint_update(stage: Stage) -> None:
    """A copy of a blueprint with a local edit, reviewing the blueprint's next version."""
    workspace = stage.workspace
    blueprint, _ = workspace.workflows.save_blueprint(_triage(), workspace.agents)
    app = workspace.apps.find()[0] if workspace.apps.find() else workspace.apps.create("Desk")
    copy = workspace.apps.import_blueprint(blueprint, app.id, {})
    renamed = [
        n.model_copy(update={"name": "Take ticket"}) if n.id == "take" else n for n in copy.nodes
    ]
    ours = workspace.workflows.update(copy.model_copy(update={"nodes": renamed}), copy.version)
    theirs, _ = workspace.workflows.save_blueprint(_triage(newer=True), workspace.agents)
    base = workspace.workflows.get_version(blueprint.stored_id, blueprint.version)
    dialog = UpdateReviewDialog(base, theirs, ours, stage.window)
    dialog.resize(860, 420)
    dialog.show()
    stage.save(dialog, "blueprint-update.png")
    dialog.reject()


def _triage(newer: bool = False) -> Workflow:
    """A blueprint of three nodes; its next version changes the classifier's model and adds
    an edge from it to the answer."""
    configuration = NodeConfiguration(model_override="gpt-4.1" if newer else "gpt-4o")
    nodes = [
        Node(id="take", agent_id=ECHO, name="Take request", position={"x": 0, "y": 0}),
        Node(
            id="classify",
            agent_id=ECHO,
            name="Classify",
            position={"x": 260, "y": 0},
            configuration=configuration,
        ),
        Node(id="answer", agent_id=ECHO, name="Answer", position={"x": 520, "y": 0}),
    ]
    edges = [Edge(source="take", target="classify"), Edge(source="take", target="answer")]
    if newer:
        edges.append(Edge(source="classify", target="answer"))
    return Workflow(name="Support triage", category="routing", nodes=nodes, edges=edges)
