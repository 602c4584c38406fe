"""Workflow files and artifact front matter are read by one YAML reader: the same text gets
the same judgement in both, a refusal on the same line of the YAML text or the same mapping."""

import pytest

from studio.knowledge.front_matter import ArtifactFormatError, split_artifact
from studio.model.workflow_files import WorkflowFileError, parse_text

FRONT_MATTER_FIRST_LINE = 2
"""The YAML of front matter starts on file line 2, below its opening ``---``."""

DUPLICATE_KEY = "name: first\ntitle: a title\nname: second\n"
REPEATED_MERGE = (
    "base: &base {kind: plan, owner: ops}\n"
    "other: &other {owner: dev}\n"
    "entry:\n"
    "  <<: *base\n"
    "  <<: *other\n"
)
MERGED = (
    "base: &base {kind: plan, owner: ops, tags: [a, b]}\n"
    "entry:\n"
    "  <<: *base\n"
    "  owner: dev\n"
    "listed:\n"
    "  <<: [*base, {extra: 1}]\n"
)
RECURSIVE_ALIAS = "name: loop\nouter: &outer\n  inner:\n    - *outer\n"


def billion_laughs(levels: int = 9) -> str:
    """Each line a list of nine aliases of the line above: 9**levels values once expanded."""
    lines = ["a0: &a0 [lol]"]
    for level in range(1, levels):
        aliases = ", ".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{aliases}]")
    return "\n".join(lines) + "\n"


WORKFLOW_PREFIX = "invalid YAML: "
"""How a workflow file's message introduces a YAML problem that is not a limit."""


def workflow_judgement(text: str) -> tuple[str, object]:
    """What reading ``text`` as a workflow file gives: ("read", data) or ("refused", (line,
    problem))."""
    try:
        return "read", parse_text(text, "yaml", "workflow.yaml")
    except WorkflowFileError as refusal:
        return "refused", (refusal.line, refusal.message.removeprefix(WORKFLOW_PREFIX))


def front_matter_judgement(text: str) -> tuple[str, object]:
    """What reading ``text`` as front matter gives, its lines counted from the YAML's first."""
    try:
        data, _body, _line = split_artifact(f"---\n{text}---\nbody\n")
    except ArtifactFormatError as refusal:
        line = None if refusal.line is None else refusal.line - FRONT_MATTER_FIRST_LINE + 1
        return "refused", (line, refusal.message)
    return "read", data


@pytest.mark.parametrize(
    "text",
    [DUPLICATE_KEY, REPEATED_MERGE, RECURSIVE_ALIAS, billion_laughs()],
    ids=["duplicate key", "repeated merge key", "recursive alias", "billion laughs"],
)
def test_a_text_refused_as_a_workflow_is_refused_as_front_matter_on_the_same_line(
    text: str,
) -> None:
    verdict, (line, message) = workflow_judgement(text)
    assert verdict == "refused"
    assert front_matter_judgement(text) == ("refused", (line, message))


def test_a_duplicate_key_is_named_alike_with_its_line() -> None:
    assert workflow_judgement(DUPLICATE_KEY) == ("refused", (3, "duplicate key 'name'"))


def test_merge_keys_give_the_same_mapping_in_both() -> None:
    expected = {
        "base": {"kind": "plan", "owner": "ops", "tags": ["a", "b"]},
        "entry": {"kind": "plan", "owner": "dev", "tags": ["a", "b"]},
        "listed": {"kind": "plan", "owner": "ops", "tags": ["a", "b"], "extra": 1},
    }
    assert workflow_judgement(MERGED) == ("read", expected)
    assert front_matter_judgement(MERGED) == ("read", expected)


def test_an_alias_bomb_is_refused_alike_before_it_is_expanded() -> None:
    verdict, (line, message) = front_matter_judgement(billion_laughs())
    assert verdict == "refused"
    assert message.startswith("aliases repeat ")
    assert line is not None and 1 <= line <= 9
