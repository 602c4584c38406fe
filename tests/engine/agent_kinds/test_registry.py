"""The kind registry: built-ins, kinds registered by code, kinds from entry points."""

import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest

from studio.engine.agent_kinds import (
    AgentCall,
    AgentError,
    AgentKind,
    KindRegistry,
    default_kind_registry,
)
from studio.engine.agent_kinds.echo import EchoKind
from studio.engine.agent_kinds.http import HttpKind
from studio.engine.agent_kinds.llm import LlmKind
from studio.engine.agent_kinds.registry import BUILT_IN_KINDS
from tests.engine.agent_kinds.calls import make_call, run


class ShoutKind(AgentKind):
    """A kind defined by a test."""

    name: ClassVar[str] = "shout"

    async def run(self, call: AgentCall) -> Any:
        """Shout the input back."""
        return str(call.input).upper()


def test_the_built_in_kinds_are_present() -> None:
    registry = default_kind_registry()
    assert {"echo", "shell", "python", "http", "transform"} <= set(registry.names())
    assert isinstance(registry.get("echo"), EchoKind)


def test_built_in_kinds_are_named_before_they_load_and_resolve_by_name() -> None:
    registry = default_kind_registry()
    assert set(BUILT_IN_KINDS) <= set(registry.names())
    assert "http" in registry
    assert "llm" in registry
    http = registry.get("http")
    assert isinstance(http, HttpKind)
    assert registry.get("http") is http
    assert isinstance(registry.get("llm"), LlmKind)
    for name in BUILT_IN_KINDS:
        assert registry.get(name).name == name


def test_a_class_cannot_take_a_built_in_name_before_the_built_in_loads() -> None:
    class RivalHttp(ShoutKind):
        """Another class named like the built-in HTTP kind."""

        name = "http"

    registry = default_kind_registry()
    with pytest.raises(
        ValueError, match=r"already provided by studio\.engine\.agent_kinds\.http\."
    ):
        registry.register(RivalHttp)
    assert registry.register(HttpKind) is HttpKind  # the built-in class itself is no rival
    assert isinstance(registry.get("http"), HttpKind)


def test_a_location_is_registered_once_and_holds_the_kind_it_names() -> None:
    registry = KindRegistry()
    registry.register_location("shout", f"{__name__}:ShoutKind")
    with pytest.raises(ValueError, match="already registered"):
        registry.register_location("shout", f"{__name__}:ShoutKind")
    assert isinstance(registry.get("shout"), ShoutKind)
    registry.register_location("loud", f"{__name__}:ShoutKind")
    with pytest.raises(TypeError, match="is the agent kind 'shout', not 'loud'"):
        registry.get("loud")


def test_an_unknown_kind_is_an_agent_error() -> None:
    with pytest.raises(AgentError) as failure:
        KindRegistry().get("teleport")
    assert failure.value.error_type == "UnknownAgentKind"
    assert failure.value.message == "agent kind 'teleport' is not installed"


def test_a_registered_kind_is_created_once_and_runs() -> None:
    registry = KindRegistry()
    assert registry.register(ShoutKind) is ShoutKind
    kind = registry.get("shout")
    assert registry.get("shout") is kind
    assert "shout" in registry
    assert registry.names() == ["shout"]
    assert run(kind, make_call("shout", node_input="hey")) == "HEY"


def test_registries_do_not_share_instances() -> None:
    first, second = KindRegistry(), KindRegistry()
    first.register(ShoutKind)
    second.register(ShoutKind)
    assert first.get("shout") is not second.get("shout")


def test_two_classes_cannot_claim_one_name() -> None:
    class OtherShout(ShoutKind):
        """Another class with the same name."""

    registry = KindRegistry()
    registry.register(ShoutKind)
    registry.register(ShoutKind)
    with pytest.raises(ValueError, match="already provided by"):
        registry.register(OtherShout)


def test_only_complete_named_kinds_can_be_registered() -> None:
    class Nameless(AgentKind):
        """No name."""

        async def run(self, call: AgentCall) -> Any:
            """Nothing."""

    class Badly(ShoutKind):
        """A name that no agent file could use."""

        name = "Bad Name"

    registry = KindRegistry()
    with pytest.raises(TypeError, match="not an AgentKind"):
        registry.register(dict)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="does not implement"):
        registry.register(AgentKind)
    for kind in (Nameless, Badly):
        with pytest.raises(ValueError, match="must be a kind name"):
            registry.register(kind)
    assert registry.names() == []


def test_kinds_come_from_entry_points_and_broken_ones_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "studio_test_plugin", raising=False)
    registry = default_kind_registry()
    assert "whisper" in registry.names()
    assert run(registry.get("whisper"), make_call("whisper", node_input="HEY")) == "hey"
    sources = " ".join(problem.source for problem in registry.problems)
    assert "missing = studio_test_plugin_absent:Kind" in sources
    assert "not-a-kind = studio_test_plugin:NOT_A_KIND" in sources
    assert len(registry.problems) == 2
    assert "echo" in registry.names()


def install_plugin(site: Path) -> None:
    """A distribution installed into ``site``: one good kind and two broken entry points."""
    (site / "studio_test_plugin.py").write_text(
        "from studio.engine.agent_kinds import AgentKind\n"
        "NOT_A_KIND = 42\n"
        "class WhisperKind(AgentKind):\n"
        "    name = 'whisper'\n"
        "    async def run(self, call):\n"
        "        return call.input.lower()\n",
        encoding="utf-8",
    )
    dist_info = site / "studio_test_plugin-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: studio-test-plugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist_info / "entry_points.txt").write_text(
        "[studio.agents]\n"
        "whisper = studio_test_plugin:WhisperKind\n"
        "missing = studio_test_plugin_absent:Kind\n"
        "not-a-kind = studio_test_plugin:NOT_A_KIND\n",
        encoding="utf-8",
    )


SLOW_KIND_MODULE = """
import time
from typing import Any, ClassVar

from studio.engine.agent_kinds.base import AgentCall, AgentKind

time.sleep(0.3)  # a module that takes a while to import, as httpx does


class SlowKind(AgentKind):
    name: ClassVar[str] = "slow"

    async def run(self, call: AgentCall) -> Any:
        return call.input
"""


def test_threads_asking_for_a_kind_as_it_first_loads_all_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "review_slow_kind.py").write_text(SLOW_KIND_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "review_slow_kind", raising=False)
    registry = KindRegistry()
    registry.register_location("slow", "review_slow_kind:SlowKind")
    got: list[object] = []

    def ask() -> None:
        try:
            got.append(registry.get("slow"))
        except Exception as failure:  # what a caller would meet
            got.append(failure)

    askers = [threading.Thread(target=ask) for _ in range(3)]
    for asker in askers:
        asker.start()
        time.sleep(0.05)  # each asks while the first is still importing the module
    for asker in askers:
        asker.join()
    assert [type(answer).__name__ for answer in got] == ["SlowKind"] * 3
    assert "slow" in registry


def test_a_built_in_kind_that_cannot_load_fails_its_node_as_an_agent_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "httpx", None)  # the HTTP client cannot be imported
    for module in [name for name in sys.modules if name.startswith("studio.engine.agent_kinds.h")]:
        monkeypatch.delitem(sys.modules, module)
    registry = default_kind_registry()
    with pytest.raises(AgentError) as failure:
        registry.get("http")
    assert failure.value.error_type == "UnknownAgentKind"
    assert "agent kind 'http' could not be loaded" in failure.value.message
    assert "httpx" in failure.value.message
