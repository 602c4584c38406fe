"""Round trips: definition JSON (P1), export/import (P7) and lossless import, in YAML and JSON."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings

from studio.model import (
    CONDITION_OPERATORS,
    SERVER_FIELDS,
    Compensation,
    CompensationSettings,
    Edge,
    EdgeCondition,
    Node,
    NodeConfiguration,
    RetryPolicy,
    Workflow,
    WorkflowConfiguration,
    WorkflowFileError,
    export_data,
    export_text,
    import_text,
    load_workflow,
    write_workflow,
)
from studio.model.identifiers import is_identifier
from studio.model.workflow_files import FileFormat, dump_text
from tests.model.workflow_strategies import TRICKY_STRINGS, example_datetime, workflows

FORMATS: tuple[FileFormat, ...] = ("yaml", "json")
SERVER_KEYS = ("id", "status", "version", "appId", "orgId", "createdAt", "updatedAt")

Exporter = Callable[[Workflow, FileFormat], str]


def as_draft(workflow: Workflow) -> Workflow:
    """The workflow with every server field back at its default, as an import makes it."""
    defaults = {
        name: Workflow.model_fields[name].get_default(call_default_factory=True)
        for name in SERVER_FIELDS
    }
    return workflow.model_copy(update=defaults)


def assert_export_is_stable(workflow: Workflow, fmt: FileFormat, export: Exporter) -> None:
    """P7: export(import(export(w))) == export(w)."""
    text = export(workflow, fmt)
    assert export(import_text(text, fmt), fmt) == text


def assert_import_is_lossless(workflow: Workflow, fmt: FileFormat, export: Exporter) -> None:
    """Importing an export gives the workflow back, less only its server fields."""
    assert import_text(export(workflow, fmt), fmt) == as_draft(workflow)


def full_example() -> Workflow:
    """A small workflow that uses every part an export must keep."""
    return Workflow(
        id="wf-1",
        status="PUBLISHED",
        version=7,
        app_id="app-1",
        org_id="org-1",
        created_at=example_datetime(),
        updated_at=example_datetime(),
        name="Ticket flow",
        configuration=WorkflowConfiguration(
            integrations={"jira": {"url": "https://jira.example"}},
            credentials={"jira": "env:JIRA_TOKEN"},
            agent_properties={"ticketing-agent": {"queue": "ops"}},
            parameters={"region": "eu"},
            compensation=CompensationSettings(enabled=True),
        ),
        nodes=[
            Node(
                id="create-ticket",
                agent_id="ticketing-agent",
                retry_policy=RetryPolicy(max_retries=5, retryable_errors=["Throttling"]),
                timeout=30.0,
                configuration=NodeConfiguration(
                    system_prompt_addition="Be brief.", model_override="model-x"
                ),
                compensation=Compensation(
                    tool="close_ticket",
                    args={"ticketId": "${output.ticketId}"},
                    side_effecting=False,
                ),
            ),
            Node(id="notify-oncall", agent_id="paging-agent"),
        ],
        edges=[
            Edge(
                source="create-ticket",
                target="notify-oncall",
                condition=EdgeCondition(field="priority", operator="greaterThan", value=2),
            )
        ],
    )


def export_without_conditions(workflow: Workflow, fmt: FileFormat) -> str:
    """A deliberately lossy exporter that forgets edge conditions."""
    data = export_data(workflow)
    for edge in data.get("edges", []):
        edge.pop("condition", None)
    return dump_text(data, fmt)


def export_without_compensation(workflow: Workflow, fmt: FileFormat) -> str:
    """A deliberately lossy exporter that forgets compensation blocks and settings."""
    data = export_data(workflow)
    for node in data.get("nodes", []):
        node.pop("compensation", None)
    data.get("configuration", {}).pop("compensation", None)
    return dump_text(data, fmt)


@settings(max_examples=150, deadline=None)
@given(workflows())
def test_definition_survives_a_json_round_trip_with_server_fields(workflow: Workflow) -> None:
    data = json.loads(json.dumps(workflow.to_data()))
    assert data == workflow.to_data()
    assert Workflow.model_validate(data) == workflow


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=150, deadline=None)
@given(workflow=workflows())
def test_export_of_an_imported_export_is_unchanged(fmt: FileFormat, workflow: Workflow) -> None:
    assert_export_is_stable(workflow, fmt, export_text)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=150, deadline=None)
@given(workflow=workflows())
def test_import_of_an_export_loses_only_server_fields(fmt: FileFormat, workflow: Workflow) -> None:
    assert_import_is_lossless(workflow, fmt, export_text)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("lossy", [export_without_conditions, export_without_compensation])
def test_lossless_check_catches_an_exporter_that_drops_data(
    fmt: FileFormat, lossy: Exporter
) -> None:
    workflow = full_example()
    assert_export_is_stable(workflow, fmt, lossy)  # P7 alone cannot see consistent loss
    with pytest.raises(AssertionError):
        assert_import_is_lossless(workflow, fmt, lossy)


@pytest.mark.parametrize("fmt", FORMATS)
def test_lossless_check_passes_for_the_real_exporter(fmt: FileFormat) -> None:
    assert_import_is_lossless(full_example(), fmt, export_text)


def test_export_leaves_out_server_generated_fields() -> None:
    data = export_data(full_example())
    assert not set(SERVER_KEYS) & data.keys()
    assert set(SERVER_KEYS) <= full_example().to_data().keys()


@pytest.mark.parametrize("fmt", FORMATS)
def test_exported_text_has_no_server_values(fmt: FileFormat) -> None:
    text = export_text(full_example(), fmt)
    for value in ("wf-1", "PUBLISHED", "app-1", "org-1", "2025-01-25"):
        assert value not in text


def test_export_keeps_conditions_retry_policies_and_compensation() -> None:
    data = export_data(full_example())
    node = data["nodes"][0]
    assert data["edges"][0]["condition"] == {
        "field": "priority",
        "operator": "greaterThan",
        "value": 2,
    }
    assert node["retryPolicy"] == {"maxRetries": 5, "retryableErrors": ["Throttling"]}
    assert node["timeout"] == 30.0
    assert node["compensation"] == {
        "tool": "close_ticket",
        "args": {"ticketId": "${output.ticketId}"},
        "sideEffecting": False,
    }
    assert node["configuration"] == {
        "systemPromptAddition": "Be brief.",
        "modelOverride": "model-x",
    }
    assert data["configuration"]["compensation"] == {"enabled": True}
    assert data["configuration"]["credentials"] == {"jira": "env:JIRA_TOKEN"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("operator", CONDITION_OPERATORS)
def test_every_condition_operator_survives_export(fmt: FileFormat, operator: str) -> None:
    workflow = Workflow(
        nodes=[Node(id="a", agent_id="x"), Node(id="b", agent_id="x")],
        edges=[
            Edge(
                source="a",
                target="b",
                condition=EdgeCondition(field="out.v", operator=operator, value=[1, None]),
            )
        ],
    )
    assert_import_is_lossless(workflow, fmt, export_text)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("text", TRICKY_STRINGS)
def test_yaml_tricky_text_survives_export_everywhere(fmt: FileFormat, text: str) -> None:
    name = text or "empty"
    node_id = text if is_identifier(text) else "node"  # node ids follow the id pattern
    workflow = Workflow(
        name=text,
        description=text,
        configuration=WorkflowConfiguration(
            parameters={text: text}, credentials={text: "env:TOKEN"}
        ),
        nodes=[
            Node(id=node_id, agent_id=name, constraints={"k": [text, {text: text}]}),
            Node(id=f"{node_id}-2", agent_id="x"),
        ],
        edges=[
            Edge(
                id=name,
                source=node_id,
                target=f"{node_id}-2",
                condition=EdgeCondition(field=name, operator="equals", value=text),
            )
        ],
    )
    assert_import_is_lossless(workflow, fmt, export_text)


@pytest.mark.parametrize("text", ["\x85", "ends with\x85", "\x85starts", "a\x85\x85b"])
def test_next_line_character_survives_yaml_export(text: str) -> None:
    assert_import_is_lossless(Workflow(name=text), "yaml", export_text)


@pytest.mark.parametrize("suffix", [".yaml", ".yml", ".json"])
@settings(max_examples=150, deadline=None)
@given(workflow=workflows(max_nodes=4))
def test_written_file_loads_back_as_the_import(
    tmp_path_factory: pytest.TempPathFactory, suffix: str, workflow: Workflow
) -> None:
    path: Path = tmp_path_factory.mktemp("export") / f"workflow{suffix}"
    write_workflow(workflow, path)
    fmt: FileFormat = "json" if suffix == ".json" else "yaml"
    assert load_workflow(path) == import_text(export_text(workflow, fmt), fmt)
    assert load_workflow(path) == as_draft(workflow)


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_writing_replaces_the_file_and_leaves_no_temporary_files(
    tmp_path: Path, suffix: str
) -> None:
    path = tmp_path / f"flow{suffix}"
    path.write_text("old contents", encoding="utf-8")
    write_workflow(full_example(), path)
    assert load_workflow(path) == as_draft(full_example())
    assert [child.name for child in tmp_path.iterdir()] == [path.name]


@pytest.mark.parametrize(
    ("fmt", "literal"),
    [("yaml", ".inf"), ("yaml", ".nan"), ("json", "Infinity"), ("json", "NaN")],
)
def test_a_non_finite_condition_value_is_refused_naming_its_place(
    fmt: FileFormat, literal: str
) -> None:
    condition = f'{{"field": "score", "operator": "lessThan", "value": {literal}}}'
    text = (
        '{"nodes": [{"id": "a", "agentId": "x"}, {"id": "b", "agentId": "x"}],'
        f' "edges": [{{"source": "a", "target": "b", "condition": {condition}}}]}}'
    )
    with pytest.raises(
        WorkflowFileError, match=r"edges\[0\]\.condition\.value: numbers must be finite"
    ):
        import_text(text, fmt)
