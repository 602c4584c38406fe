"""The Workflows dock kept in step with the store: stored workflows above, the blueprint
catalog (seed blueprints and those saved from the canvas) below."""

import logging
from concurrent.futures import Future
from pathlib import Path

from studio.model import Blueprint, Workflow
from studio.ui.store_calls import StoreCalls
from studio.ui.window.answers import after_store
from studio.ui.workflow_list import WorkflowListPanel
from studio.workspace import Workspace

log = logging.getLogger("studio.ui.window")
STORED_PREFIX = "stored:"
"""Catalog entries saved from the canvas are named by their workflow id, after this."""


class StoredLists:
    """Reads the workflows and blueprints and shows them in the Workflows dock."""

    def __init__(self, workspace: Workspace, panel: WorkflowListPanel) -> None:
        self.workspace = workspace
        self.panel = panel
        self.store = StoreCalls(parent=panel)

    def refresh(self) -> "Future[None]":
        """Reload the workflows and blueprints docks (read off the UI thread); the answer
        comes once they show what was read."""
        seeds = self.workspace.blueprints
        workflows = self.workspace.workflows

        def read() -> tuple[list[Workflow], list[Workflow]]:
            return workflows.find(blueprints=False), self.saved_blueprints()

        def show(found: tuple[list[Workflow], list[Workflow]]) -> None:
            stored, saved_workflows = found
            self.panel.show_workflows(stored)
            saved = [Blueprint(f"{STORED_PREFIX}{w.id}", Path(), w) for w in saved_workflows]
            self.panel.show_blueprints(
                sorted([*seeds, *saved], key=lambda b: b.workflow.name.lower())
            )

        def failed(failure: Exception) -> None:
            log.warning("the workflow lists could not be read: %s", failure)

        return after_store(self.store, read, show, failed)

    def saved_blueprints(self) -> list[Workflow]:
        """Blueprints saved to the catalog from the canvas."""
        return self.workspace.workflows.find(status="PUBLISHED", blueprints=True)

    def catalog(self) -> list[Workflow]:
        """Every blueprint: the seed ones and those saved to the catalog, by name."""
        seeds = [blueprint.workflow for blueprint in self.workspace.blueprints]
        return sorted([*seeds, *self.saved_blueprints()], key=lambda w: w.name.lower())

    def blueprint_source(self, slug: str) -> Workflow | None:
        """The workflow behind a catalog entry."""
        if slug.startswith(STORED_PREFIX):
            return self.workspace.workflows.get(slug.removeprefix(STORED_PREFIX))
        blueprint = next((b for b in self.workspace.blueprints if b.slug == slug), None)
        return blueprint.workflow if blueprint is not None else None
