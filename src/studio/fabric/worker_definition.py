"""Reading a capability definition folder (see ``studio.model.capability_definitions``) and
checking that what it names is there: the manifest reads and names the same capability, the
workflow reads, the Gate B rule is known or the gate node is a node of the workflow."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from studio.fabric.gate_b import RULES, Rule
from studio.model.capabilities import ManifestError, ManifestSource, read_manifest
from studio.model.capability_definitions import (
    DEFINITION_FILE,
    CapabilityDefinition,
    CapabilityDefinitionError,
    capability_definition_of,
)
from studio.model.safe_yaml import load_yaml_text, yaml_refusal
from studio.model.structure import DefinitionError
from studio.model.workflow import Workflow
from studio.model.workflow_files import WorkflowFileError, load_workflow


@dataclass(frozen=True)
class Capability:
    """A capability definition with what it names read and checked."""

    definition: CapabilityDefinition
    folder: Path
    manifest_text: str
    manifest: ManifestSource
    workflow: Workflow
    """The workflow as its file says (publishing it is the runner's side)."""

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def workflow_path(self) -> Path:
        return self.folder / self.definition.workflow

    @property
    def rule(self) -> Rule | None:
        """The Gate B rule, or None when a node of the workflow judges."""
        chosen = self.definition.gate.rule
        return None if chosen is None else RULES[chosen]


def load_capability(folder: Path) -> Capability:
    """Read and check the definition in ``folder``.

    Raises:
        CapabilityDefinitionError: naming the file and field at fault and what is wrong.
    """
    where = str(folder / DEFINITION_FILE)
    try:
        text = (folder / DEFINITION_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as failure:
        raise CapabilityDefinitionError(where, None, f"cannot be read: {failure}") from None
    try:
        data = load_yaml_text(text)
    except yaml.YAMLError as failure:
        refusal = yaml_refusal(failure)
        line = "" if refusal.line is None else f"line {refusal.line}: "
        raise CapabilityDefinitionError(where, None, f"{line}{refusal.problem}") from None
    definition = capability_definition_of(data, where)
    manifest_text, manifest = _manifest(folder, definition, where)
    workflow = _workflow(folder, definition, where)
    _check_gate(definition, workflow, where)
    return Capability(definition, folder, manifest_text, manifest, workflow)


def _manifest(
    folder: Path, definition: CapabilityDefinition, where: str
) -> tuple[str, ManifestSource]:
    path = folder / definition.manifest
    try:
        text = path.read_text(encoding="utf-8")
        source = read_manifest(text, str(path))
    except (OSError, UnicodeDecodeError) as failure:
        raise CapabilityDefinitionError(
            where, "manifest", f"cannot read {path}: {failure}"
        ) from None
    except ManifestError as failure:
        raise CapabilityDefinitionError(where, "manifest", str(failure)) from None
    if source.capability != definition.name:
        raise CapabilityDefinitionError(
            where,
            "manifest",
            f"{path} is the manifest of '{source.capability}', not of '{definition.name}'",
        )
    return text, source


def _workflow(folder: Path, definition: CapabilityDefinition, where: str) -> Workflow:
    path = folder / definition.workflow
    if not path.is_file():
        raise CapabilityDefinitionError(where, "workflow", f"there is no file {path}")
    try:
        return load_workflow(path)
    except WorkflowFileError as failure:
        raise CapabilityDefinitionError(where, "workflow", str(failure)) from None
    except DefinitionError as failure:
        problems = "; ".join(problem.describe() for problem in failure.problems)
        raise CapabilityDefinitionError(where, "workflow", f"{path}: {problems}") from None


def _check_gate(definition: CapabilityDefinition, workflow: Workflow, where: str) -> None:
    gate = definition.gate
    if gate.rule is not None and gate.rule not in RULES:
        raise CapabilityDefinitionError(
            where, "gate.rule", f"no rule '{gate.rule}' (known: {', '.join(RULES)})"
        )
    nodes = [node.id for node in workflow.nodes]
    if gate.node is not None and gate.node not in nodes:
        raise CapabilityDefinitionError(
            where,
            "gate.node",
            f"the workflow {definition.workflow} has no node '{gate.node}' "
            f"(its nodes: {', '.join(nodes)})",
        )
