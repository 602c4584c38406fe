"""Hypothesis strategies for valid workflows, built through the models by field name."""

from datetime import UTC, datetime
from itertools import combinations
from typing import Any, TypeVar

from hypothesis import strategies as st

from studio.model import (
    CONDITION_OPERATORS,
    Compensation,
    CompensationSettings,
    CompensationTrigger,
    Edge,
    EdgeCondition,
    Node,
    NodeConfiguration,
    Position,
    RetryPolicy,
    Workflow,
    WorkflowConfiguration,
)
from studio.model.base import StudioModel
from studio.model.identifiers import ID_PATTERN, MAX_ID_CHARS, is_identifier

M = TypeVar("M", bound=StudioModel)

MAX_SAFE_INTEGER = 2**53
"""The largest integer every JSON reader keeps exact."""

TRICKY_STRINGS: tuple[str, ...] = (
    "yes",
    "no",
    "on",
    "off",
    "true",
    "False",
    "null",
    "~",
    "",
    "1e3",
    "0x1F",
    "0o17",
    "1_000",
    "12:30",
    "2024-01-25",
    "2024-01-25T12:15:30Z",
    ".inf",
    "-.nan",
    ": ",
    "a: b",
    "#",
    "# not a comment",
    "a #b",
    " leading space",
    "trailing space ",
    "line\nbreak",
    "\n",
    "two\n\nparagraphs\n",
    "tab\there",
    "\r\n",
    "- item",
    "? key",
    "'single'",
    '"double"',
    "back\\slash",
    "{}",
    "[]",
    "{a: 1}",
    "&anchor",
    "*alias",
    "!tag",
    "%directive",
    "@at",
    "`tick",
    "|",
    ">",
    "<<",
    "=",
    "---",
    "...",
    "${output.ticketId}",
    "Ünïcödé",
    "日本語のテキスト",
    "emoji 🙂🚀",
    "\u2028line separator",
    "zero\u200bwidth",
    "\ufeffbom",
    "x" * 150,
)
"""Strings that YAML readers are known to reinterpret, plus assorted non-ASCII text."""

_CHARACTERS = st.characters(exclude_categories=("Cs",))

texts: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(TRICKY_STRINGS), st.text(_CHARACTERS, max_size=24)
)
"""Any text: YAML-tricky strings, or a broad alphabet without surrogates."""

ids: st.SearchStrategy[str] = texts.filter(bool)
"""Non-empty text, for the fields that need an id."""

TRICKY_IDENTIFIERS: tuple[str, ...] = (
    *(text for text in TRICKY_STRINGS if is_identifier(text)),
    "x" * MAX_ID_CHARS,
    "1.5",
    "a.b_c-d",
    "0",
)
"""Valid ids that YAML readers are known to reinterpret (yes, null, 1e3, dates...)."""

identifiers: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(TRICKY_IDENTIFIERS), st.from_regex(ID_PATTERN, fullmatch=True)
)
"""Ids that follow the pattern of node and workflow ids."""

credential_references: st.SearchStrategy[str] = st.one_of(
    st.from_regex(r"env:[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True),
    st.from_regex(r"keyring:[a-z0-9.:/-]{1,12}/[a-z0-9_-]{1,8}", fullmatch=True),
)
"""Credential references: a workflow never holds a secret itself."""

finite_floats = st.floats(allow_nan=False, allow_infinity=False)
positive_floats = st.floats(min_value=0, exclude_min=True, allow_infinity=False)
non_negative_floats = st.floats(min_value=0, allow_infinity=False)
utc_datetimes = st.datetimes(timezones=st.just(UTC))

json_scalars: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-MAX_SAFE_INTEGER, max_value=MAX_SAFE_INTEGER),
    finite_floats,
    texts,
)

json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(texts, children, max_size=3)
    ),
    max_leaves=8,
)
"""Any JSON value with finite numbers: scalars, lists and string-keyed mappings, nested."""

json_objects: st.SearchStrategy[dict[str, Any]] = st.dictionaries(texts, json_values, max_size=3)


def models(model: type[M], **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[M]:
    """Instances of a model built by field name from the given strategies.

    Unlike ``st.builds`` this never fills in the camelCase aliases of the model's signature.
    """
    return st.fixed_dictionaries(fields).map(lambda values: model(**values))


def optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The strategy's values or None."""
    return st.one_of(st.none(), strategy)


retry_policies = models(
    RetryPolicy,
    max_retries=st.integers(min_value=0, max_value=100),
    backoff_base=non_negative_floats,
    backoff_max=non_negative_floats,
    retryable_errors=st.lists(texts, max_size=3),
)

compensations = models(Compensation, tool=ids, args=json_objects, side_effecting=st.booleans())

node_configurations = models(
    NodeConfiguration,
    system_prompt_addition=optional(texts),
    model_override=optional(texts),
    parameters=json_objects,
)

edge_conditions = models(
    EdgeCondition, field=ids, operator=st.sampled_from(CONDITION_OPERATORS), value=json_values
)

compensation_settings = models(
    CompensationSettings,
    enabled=st.booleans(),
    trigger=models(
        CompensationTrigger,
        mode=st.just("on_terminal_failure"),
        min_completed_nodes=st.integers(min_value=0, max_value=50),
    ),
    on_failure=st.just("stop"),
)

workflow_configurations = models(
    WorkflowConfiguration,
    integrations=st.dictionaries(texts, json_objects, max_size=2),
    credentials=st.dictionaries(texts, credential_references, max_size=2),
    agent_properties=st.dictionaries(texts, json_objects, max_size=2),
    parameters=json_objects,
    compensation=optional(compensation_settings),
    system_prompt_addition=optional(texts),
    model_override=optional(texts),
)


def nodes(node_id: str) -> st.SearchStrategy[Node]:
    """A node with this id and everything else drawn."""
    return models(
        Node,
        id=st.just(node_id),
        agent_id=ids,
        type=st.sampled_from(("agent", "approval", "transform")),
        name=texts,
        position=models(Position, x=finite_floats, y=finite_floats),
        retry_policy=optional(retry_policies),
        timeout=optional(positive_floats),
        constraints=json_objects,
        requires_approval=st.booleans(),
        configuration=node_configurations,
        compensation=optional(compensations),
    )


@st.composite
def edges(draw: st.DrawFn, node_ids: list[str]) -> list[Edge]:
    """Edges only from an earlier node to a later one, so the graph is always a DAG."""
    pairs = list(combinations(node_ids, 2))
    if not pairs:
        return []
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, min_size=1, max_size=10))
    result: list[Edge] = []
    for source, target in chosen:
        condition = draw(optional(edge_conditions))
        if draw(st.booleans()):
            # Leave the id out, as files often do: the model names the edge "source->target".
            result.append(Edge(source=source, target=target, condition=condition))
        else:
            edge_id = draw(ids)
            result.append(Edge(id=edge_id, source=source, target=target, condition=condition))
    if len({edge.id for edge in result}) < len(result):
        # Node ids containing "->" can make two derived ids equal; number the edges instead.
        result = [edge.model_copy(update={"id": f"edge-{i}"}) for i, edge in enumerate(result)]
    return result


@st.composite
def workflows(draw: st.DrawFn, max_nodes: int = 6) -> Workflow:
    """A structurally valid workflow, server fields included, with every optional part drawn."""
    node_ids = draw(st.lists(identifiers, unique=True, max_size=max_nodes))
    return Workflow(
        id=draw(optional(identifiers)),
        status=draw(st.sampled_from(("DRAFT", "PUBLISHED"))),
        version=draw(st.integers(min_value=1, max_value=2**31)),
        app_id=draw(optional(ids)),
        org_id=draw(optional(ids)),
        created_at=draw(optional(utc_datetimes)),
        updated_at=draw(optional(utc_datetimes)),
        name=draw(texts),
        description=draw(texts),
        category=draw(texts),
        is_blueprint=draw(st.booleans()),
        timeout=draw(optional(positive_floats)),
        configuration=draw(workflow_configurations),
        nodes=[draw(nodes(node_id)) for node_id in node_ids],
        edges=draw(edges(node_ids)),
    )


def example_datetime() -> datetime:
    """A fixed, timezone-aware moment for deterministic examples."""
    return datetime(2025, 1, 25, 12, 15, 30, tzinfo=UTC)
