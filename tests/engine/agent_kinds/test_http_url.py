"""Building an http agent's URL: whatever text a substitution brings, the request goes to the
written host, the value stays one path segment (or one query value) and decodes back to itself."""

from urllib.parse import parse_qs, unquote

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.engine.agent_kinds.base import AgentError
from studio.engine.agent_kinds.http_url import request_url
from tests.engine.agent_kinds.calls import make_call

BASE = "https://api.example:8443"
NASTY = st.one_of(
    st.text(),
    st.sampled_from([".", "..", "...", "../..", "?", "#", "%2F", "@evil.example", "a/../../b"]),
)


def url_for(template: str, name: object) -> str:
    return request_url(make_call("http", {}, {"name": name}), template)


@given(NASTY)
def test_a_path_value_is_one_segment_that_decodes_to_itself(value: str) -> None:
    url = url_for(f"{BASE}/files/${{input.name}}/raw", value)

    parsed = httpx.URL(url)
    assert (parsed.scheme, parsed.host, parsed.port) == ("https", "api.example", 8443)
    assert parsed.fragment == ""
    assert parsed.query == b""
    _empty, files, segment, raw = parsed.raw_path.decode("ascii").split("/")
    assert (files, raw) == ("files", "raw")
    assert segment not in (".", "..")
    assert unquote(segment) == value


@given(NASTY)
def test_a_query_value_is_one_value_that_decodes_to_itself(value: str) -> None:
    url = url_for(f"{BASE}/search?q=${{input.name}}&page=2#top", value)

    parsed = httpx.URL(url)
    assert parsed.host == "api.example" and parsed.path == "/search"
    assert parse_qs(parsed.query.decode("ascii"), keep_blank_values=True) == {
        "q": [value],
        "page": ["2"],
    }


def test_written_text_is_kept_and_the_fragment_is_dropped_unrendered() -> None:
    # The fragment refers to a value the input does not have: it is never rendered.
    url = url_for(f"{BASE}/a%20b/${{input.name}}?x=1#${{input.missing}}", 7)
    assert url == f"{BASE}/a%20b/7?x=1"


def test_an_escaped_template_is_written_text() -> None:
    assert url_for(f"{BASE}/$${{input.name}}/${{input.name}}", "v") == f"{BASE}/${{input.name}}/v"


@pytest.mark.parametrize(
    "template", ["${input.name}", "http://${input.name}/", "http://host${input.name}"]
)
def test_a_substitution_before_the_path_is_refused(template: str) -> None:
    with pytest.raises(AgentError) as refused:
        url_for(template, "x")
    assert refused.value.error_type == "InvalidAgent"
    assert "scheme, host and port" in refused.value.message
