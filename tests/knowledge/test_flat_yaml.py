"""The fast reading of simple item YAML gives exactly what PyYAML gives, or steps aside."""

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.model.safe_yaml import read_flat_mapping

ATOMS = st.sampled_from(
    [
        "REQ-1",
        "P-GUEST",
        "Pay as a guest",
        "yes",
        "No",
        "null",
        "~",
        "12",
        "1.5",
        "0x1F",
        "2026-09-01",
        "true",
        "on",
        "a: b",
        "x # y",
        "'quoted'",
        '"double"',
        "fast, cheap",
        "unit:cart-store",
        "K-CART-API",
        "-dash",
        "&anchor",
        "*alias",
        "!tag",
        "",
        "  ",
        "Ends with dot.",
        "path/to/file.md",
        "inf",
        "NaN",
        ".nan",
        "[nested]",
        "{a: 1}",
    ]
)
KEYS = st.sampled_from(["id", "title", "covers", "depends_on", "persona", "x-y", "id"])


@st.composite
def flat_texts(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        key = draw(KEYS)
        if draw(st.booleans()):
            words = draw(st.lists(ATOMS, max_size=4))
            value = "[" + ", ".join(words) + "]"
        else:
            value = draw(ATOMS)
        lines.append(f"{key}: {value}")
    if draw(st.booleans()):
        lines.insert(
            draw(st.integers(0, len(lines))), draw(st.sampled_from(["", "# note", "  x: 1"]))
        )
    return "\n".join(lines) + "\n"


@settings(max_examples=300)
@given(flat_texts())
def test_the_fast_reading_agrees_with_pyyaml_or_steps_aside(text: str) -> None:
    fast = read_flat_mapping(text)
    if fast is None:
        return
    assert fast == yaml.safe_load(text)


def test_the_fixture_item_shapes_are_read_fast() -> None:
    text = "id: ST-2\ntitle: Restore my cart after sign-in\npersona: P-LOYAL\ncovers: [REQ-2]\n"
    assert read_flat_mapping(text) == yaml.safe_load(text)
    assert read_flat_mapping("slug: cart-store\nimplements: [ST-1, ST-3]\nexposes: []\n") == {
        "slug": "cart-store",
        "implements": ["ST-1", "ST-3"],
        "exposes": [],
    }


def test_anything_unusual_is_left_to_pyyaml() -> None:
    for text in ("id: a\nid: b\n", "flag: yes\n", "n: 12\n", "when: 2026-09-01\n", "a:\n  b: c\n"):
        assert read_flat_mapping(text) is None
