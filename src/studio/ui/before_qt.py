"""What the window imports that does not need Qt, loaded before Qt is.

Once PySide6 is imported, its import hook reads the source of every module imported after it
(to see whether that module uses PySide6's ``__feature__`` switches): the knowledge graph's
networkx alone is a few hundred modules, and each import costs about a third more than it
would before Qt. The desktop commands load these first (``studio.cli.desktop``); what the
window imports from them is then already there. Imports no Qt.
"""

import importlib

WINDOW_MODULES_WITHOUT_QT = (
    "concurrent.futures.process",
    "concurrent.futures.thread",
    "pygments.lexers.data",
    "pygments.styles.default",
    "studio.engine.store_thread",
    "studio.fabric.queue",
    "studio.fabric.queue_errors",
    "studio.knowledge.artifact_html",
    "studio.knowledge.collection_pause",
    "studio.knowledge.drop_check",
    "studio.knowledge.graph_export",
    "studio.knowledge.graph_layout",
    "studio.knowledge.graph_search",
    "studio.knowledge.graph_view",
    "studio.knowledge.insight",
    "studio.knowledge.knowledge_base",
    "studio.knowledge.knowledge_history",
    "studio.knowledge.landing",
    "studio.knowledge.projection",
    "studio.model.blueprint_changes",
    "studio.model.blueprint_merge",
    "studio.model.capabilities",
    "studio.model.document",
    "studio.model.gate_a",
    "studio.model.run_compare",
    "studio.model.run_view",
    "studio.model.run_words",
    "studio.model.work_item_documents",
)
"""Every module outside ``studio.ui`` the window's modules import that a desktop command has
not loaded before it builds the window (a test keeps this list whole)."""


def load_window_modules_before_qt() -> None:
    """Import ``WINDOW_MODULES_WITHOUT_QT`` (call it before anything imports PySide6)."""
    for name in WINDOW_MODULES_WITHOUT_QT:
        importlib.import_module(name)
