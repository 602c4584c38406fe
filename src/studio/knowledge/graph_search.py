"""The knowledge view's search: nodes whose id or title holds the words (a requirement, a unit,
a run), then the artifacts the store's full-text search finds in their text, each with the
node to jump to."""

from dataclasses import dataclass

from studio.knowledge.graph_view import ViewQuery, node_id
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.knowledge_history import KnowledgeHistory
from studio.knowledge.projection import ViewOptions
from studio.model.errors import StudioError

LIMIT = 50


@dataclass(frozen=True)
class Found:
    """One search result: the node it names, a title and a line of detail."""

    node: str
    title: str
    detail: str
    type: str


def find_nodes(
    knowledge: KnowledgeBase, history: KnowledgeHistory, query: ViewQuery, words: str
) -> list[Found]:
    """Nodes at the view's moment matching the words by id or title, then full-text hits."""
    words = words.strip()
    if not words:
        return []
    found = _by_name(history, query, words)
    known = {f.node for f in found}
    for hit in _full_text(knowledge, query, words):
        if hit.node not in known:
            found.append(hit)
            known.add(hit.node)
    return found[:LIMIT]


def _by_name(history: KnowledgeHistory, query: ViewQuery, words: str) -> list[Found]:
    every_layer = ViewOptions(items=True, units=True, sections=True, subject=query.subject)
    graph = history.graph(every_layer, query.as_of).graph
    wanted = words.casefold()
    exact: list[Found] = []
    partial: list[Found] = []
    for node, attrs in sorted(graph.nodes(data=True)):
        key = node.rsplit("/", 1)[-1] if query.subject is None else node
        label = attrs["label"]
        if wanted not in key.casefold() and wanted not in label.casefold():
            continue
        found = Found(
            node, f"{key} — {label}" if label != key else key, attrs["type"], attrs["type"]
        )
        (exact if key.casefold() == wanted else partial).append(found)
    return exact + partial


def _full_text(knowledge: KnowledgeBase, query: ViewQuery, words: str) -> list[Found]:
    try:
        hits = knowledge.search(words, subject=query.subject, as_of=query.as_of, damaged=[])
    except StudioError:
        return []  # words the full-text index cannot read still found what they named
    return [
        Found(
            node_id(query, hit.version.subject, hit.version.artifact_id),
            hit.version.front.title,
            _plain(hit.snippet),
            "artifact",
        )
        for hit in hits
    ]


def _plain(snippet: str) -> str:
    return " ".join(snippet.split())
