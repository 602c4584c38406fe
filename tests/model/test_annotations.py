"""Notes and groups: kept in the workflow file exactly, checked for bad references, changed
in the document with events, and ignored by everything that runs the workflow."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from studio.model import export_data, export_text, import_text
from studio.model.annotation_checks import annotation_problems
from studio.model.annotations import ANNOTATION_COLOURS, Group, Note
from studio.model.document import DocumentEvent, WorkflowDocument
from studio.model.geometry import Position, Size
from studio.model.publish_rules import publish_problems
from studio.model.workflow import Node, Workflow
from studio.model.workflow_files import FileFormat
from tests.model.workflow_strategies import (
    finite_floats,
    ids,
    models,
    positive_floats,
    texts,
    workflows,
)

FORMATS: tuple[FileFormat, ...] = ("yaml", "json")


def annotated() -> Workflow:
    """Three nodes, two notes (one with every field set) and a collapsed group of two."""
    return Workflow(
        name="Annotated",
        nodes=[Node(id=node_id, agent_id="echo") for node_id in ("fetch", "shape", "land")],
        notes=[
            Note(
                id="note-1",
                text="# Why\n\n- **fetch** calls the API\n- `shape` keeps 3 fields\n",
                colour="pink",
                position=Position(x=-40.5, y=300.0),
                size=Size(width=260.0, height=180.25),
            ),
            Note(id="note-2", text="plain ünïcode — text"),
        ],
        groups=[
            Group(id="group-1", name="Ingest", node_ids=["fetch", "shape"], collapsed=True),
        ],
    )


# Files --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_then_import_gives_back_the_same_notes_and_groups(fmt: FileFormat) -> None:
    workflow = annotated()

    back = import_text(export_text(workflow, fmt), fmt)

    assert back.notes == workflow.notes
    assert back.groups == workflow.groups
    assert back == workflow


notes = models(
    Note,
    id=ids,
    text=texts,
    colour=st.sampled_from(ANNOTATION_COLOURS),
    position=models(Position, x=finite_floats, y=finite_floats),
    size=models(Size, width=positive_floats, height=positive_floats),
)


@st.composite
def annotated_workflows(draw: st.DrawFn) -> Workflow:
    """A drawn workflow with drawn notes and groups that share its nodes out between them."""
    workflow = draw(workflows(max_nodes=5))
    owners = [draw(st.integers(0, 2)) for _ in workflow.nodes]  # 0: in no group
    groups = [
        Group(
            id=f"group-{number}",
            name=draw(texts),
            node_ids=[
                node.id
                for node, owner in zip(workflow.nodes, owners, strict=True)
                if owner == number
            ],
            collapsed=draw(st.booleans()),
            colour=draw(st.sampled_from(ANNOTATION_COLOURS)),
        )
        for number in (1, 2)
    ]
    drawn_notes = draw(st.lists(notes, max_size=3, unique_by=lambda note: note.id))
    return workflow.model_copy(update={"notes": drawn_notes, "groups": groups})


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=100, deadline=None)
@given(workflow=annotated_workflows())
def test_any_notes_and_groups_survive_export_and_import(
    fmt: FileFormat, workflow: Workflow
) -> None:
    back = import_text(export_text(workflow, fmt), fmt)

    assert back.notes == workflow.notes and back.groups == workflow.groups
    assert annotation_problems(back) == []


def test_a_file_names_them_in_camel_case() -> None:
    data = export_data(annotated())

    assert data["groups"] == [
        {"id": "group-1", "name": "Ingest", "nodeIds": ["fetch", "shape"], "collapsed": True}
    ]
    assert data["notes"][0]["size"] == {"width": 260.0, "height": 180.25}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_without_annotations_loads_as_before_and_exports_without_the_keys(
    fmt: FileFormat,
) -> None:
    old = "name: Old\nnodes:\n  - id: a\n    agentId: echo\n"
    workflow = import_text(old, "yaml")

    assert workflow.notes == [] and workflow.groups == []
    exported = export_text(workflow, fmt)
    assert "notes" not in exported and "groups" not in exported


def test_an_unknown_colour_is_refused_with_the_palette() -> None:
    with pytest.raises(ValidationError) as refused:
        Note.model_validate({"id": "n", "colour": "purple"})

    assert "'yellow'" in str(refused.value) and set(ANNOTATION_COLOURS) >= {"grey", "blue"}


def test_a_note_cannot_have_a_size_of_nothing() -> None:
    with pytest.raises(ValidationError):
        Note.model_validate({"id": "n", "size": {"width": 0, "height": 10}})


# Checks -------------------------------------------------------------------------------------


def test_a_sound_workflow_has_no_annotation_problems() -> None:
    assert annotation_problems(annotated()) == []


def test_a_group_naming_a_missing_node_is_reported_with_its_place() -> None:
    workflow = annotated().model_copy(
        update={"groups": [Group(id="g", name="Ingest", node_ids=["fetch", "fecth"])]}
    )

    (problem,) = annotation_problems(workflow)

    assert problem.code == "group.missing-node"
    assert problem.path == "groups[0].nodeIds[1]"
    assert "'fecth'" in problem.message and "'Ingest'" in problem.message


def test_a_node_in_two_groups_is_reported_once_naming_both() -> None:
    groups = [
        Group(id="g1", name="First", node_ids=["fetch"]),
        Group(id="g2", name="Second", node_ids=["fetch", "land"]),
    ]
    workflow = annotated().model_copy(update={"groups": groups})

    (problem,) = annotation_problems(workflow)

    assert problem.code == "group.shared-node" and problem.node_id == "fetch"
    assert "'First'" in problem.message and "'Second'" in problem.message


def test_repeated_note_and_group_ids_are_reported() -> None:
    workflow = annotated().model_copy(
        update={
            "notes": [Note(id="n"), Note(id="n")],
            "groups": [Group(id="g", node_ids=["fetch"]), Group(id="g", node_ids=["land"])],
        }
    )

    codes = sorted(problem.code for problem in annotation_problems(workflow))

    assert codes == ["group.duplicate-id", "note.duplicate-id"]
    assert "used by 2 notes" in annotation_problems(workflow)[0].message


# The document -------------------------------------------------------------------------------


def listened() -> tuple[WorkflowDocument, list[DocumentEvent]]:
    document = WorkflowDocument(annotated())
    events: list[DocumentEvent] = []
    document.subscribe(events.append)
    return document, events


def test_the_document_keeps_notes_and_groups_out_of_its_properties_and_in_its_snapshot() -> None:
    document, _ = listened()

    assert document.properties.notes == [] and document.properties.groups == []
    assert document.snapshot() == annotated()


def test_note_changes_are_announced_once_and_only_when_real() -> None:
    document, events = listened()
    note = Note(id="note-3", text="hi")

    document.add_note(note)
    document.replace_note(note)
    document.replace_note(note.model_copy(update={"colour": "green"}))
    removed = document.remove_note("note-3")

    assert [event.kind for event in events] == ["note_added", "note_changed", "note_removed"]
    assert removed == (note.model_copy(update={"colour": "green"}), 2)


def test_a_group_must_name_existing_nodes_that_no_other_group_has() -> None:
    document, events = listened()

    with pytest.raises(ValueError, match="missing node 'ghost'"):
        document.add_group(Group(id="g2", node_ids=["ghost"]))
    with pytest.raises(ValueError, match="'fetch' is in group 'group-1' already"):
        document.add_group(Group(id="g2", node_ids=["fetch"]))
    document.add_group(Group(id="g2", node_ids=["land"]))

    assert [event.kind for event in events] == ["group_added"]
    assert document.group_of("land") == document.group("g2")


def test_a_grouped_node_must_leave_its_group_before_it_is_removed() -> None:
    document, _ = listened()

    with pytest.raises(ValueError, match="in group 'group-1'"):
        document.remove_node("fetch")
    assert document.node("fetch") is not None


def test_fresh_annotation_ids_avoid_notes_and_groups() -> None:
    document, _ = listened()

    assert document.unique_annotation_id("note") == "note-3"
    assert document.unique_annotation_id("group") == "group-2"


def test_publishing_judges_a_workflow_the_same_with_or_without_annotations() -> None:
    bare = annotated().model_copy(update={"notes": [], "groups": []})

    with_notes = publish_problems(annotated(), {"echo"})

    assert with_notes == publish_problems(bare, {"echo"})
    assert annotated().group_of("shape") == annotated().groups[0]
    assert annotated().group_of("land") is None


def test_releasing_nodes_shrinks_or_removes_their_groups_and_restoring_puts_them_back() -> None:
    document, events = listened()
    document.add_group(Group(id="solo", node_ids=["land"]))
    before = document.snapshot()

    changed = document.release_nodes(["shape", "land"])

    assert document.group("group-1") == Group(
        id="group-1", name="Ingest", node_ids=["fetch"], collapsed=True
    )
    assert document.group("solo") is None
    document.restore_groups(changed)
    assert document.snapshot() == before
    assert [event.kind for event in events][-4:] == [
        "group_changed",
        "group_removed",
        "group_changed",
        "group_added",
    ]
