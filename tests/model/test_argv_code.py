"""Where an argv hands code to a shell or an interpreter, behind any launchers."""

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.model import AgentDefinition, AgentRegistry, validate_definition
from studio.model.argv_code import code_in_argv

LAUNCHERS: list[list[Any]] = [
    ["env"],
    ["/usr/bin/env", "-i", "-u", "HOME", "LANG=C", "TEXT=${input.text}"],
    ["timeout", 5],
    ["timeout", "--signal=KILL", "-k", "2", "--", "5s"],
    ["nice"],
    ["nice", "-n", 5],
    ["nohup"],
    ["stdbuf", "-oL", "-e", "0"],
    ["setsid", "-w"],
    ["exec", "-a", "job"],
    ["time", "-f", "%e"],
    ["ionice", "-c", "3"],
    ["chrt", "-b", "0"],
    ["taskset", "-c", "0"],
]
"""Launcher prefixes, each complete: the command follows."""

GIVING_CODE: list[list[str]] = [
    ["sh", "-c"],
    ["/bin/bash", "--norc", "-euo", "pipefail", "-c", "--"],
    ["zsh", "+o", "nomatch", "-fc"],
    ["python3", "-I", "-W", "ignore", "-c"],
    ["/usr/bin/python3.12", "-uc"],
    ["node", "--input-type", "module", "--eval"],
    ["nodejs", "-p"],
    ["perl", "-I", "lib", "-Mstrict", "-i.bak", "-lne"],
    ["ruby", "-r", "json", "-W:no-deprecated", "-e"],
    ["php", "-d", "display_errors=1", "-nr"],
]
"""A shell or an interpreter with its options, each ending where its code comes next."""

literal_text = st.text(max_size=30).map(lambda text: text.replace("$", "%").lstrip("-+"))
"""Text without a ``${…}`` substitution; not starting with - or +, which a shell reads as options
rather than as its script (``sh -c -x`` sets -x and has no script)."""
templates = st.from_regex(r"\$\{input\.[a-z]{1,8}\}", fullmatch=True)


def warnings_for(argv: list[Any]) -> list[tuple[str, str]]:
    """The publish problems of a two-node workflow whose first node runs ``argv``."""
    agents = AgentRegistry()
    agents.add(AgentDefinition(id="echo", name="Echo", kind="echo"))
    agents.add(AgentDefinition(id="tool", name="tool", kind="shell", settings={"argv": argv}))
    data = {
        "nodes": [{"id": "a", "agentId": "tool"}, {"id": "b", "agentId": "echo"}],
        "edges": [{"source": "a", "target": "b"}],
    }
    problems = validate_definition(data, publish=True, known_agents=agents)
    return [(problem.code, problem.severity) for problem in problems]


launches = st.lists(st.sampled_from(LAUNCHERS), max_size=3).map(
    lambda chain: [item for launcher in chain for item in launcher]
)


@settings(max_examples=150, deadline=None)
@given(launches, st.sampled_from(GIVING_CODE), literal_text, st.lists(templates, max_size=3))
def test_the_code_is_found_behind_any_chain_of_launchers(
    launch: list[Any], giving_code: list[str], code: str, arguments: list[str]
) -> None:
    argv = [*launch, *giving_code, code, *arguments]

    found = code_in_argv(argv)

    assert found is not None
    assert found.index == len(launch) + len(giving_code)
    assert found.program == giving_code[0].rsplit("/", 1)[-1]


@settings(max_examples=100, deadline=None)
@given(launches, st.sampled_from(GIVING_CODE), literal_text, st.lists(templates, max_size=3))
def test_templates_as_their_own_argv_items_after_the_code_never_warn(
    launch: list[Any], giving_code: list[str], code: str, arguments: list[str]
) -> None:
    assert warnings_for([*launch, *giving_code, code, *arguments]) == []


@settings(max_examples=100, deadline=None)
@given(launches, st.sampled_from(GIVING_CODE), literal_text, templates, literal_text)
def test_a_template_inside_the_code_always_warns(
    launch: list[Any], giving_code: list[str], before: str, template: str, after: str
) -> None:
    argv = [*launch, *giving_code, before + template + after]
    assert warnings_for(argv) == [("shell.template-in-script", "warning")]


@given(st.lists(st.one_of(st.text(max_size=6), st.integers(), st.none(), st.booleans())))
def test_any_argv_is_read_without_failing(argv: list[Any]) -> None:
    found = code_in_argv(argv)
    assert found is None or 0 < found.index < len(argv)
