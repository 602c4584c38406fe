"""The transform kind: the output is the ``output`` template rendered against the call."""

import pytest

from studio.engine.agent_kinds.base import AgentError
from studio.engine.agent_kinds.transform import TransformKind
from tests.engine.agent_kinds.calls import make_call, run


def test_the_output_template_is_rendered_against_input_parameters_and_config() -> None:
    settings = {
        "output": {
            "title": "${input.doc.title}",
            "tags": "${input.doc.tags}",
            "summary": "${input.doc.title} (${parameters.lang}, ${config.region})",
            "fixed": [1, None, "$${not.a.reference}"],
        }
    }
    call = make_call(
        "transform",
        settings,
        node_input={"doc": {"title": "Report", "tags": ["a", "b"]}},
        parameters={"lang": "en"},
        configuration={"region": "eu"},
    )
    assert run(TransformKind(), call) == {
        "title": "Report",
        "tags": ["a", "b"],
        "summary": "Report (en, eu)",
        "fixed": [1, None, "${not.a.reference}"],
    }


def test_a_missing_value_fails_the_node_and_names_the_path() -> None:
    call = make_call("transform", {"output": {"x": "${input.absent}"}}, node_input={})
    with pytest.raises(AgentError) as failure:
        run(TransformKind(), call)
    assert failure.value.error_type == "TemplateError"
    assert "input.absent" in failure.value.message
    assert "settings.output" in failure.value.message
    assert failure.value.details["reference"] == "input.absent"


def test_an_agent_without_an_output_template_is_invalid() -> None:
    with pytest.raises(AgentError) as failure:
        run(TransformKind(), make_call("transform", {}))
    assert failure.value.error_type == "InvalidAgent"
    assert "settings.output is required" in failure.value.message
