"""The front matter writer: whatever it is given reads back as the same value."""

from datetime import date

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.model.yaml_writer import dump_yaml

TRICKY_TEXTS = [
    "",
    " ",
    "yes",
    "No",
    "on",
    "null",
    "~",
    "=",
    "<<",
    "12",
    "0x1F",
    "1_000",
    "12:30:00",
    "1e3",
    ".inf",
    "2026-09-12",
    "2026-09-12T09:00:00Z",
    "a: b",
    "ends with colon:",
    "a # not a comment",
    "#comment",
    "- dash",
    "[flow]",
    "{flow}",
    "'quoted'",
    '"quoted"',
    "trailing ",
    "line\nbreak",
    "tab\there",
    "line\u2028separator",
    "next\x85line",
    "bell\x07",
    "wide → arrow, ünïcode",
    "checkout-redesign/work-item/2026-09-12-bench-000001.md",
    "https://example.com/brief?x=1#part",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(TRICKY_TEXTS),
    st.text(max_size=30),
)
keys = st.one_of(st.sampled_from(TRICKY_TEXTS), st.text(min_size=0, max_size=12))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=200)
@given(st.dictionaries(keys, values, max_size=6))
def test_whatever_is_written_reads_back_the_same(data: dict) -> None:
    assert yaml.safe_load(dump_yaml(data)) == (data or {})


def test_an_envelope_reads_like_pyyaml_writes_it() -> None:
    data = {
        "id": "bench-000001",
        "status": "done",
        "lease": None,
        "created_at": "2026-09-12T09:00:00Z",
        "context": [{"id": "brief", "type": "url", "when": "on-demand"}],
        "approvals": [],
        "produced_by": {"capability": "design-studio", "runs": ["r1", "r2"]},
        "context_bounces": 0,
    }
    assert dump_yaml(data) == (
        "id: bench-000001\n"
        "status: done\n"
        "lease: null\n"
        'created_at: "2026-09-12T09:00:00Z"\n'
        "context:\n"
        "- id: brief\n"
        "  type: url\n"
        "  when: on-demand\n"
        "approvals: []\n"
        "produced_by:\n"
        "  capability: design-studio\n"
        "  runs:\n"
        "  - r1\n"
        "  - r2\n"
        "context_bounces: 0\n"
    )


def test_values_it_does_not_write_itself_still_read_back() -> None:
    data = {"due": date(2026, 9, 12), "score": 0.5, 3: "number key", "grid": [[1, 2], [3]]}
    assert yaml.safe_load(dump_yaml(data)) == data


def test_long_keys_read_back() -> None:
    """YAML reads a key written as it is only up to 1,024 characters."""
    data = {"k" * 1100: 1, '"' * 600: 2, "short": [{"a" * 1100: 3}]}
    assert yaml.safe_load(dump_yaml(data)) == data
