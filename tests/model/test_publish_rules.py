"""Publish validation: what a sound workflow still needs before it may run, and warnings."""

from typing import Any

import pytest

from studio.model import AgentDefinition, AgentRegistry, Problem, has_errors, validate_definition
from studio.model.overrides import (
    DEFAULT_PROMPT_ADDITION_CAP,
    MODEL_OVERRIDE_CAP,
    PROMPT_ADDITION_CAP_VARIABLE,
    prompt_addition_cap,
)
from studio.model.validation import publish_readiness
from studio.model.workflow import Workflow

KNOWN = frozenset({"demo-echo-agent"})


@pytest.fixture(autouse=True)
def default_prompt_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Caps are the defaults unless a test sets the variable itself."""
    monkeypatch.delenv(PROMPT_ADDITION_CAP_VARIABLE, raising=False)


def node(node_id: str, agent_id: str = "demo-echo-agent", **extra: Any) -> dict[str, Any]:
    return {"id": node_id, "agentId": agent_id, **extra}


def pair(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Two nodes joined by one edge, so neither is disconnected."""
    return {"nodes": [first, second], "edges": [{"source": first["id"], "target": second["id"]}]}


def publish(data: Any, **options: Any) -> list[Problem]:
    return validate_definition(data, publish=True, known_agents=KNOWN, **options)


def codes(problems: list[Problem]) -> list[str]:
    return [problem.code for problem in problems]


def test_valid_two_node_workflow_can_be_published() -> None:
    assert publish(pair(node("a"), node("b"))) == []


def test_single_node_workflow_is_not_disconnected() -> None:
    assert publish({"nodes": [node("only")]}) == []


def test_isolated_node_blocks_publishing() -> None:
    data = pair(node("a"), node("b"))
    data["nodes"].append(node("lonely"))
    problems = publish(data)
    assert codes(problems) == ["graph.disconnected"]
    assert problems[0].node_id == "lonely"
    assert problems[0].is_error


def test_every_isolated_node_is_reported() -> None:
    data = {"nodes": [node("a"), node("b"), node("c")]}
    problems = publish(data)
    assert [(p.code, p.node_id) for p in problems] == [
        ("graph.disconnected", "a"),
        ("graph.disconnected", "b"),
        ("graph.disconnected", "c"),
    ]


def test_placeholder_agents_are_reported_once_per_node() -> None:
    data = pair(node("research", "placeholder-researcher"), node("write", "placeholder-writer"))
    problems = publish(data)
    assert [(p.code, p.node_id) for p in problems] == [
        ("agent.placeholder", "research"),
        ("agent.placeholder", "write"),
    ]
    assert "'placeholder-researcher'" in problems[0].message
    assert "'placeholder-writer'" in problems[1].message
    assert has_errors(problems)


def test_placeholder_agent_is_reported_even_if_registered() -> None:
    data = pair(node("a", "placeholder-x"), node("b"))
    problems = validate_definition(
        data, publish=True, known_agents={"placeholder-x", "demo-echo-agent"}
    )
    assert codes(problems) == ["agent.placeholder"]


def test_unknown_agent_blocks_publishing() -> None:
    problems = publish(pair(node("a"), node("b", "no-such-agent")))
    assert [(p.code, p.node_id) for p in problems] == [("agent.unknown", "b")]
    assert "'no-such-agent'" in problems[0].message


@pytest.mark.parametrize("data", [{}, {"nodes": [], "edges": []}])
def test_empty_workflow_cannot_be_published(data: dict[str, Any]) -> None:
    assert codes(publish(data)) == ["graph.empty"]


def test_empty_workflow_is_structurally_fine() -> None:
    assert validate_definition({}) == []


def test_publish_rules_only_apply_when_asked() -> None:
    data = {"nodes": [node("a", "placeholder-x"), node("b", "unknown")]}
    assert validate_definition(data) == []


def test_prompt_addition_over_the_cap_is_a_warning_with_length_and_cap() -> None:
    data = pair(node("a", configuration={"systemPromptAddition": "x" * 4001}), node("b"))
    problems = publish(data)
    assert codes(problems) == ["override.prompt-too-long"]
    warning = problems[0]
    assert warning.severity == "warning"
    assert not has_errors(problems)
    assert warning.node_id == "a"
    assert "4001" in warning.message
    assert "4000" in warning.message


def test_prompt_addition_at_the_cap_is_fine() -> None:
    data = pair(node("a", configuration={"systemPromptAddition": "x" * 4000}), node("b"))
    assert publish(data) == []


def test_model_override_over_the_cap_is_a_warning() -> None:
    data = pair(node("a"), node("b", configuration={"modelOverride": "m" * 257}))
    problems = publish(data)
    assert [(p.code, p.severity, p.node_id) for p in problems] == [
        ("override.model-too-long", "warning", "b")
    ]
    assert "257" in problems[0].message
    assert "256" in problems[0].message


def test_model_override_at_the_cap_is_fine() -> None:
    data = pair(node("a"), node("b", configuration={"modelOverride": "m" * MODEL_OVERRIDE_CAP}))
    assert publish(data) == []


def test_workflow_level_overrides_are_capped_too() -> None:
    data = pair(node("a"), node("b"))
    data["configuration"] = {"systemPromptAddition": "x" * 4001, "modelOverride": "m" * 300}
    problems = publish(data)
    assert codes(problems) == ["override.prompt-too-long", "override.model-too-long"]
    assert {problem.path for problem in problems} == {"configuration"}


def test_over_cap_warnings_show_without_publishing() -> None:
    data = {"nodes": [node("a", configuration={"systemPromptAddition": "x" * 4001})]}
    assert codes(validate_definition(data)) == ["override.prompt-too-long"]


def test_explicit_prompt_cap_wins() -> None:
    data = pair(node("a", configuration={"systemPromptAddition": "x" * 11}), node("b"))
    problems = publish(data, prompt_cap=10)
    assert codes(problems) == ["override.prompt-too-long"]
    assert "over the cap of 10" in problems[0].message


def test_environment_variable_changes_the_prompt_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    data = pair(node("a", configuration={"systemPromptAddition": "x" * 11}), node("b"))
    assert publish(data) == []
    monkeypatch.setenv(PROMPT_ADDITION_CAP_VARIABLE, "10")
    problems = publish(data)
    assert codes(problems) == ["override.prompt-too-long"]
    assert "over the cap of 10" in problems[0].message


def test_environment_variable_can_raise_the_prompt_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROMPT_ADDITION_CAP_VARIABLE, "5000")
    data = pair(node("a", configuration={"systemPromptAddition": "x" * 4001}), node("b"))
    assert publish(data) == []


@pytest.mark.parametrize(
    ("environ", "cap"),
    [
        ({PROMPT_ADDITION_CAP_VARIABLE: "8000"}, 8000),
        ({PROMPT_ADDITION_CAP_VARIABLE: " 12 "}, 12),
        ({PROMPT_ADDITION_CAP_VARIABLE: "1"}, 1),
        ({}, DEFAULT_PROMPT_ADDITION_CAP),
        ({PROMPT_ADDITION_CAP_VARIABLE: ""}, DEFAULT_PROMPT_ADDITION_CAP),
        ({PROMPT_ADDITION_CAP_VARIABLE: "abc"}, DEFAULT_PROMPT_ADDITION_CAP),
        ({PROMPT_ADDITION_CAP_VARIABLE: "0"}, DEFAULT_PROMPT_ADDITION_CAP),
        ({PROMPT_ADDITION_CAP_VARIABLE: "-5"}, DEFAULT_PROMPT_ADDITION_CAP),
        ({PROMPT_ADDITION_CAP_VARIABLE: "+5"}, DEFAULT_PROMPT_ADDITION_CAP),
        ({PROMPT_ADDITION_CAP_VARIABLE: "12.5"}, DEFAULT_PROMPT_ADDITION_CAP),
        ({PROMPT_ADDITION_CAP_VARIABLE: "1e3"}, DEFAULT_PROMPT_ADDITION_CAP),
    ],
)
def test_prompt_cap_comes_from_the_environment_or_falls_back(
    environ: dict[str, str], cap: int
) -> None:
    assert prompt_addition_cap(environ) == cap


def test_prompt_cap_defaults_to_4000() -> None:
    assert DEFAULT_PROMPT_ADDITION_CAP == 4000
    assert MODEL_OVERRIDE_CAP == 256


@pytest.mark.parametrize("raw", ["²", "1²"])
def test_prompt_cap_falls_back_for_superscript_digits(raw: str) -> None:
    assert prompt_addition_cap({PROMPT_ADDITION_CAP_VARIABLE: raw}) == DEFAULT_PROMPT_ADDITION_CAP


# --- what an agent's settings show on their own ------------------------------------------------


def registry(agent_id: str, kind: str, settings: dict[str, Any]) -> AgentRegistry:
    """The echo agent plus one agent of ``kind`` with these settings."""
    agents = AgentRegistry()
    agents.add(AgentDefinition(id="demo-echo-agent", name="Echo", kind="echo"))
    agents.add(AgentDefinition(id=agent_id, name=agent_id, kind=kind, settings=settings))
    return agents


def publish_with(agents: AgentRegistry, data: Any) -> list[Problem]:
    return validate_definition(data, publish=True, known_agents=agents)


@pytest.mark.parametrize(
    ("argv", "index"),
    [
        (["sh", "-c", "echo ${input.text}"], 2),
        (["/bin/bash", "-euc", "printf %s ${input.text}", "bash"], 2),
        (["bash", "-o", "pipefail", "-c", "grep ${parameters.word} notes.txt"], 4),
        (["dash", "-c", 'echo "$${HOME} ${config.greeting}"'], 2),
    ],
    ids=["sh", "combined-flags", "option-with-argument", "escaped-and-real"],
)
def test_a_template_inside_a_sh_c_script_is_a_warning(argv: list[str], index: int) -> None:
    agents = registry("scripted", "shell", {"argv": argv})

    problems = publish_with(agents, pair(node("a", "scripted"), node("b")))

    assert [(p.code, p.severity, p.node_id) for p in problems] == [
        ("shell.template-in-script", "warning", "a")
    ]
    message = problems[0].message
    assert "agent 'scripted'" in message and f"settings.argv[{index}]" in message
    assert "interpreted by the shell" in message
    assert '"$1"' in message  # the safe way is named


@pytest.mark.parametrize(
    "argv",
    [
        ["sh", "-c", 'printf %s "$1"', "sh", "${input.text}"],
        ["sh", "-c", "echo $${HOME}"],
        ["printf", "%s", "${input.text}"],
        ["sh", "run.sh", "${input.text}"],
        ["bash", "-e", "run.sh", "${input.text}"],
    ],
    ids=["value-as-argument", "escaped", "no-shell", "script-file", "script-file-with-flag"],
)
def test_templates_outside_a_shell_script_are_fine(argv: list[str]) -> None:
    agents = registry("scripted", "shell", {"argv": argv})
    assert publish_with(agents, pair(node("a", "scripted"), node("b"))) == []


@pytest.mark.parametrize(
    ("argv", "index", "shell"),
    [
        (["/usr/bin/env", "bash", "-c", "echo ${input.x}"], 3, "bash"),
        (["env", "-i", "-u", "HOME", "FOO=1", "sh", "-c", "echo ${input.x}"], 7, "sh"),
        (["timeout", "5", "sh", "-c", "echo ${input.x}"], 4, "sh"),
        (["timeout", "-s", "KILL", "--kill-after=2", "5", "sh", "-c", "${input.x}"], 7, "sh"),
        (["nice", "sh", "-c", "echo ${input.x}"], 3, "sh"),
        (["nice", "-n", "5", "sh", "-c", "echo ${input.x}"], 5, "sh"),
        (["nohup", "sh", "-c", "echo ${input.x}"], 3, "sh"),
        (["stdbuf", "-oL", "sh", "-c", "echo ${input.x}"], 4, "sh"),
        (["setsid", "-w", "sh", "-c", "echo ${input.x}"], 4, "sh"),
        (["exec", "-a", "job", "sh", "-c", "echo ${input.x}"], 5, "sh"),
        (["nice", "-n", "5", "timeout", "5", "env", "bash", "-lc", "echo ${input.x}"], 8, "bash"),
        (["bash", "-lc", "echo ${input.x}"], 2, "bash"),
        (["bash", "-euo", "pipefail", "-c", "grep ${input.x} notes.txt"], 4, "bash"),
        (["timeout", 5, "nice", "-n", 5, "sh", "-c", "echo ${input.x}"], 7, "sh"),
    ],
    ids=[
        "env-path",
        "env-options-and-assignment",
        "timeout",
        "timeout-options",
        "nice",
        "nice-n",
        "nohup",
        "stdbuf",
        "setsid",
        "exec",
        "wrappers-in-a-row",
        "bash-lc",
        "shell-option-cluster-with-value",
        "numbers-as-yaml-reads-them",
    ],
)
def test_a_template_inside_a_shell_script_behind_a_launcher_is_a_warning(
    argv: list[Any], index: int, shell: str
) -> None:
    agents = registry("scripted", "shell", {"argv": argv})

    problems = publish_with(agents, pair(node("a", "scripted"), node("b")))

    assert [(p.code, p.severity, p.node_id) for p in problems] == [
        ("shell.template-in-script", "warning", "a")
    ]
    message = problems[0].message
    assert f"shell script for {shell} (settings.argv[{index}])" in message
    assert "interpreted by the shell" in message
    assert '"$1"' in message and "stdin" in message


@pytest.mark.parametrize(
    ("argv", "index", "program", "reads"),
    [
        (["python3", "-c", "print('${input.x}')"], 2, "python3 as Python", "sys.argv[1]"),
        (["python", "-c", "print('${input.x}')"], 2, "python as Python", "sys.argv[1]"),
        (["/usr/bin/python3.11", "-I", "-c", "${input.x}"], 3, "python3.11 as Python", "sys."),
        (["python3", "-W", "ignore", "-Ic", "${input.x}"], 4, "python3 as Python", "sys."),
        (["python3", "-cprint(${input.x})"], 1, "python3 as Python", "sys.argv[1]"),
        (["node", "-e", "run(${input.x})"], 2, "node as JavaScript", "process.argv[1]"),
        (["node", "--eval", "run(${input.x})"], 2, "node as JavaScript", "process.argv[1]"),
        (["node", "--eval=run(${input.x})"], 1, "node as JavaScript", "process.argv[1]"),
        (["node", "-r", "dotenv/config", "-pe", "${input.x}"], 4, "node as JavaScript", "proc"),
        (["perl", "-e", "print ${input.x}"], 2, "perl as Perl", "$ARGV[0]"),
        (["perl", "-i", "-lne", "print if /${input.x}/"], 3, "perl as Perl", "$ARGV[0]"),
        (["ruby", "-e", "puts ${input.x}"], 2, "ruby as Ruby", "ARGV[0]"),
        (["php", "-r", "echo ${input.x};"], 2, "php as PHP", "$argv[1]"),
        (["timeout", "5", "python3", "-c", "${input.x}"], 4, "python3 as Python", "sys."),
    ],
    ids=[
        "python3-c",
        "python-c",
        "versioned-python-after-a-flag",
        "python-option-value-and-cluster",
        "python-attached-code",
        "node-e",
        "node-eval",
        "node-eval-equals",
        "node-pe-after-require",
        "perl-e",
        "perl-lne",
        "ruby-e",
        "php-r",
        "behind-timeout",
    ],
)
def test_a_template_inside_code_given_to_an_interpreter_is_a_warning(
    argv: list[str], index: int, program: str, reads: str
) -> None:
    agents = registry("scripted", "shell", {"argv": argv})

    problems = publish_with(agents, pair(node("a", "scripted"), node("b")))

    assert [(p.code, p.severity, p.node_id) for p in problems] == [
        ("shell.template-in-script", "warning", "a")
    ]
    message = problems[0].message
    assert f"(settings.argv[{index}])" in message
    assert f"interpreted by {program} code" in message
    assert reads in message and "stdin" in message


@pytest.mark.parametrize(
    "argv",
    [
        ["env", "TEXT=${input.text}", "sh", "-c", 'printf %s "$TEXT"'],
        ["timeout", "${config.seconds}", "sh", "-c", "sleep 1"],
        ["nice", "-n", "${config.level}", "printf", "%s", "${input.text}"],
        ["stdbuf", "-oL", "python3", "tool.py", "${input.text}"],
        ["python3", "-c", "import sys; print(sys.argv[1])", "${input.text}"],
        ["python3", "-m", "tool", "-c", "${input.text}"],
        ["python3", "-mtool", "-c", "${input.text}"],
        ["python3", "-W", "${config.warnings}", "tool.py"],
        ["node", "-e", "console.log(process.argv[1])", "${input.text}"],
        ["node", "--require", "${config.module}", "app.js"],
        ["perl", "-i.bak", "-pe", "s/a/b/", "${input.file}"],
        ["php", "-f", "tool.php", "-r", "${input.text}"],
    ],
    ids=[
        "env-assignment",
        "timeout-duration",
        "nice-level",
        "wrapped-script-file",
        "python-value-as-argument",
        "python-module",
        "python-attached-module",
        "python-option-value",
        "node-value-as-argument",
        "node-option-value",
        "perl-file-argument",
        "php-file",
    ],
)
def test_templates_outside_interpreted_code_are_fine(argv: list[str]) -> None:
    agents = registry("scripted", "shell", {"argv": argv})
    assert publish_with(agents, pair(node("a", "scripted"), node("b"))) == []


def test_a_compensation_tool_with_a_template_in_its_script_is_a_warning() -> None:
    agents = registry("undo", "shell", {"argv": ["sh", "-c", "rm /tmp/${input.file}"]})
    data = pair(node("a", compensation={"tool": "undo", "args": {"file": "x"}}), node("b"))

    problems = publish_with(agents, data)

    assert [(p.code, p.node_id) for p in problems] == [("shell.template-in-script", "a")]
    assert "compensation tool 'undo'" in problems[0].message


@pytest.mark.parametrize(
    "url",
    [
        "${config.base}/items",
        "http://${input.host}/items",
        "https://api.example:${input.port}/items",
        "https://${input.user}@api.example/items",
        "https://api.example${input.path}",
    ],
    ids=["whole-origin", "host", "port", "user-info", "right-after-the-host"],
)
def test_an_http_url_with_a_substitution_in_its_origin_blocks_publishing(url: str) -> None:
    agents = registry("fetcher", "http", {"url": url})

    problems = publish_with(agents, pair(node("a", "fetcher"), node("b")))

    assert [(p.code, p.severity, p.node_id) for p in problems] == [
        ("http.url-origin-template", "error", "a")
    ]
    assert "scheme, host and port" in problems[0].message
    assert "agent 'fetcher'" in problems[0].message


@pytest.mark.parametrize(
    "url",
    [
        "https://api.example/items/${input.id}?page=${input.page}",
        "https://api.example?q=${input.q}",
        "https://api.example:8443/items",
        "https://api.example/$${literal}",
    ],
)
def test_an_http_url_with_a_literal_origin_is_fine(url: str) -> None:
    agents = registry("fetcher", "http", {"url": url})
    assert publish_with(agents, pair(node("a", "fetcher"), node("b"))) == []


def drawn(data: dict[str, Any]) -> Workflow:
    """A workflow as the canvas holds it (never loaded from a file)."""
    return Workflow.model_validate({"name": "Drawn", **data})


def test_a_sound_workflow_with_a_placeholder_is_not_publishable_yet() -> None:
    problems, sound = publish_readiness(
        drawn(pair(node("a"), node("b", "placeholder-writer"))), KNOWN
    )
    assert sound and "agent.placeholder" in codes(problems)


def test_a_workflow_with_a_cycle_is_not_sound() -> None:
    data = pair(node("a"), node("b"))
    data["edges"].append({"source": "b", "target": "a"})
    problems, sound = publish_readiness(drawn(data), KNOWN)
    assert not sound and has_errors(problems)


def test_a_publishable_workflow_is_ready() -> None:
    assert publish_readiness(drawn(pair(node("a"), node("b"))), KNOWN) == ([], True)
