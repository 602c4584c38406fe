"""An artifact rendered to HTML for the artifact pane: the checkout-redesign corpus is ingested
into a fresh database and each text is rendered as the store returns it."""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.knowledge.artifact_html import (
    NODE_SCHEME,
    node_link,
    render_artifact,
    target_of,
    version_link,
)
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.projection import ViewOptions
from studio.model.knowledge import SECTION
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "checkout-redesign"
SUBJECT = "checkout-redesign"
DESIGN = f"{SUBJECT}/design/2026-09-10-design.md"
REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-08-requirements.md"
REVISED_DESIGN = """---
id: design
kind: design
subject: checkout-redesign
title: Checkout design (errors)
produced_by: {workflow: design-pipeline, execution: exec-0009, node: design}
created_at: 2026-09-12T08:00:00Z
---
# Checkout design

## Error handling

```json
{"type": "about:blank", "status": 409, "retry": true}
```
"""


@pytest.fixture
def knowledge(tmp_path: Path) -> Iterator[KnowledgeBase]:
    workspace = Workspace(data_dir=tmp_path, database=str(tmp_path / "knowledge.db"))
    workspace.knowledge.ingest(FIXTURE)
    yield workspace.knowledge
    workspace.close()


def qualified(subject: str, key: str) -> str:
    """Links as a view of every subject names its nodes."""
    return node_link(f"{subject}/{key}")


def test_the_design_has_its_front_matter_first_then_headings_and_item_cards(
    knowledge: KnowledgeBase,
) -> None:
    page = render_artifact(knowledge.resolve(DESIGN))

    front = page.index('<td width="22%" style="color: #5f6368">produced_by</td>')
    assert front < page.index("<h1>")
    assert "<td>checkout-redesign</td>" in page
    assert '<a href="studio-node:run%3Aexec-0007">exec-0007</a>' in page
    assert 'DEPENDS_ON <a href="studio-node:stories">stories</a>' in page
    assert '<h2><a name="components"></a>Components</h2>' in page
    assert '<h3><a name="error-handling"></a>Error handling</h3>' in page
    card = page[page.index("component <a") : page.index("<h2>", page.index("component <a"))]
    assert 'component <a href="studio-node:C-PAY">C-PAY</a> &nbsp;Payment gateway adapter' in card
    assert re.search(r">depends_on</td><td><a href=\"studio-node:C-CART\">C-CART</a>", card)
    assert "id: C-PAY" not in page, "an item is a card, not its YAML"


def test_every_item_field_is_on_its_card(knowledge: KnowledgeBase) -> None:
    page = render_artifact(knowledge.resolve(f"{SUBJECT}/stories/2026-09-09-stories.md"))

    card = page[page.index("story <a") : page.index("</table>", page.index("story <a"))]
    assert "&nbsp;Pay as a guest" in card
    assert '>persona</td><td><a href="studio-node:P-GUEST">P-GUEST</a>' in card
    assert '>covers</td><td><a href="studio-node:REQ-1">REQ-1</a>' in card
    second = page[page.index('"studio-node:ST-2"') :]
    assert '>depends_on</td><td><a href="studio-node:ST-1">ST-1</a>' in second


def test_citations_and_links_use_the_address_the_caller_gives(knowledge: KnowledgeBase) -> None:
    page = render_artifact(knowledge.resolve(DESIGN), node_href=qualified)

    cited = 'answers <a href="studio-node:checkout-redesign%2Fkind%3Astories">[[stories]]</a>'
    assert cited in page
    href = re.search(r'href="([^"]+)">C-CART</a>', page)
    assert href is not None
    assert target_of(href.group(1), NODE_SCHEME) == "checkout-redesign/C-CART"


def test_a_unit_links_to_the_stories_it_implements_and_the_units_it_depends_on(
    knowledge: KnowledgeBase,
) -> None:
    page = render_artifact(knowledge.resolve(f"{SUBJECT}/unit-plan/2026-09-11-unit-plan.md"))

    assert 'unit <a href="studio-node:unit%3Aguest-pay">guest-pay</a>' in page
    assert '>depends_on</td><td><a href="studio-node:unit%3Acart-store">cart-store</a>' in page
    assert '<a href="studio-node:ST-1">ST-1</a>, <a href="studio-node:ST-3">ST-3</a>' in page


def test_no_address_leaves_names_as_text(knowledge: KnowledgeBase) -> None:
    page = render_artifact(knowledge.resolve(DESIGN), node_href=lambda _subject, _key: None)

    assert "studio-node:" not in page
    assert "answers [[stories]] within" in page


def test_supersedes_links_to_the_older_version(knowledge: KnowledgeBase) -> None:
    page = render_artifact(knowledge.resolve(REQUIREMENTS))

    older = f"{SUBJECT}/requirements/2026-09-01-requirements.md"
    assert f'<a href="{version_link(older)}">2026-09-01-requirements.md</a>' in page


def test_heading_anchors_are_those_of_the_section_nodes(knowledge: KnowledgeBase) -> None:
    projection = knowledge.graph(ViewOptions(sections=True, subject=SUBJECT))
    anchors = {
        attrs["data"]["anchor"]
        for _node, attrs in projection.graph.nodes(data=True)
        if attrs["type"] == SECTION and attrs["ref"] == DESIGN
    }
    page = render_artifact(knowledge.resolve(DESIGN))

    assert anchors == {"components", "decisions", "contracts", "error-handling"}
    assert set(re.findall(r'<h[2-6]><a name="([^"]+)">', page)) == anchors


def test_fenced_code_is_coloured_with_inline_styles(knowledge: KnowledgeBase) -> None:
    ref = knowledge.land(REVISED_DESIGN)
    page = render_artifact(knowledge.resolve(ref))

    code = page[page.index("<pre>") : page.index("</pre>")]
    assert re.search(r'<span style="color: #[0-9A-Fa-f]{3,6}[^"]*">"status"</span>', code)
    assert "class=" not in code
    assert 'bgcolor="#f8f8f8"' in page


def test_a_dark_window_gets_a_dark_code_style(knowledge: KnowledgeBase) -> None:
    page = render_artifact(knowledge.resolve(knowledge.land(REVISED_DESIGN)), dark=True)

    assert 'bgcolor="#272822"' in page
    assert "#5f6368" not in page, "the light muted colour is not used on a dark window"


HOSTILE = """---
id: hostile
kind: notes
subject: s
title: <b onmouseover="x()">Bold</b>
produced_by: {capability: "<script>alert(1)</script>"}
created_at: 2026-09-01T00:00:00Z
---
# Notes <img src="http://evil.example/h.png">

<script>alert(2)</script>

<div onclick="x()">raw block</div>

An ![tracker](http://evil.example/t.png) and a [bad link](javascript:alert(3)).

```yaml story
id: ST-9
title: "<img src=x onerror=alert(4)>"
covers: ["\\"><script>alert(5)</script>"]
```
"""


def test_hostile_markdown_is_shown_as_text_and_loads_nothing() -> None:
    page = render_artifact(HOSTILE)

    for tag in ("<script", "<img", "<div", "<b ", 'onmouseover="', 'onclick="'):
        assert tag not in page
    assert 'href="javascript' not in page
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page
    assert "[image: tracker]" in page
    assert "&lt;img src=x onerror=alert(4)&gt;" in page
    assert "&quot;&gt;&lt;script&gt;alert(5)&lt;/script&gt;</a>" in page


def test_a_fence_of_an_unregistered_type_is_code_not_a_card() -> None:
    text = HOSTILE.split("```yaml story")[0] + "```yaml widget\nid: W-1\ntitle: A widget\n```\n"
    page = render_artifact(text)

    assert "widget <a" not in page
    assert "<pre>" in page and "W-1" in page


def test_a_text_whose_front_matter_cannot_be_read_shows_why_and_the_text() -> None:
    page = render_artifact("---\ntitle: [unclosed\n---\n# Body <b>\n")

    assert "The front matter cannot be read (line" in page
    assert "# Body &lt;b&gt;" in page
