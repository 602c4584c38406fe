"""Hypothesis strategies for graphs over node ids: DAGs and arbitrary directed graphs."""

from hypothesis import strategies as st

Link = tuple[str, str]
Graph = tuple[list[str], list[Link]]


def node_id_lists(max_nodes: int) -> st.SearchStrategy[list[str]]:
    """Unique short ids."""
    return st.lists(st.text(min_size=1, max_size=3), unique=True, max_size=max_nodes)


@st.composite
def dags(draw: st.DrawFn, max_nodes: int = 8, max_links: int = 15) -> Graph:
    """Links only from earlier to later in a hidden order; node ids and links are shuffled."""
    ids = draw(node_id_lists(max_nodes))
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    links = draw(st.lists(st.sampled_from(pairs), max_size=max_links)) if pairs else []
    return draw(st.permutations(ids)), draw(st.permutations(links))


@st.composite
def graphs(draw: st.DrawFn, max_nodes: int = 8, max_links: int = 15) -> Graph:
    """Any directed graph over the ids: self-loops, duplicate links and cycles included."""
    ids = draw(node_id_lists(max_nodes))
    if not ids:
        return [], []
    end = st.sampled_from(ids)
    return ids, draw(st.lists(st.tuples(end, end), max_size=max_links))
