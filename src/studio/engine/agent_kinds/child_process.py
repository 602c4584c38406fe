"""Run one child process with JSON on stdin, and leave nothing of it behind.

The child starts in a new session, so it and everything it starts share one process group.
When the call is cancelled (the engine's way of enforcing timeouts) the whole group gets
SIGKILL, the child is reaped and the cancellation goes on. On Linux the child also asks the
kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG), so a Studio killed with SIGKILL
does not leave node processes running. The kernel sends that signal when the *thread* that
started the child ends, so the event loop must live in a thread that lives as long as Studio.
"""

import asyncio
import contextlib
import ctypes
import functools
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentError
from studio.model.input_limits import parse_json_text

_PR_SET_PDEATHSIG = 1
_STDERR_TAIL_CHARS = 2000


def _load_prctl() -> Any:
    # Looked up once here: after fork() the child must not load libraries or allocate much.
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


_PRCTL = _load_prctl()


@functools.cache
def _setpriv() -> str | None:
    """util-linux's setpriv, when it can ask for the death signal (older ones cannot)."""
    found = shutil.which("setpriv") if _PRCTL is not None else None
    if found is None:
        return None
    try:
        probe = subprocess.run(
            [found, "--pdeathsig", "KILL", "--", "true"], capture_output=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return found if probe.returncode == 0 else None


@dataclass(frozen=True)
class ChildResult:
    """What a finished child process left: its exit code and everything it wrote."""

    returncode: int
    stdout: str
    stderr: str

    def without_secrets(self, call: AgentCall) -> "ChildResult":
        """The same result with the call's credential values hidden from stdout and stderr."""
        return ChildResult(
            self.returncode, call.hide_secrets(self.stdout), call.hide_secrets(self.stderr)
        )


async def run_child(
    argv: Sequence[str],
    stdin: bytes,
    env: Mapping[str, str],
    cwd: str | None = None,
) -> ChildResult:
    """Run ``argv`` to the end with ``stdin``; kill its whole process group if cancelled."""
    process = await _start(argv, env, cwd)
    try:
        stdout, stderr = await process.communicate(stdin)
    except BaseException:
        _kill_group(process.pid)
        # Reap it even if cancelled again meanwhile, so no zombie is left.
        await asyncio.shield(process.wait())
        raise
    # The child is done; anything it left running in its group is the node's and goes too.
    _kill_group(process.pid)
    return ChildResult(
        returncode=process.returncode if process.returncode is not None else -1,
        stdout=stdout.decode("utf-8", errors="replace"),
        stderr=stderr.decode("utf-8", errors="replace"),
    )


def clean_environment(declared: Mapping[str, str]) -> dict[str, str]:
    """A child's whole environment: PATH from this process plus the declared variables."""
    return {"PATH": os.environ.get("PATH", os.defpath), **declared}


def failure_of(result: ChildResult, command: str) -> AgentError:
    """The error for a child that exited non-zero.

    A child may name its error: a JSON object with ``errorType`` (and ``message``) on the last
    non-empty stderr line. Otherwise the error is a ``ProcessExit`` with the stderr tail.
    """
    tail = stderr_tail(result.stderr)
    details: dict[str, Any] = {"exitCode": result.returncode}
    reported = _reported_error(result.stderr)
    if reported is not None:
        error_type, message = reported
        return AgentError(error_type, message or tail or f"{command} failed", details)
    ending = _describe_exit(result.returncode)
    return AgentError("ProcessExit", f"{command} {ending}" + (f": {tail}" if tail else ""), details)


def stderr_tail(stderr: str) -> str:
    """The end of a child's stderr, short enough for an error message."""
    text = stderr.strip()
    return text if len(text) <= _STDERR_TAIL_CHARS else "…" + text[-_STDERR_TAIL_CHARS:]


async def _start(
    argv: Sequence[str], env: Mapping[str, str], cwd: str | None
) -> asyncio.subprocess.Process:
    if cwd is not None and not os.path.isdir(cwd):
        raise AgentError("ProcessStart", f"cannot start {argv[0]!r}: no directory {cwd!r}")
    launch = _launch_argv(argv, env, cwd)
    try:
        return await asyncio.create_subprocess_exec(
            *launch,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,
            preexec_fn=None if launch is not argv else _die_with_parent(os.getpid()),
        )
    except OSError as failure:
        reason = failure.strerror or str(failure)
        raise AgentError("ProcessStart", f"cannot start {argv[0]!r}: {reason}") from None


def _launch_argv(argv: Sequence[str], env: Mapping[str, str], cwd: str | None) -> Sequence[str]:
    """The command line that starts ``argv`` so that it dies with Studio.

    With util-linux's ``setpriv`` the death signal is asked for by a tiny program that then
    executes the command, so Python starts the child without a pre-exec hook. That lets it
    use vfork(), which keeps the event loop (and the window) free while children start; a
    pre-exec hook forces a full fork() of the whole app, tens of milliseconds each. Without
    setpriv the hook does the same job more slowly. The command is looked up first, so a
    missing program is still reported as a ProcessStart error naming it.
    """
    setpriv = _setpriv()
    if setpriv is None:
        return argv
    program = argv[0]
    if os.sep not in program:
        found = shutil.which(program, path=env.get("PATH", os.defpath))
        if found is None:
            raise AgentError("ProcessStart", f"cannot start {program!r}: No such file or directory")
    else:
        base = program if os.path.isabs(program) or cwd is None else os.path.join(cwd, program)
        if not os.access(base, os.X_OK) or os.path.isdir(base):
            reason = (
                "No such file or directory" if not os.path.exists(base) else "Permission denied"
            )
            raise AgentError("ProcessStart", f"cannot start {program!r}: {reason}")
    return [setpriv, "--pdeathsig", "KILL", "--", *argv]


def _die_with_parent(parent_pid: int) -> Callable[[], None]:
    def in_child() -> None:
        if _PRCTL is not None:
            _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent_pid:
            # The parent died before the request was made; the kernel will not tell us.
            os._exit(1)

    return in_child


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _reported_error(stderr: str) -> tuple[str, str] | None:
    lines = [line for line in stderr.splitlines() if line.strip()]
    if not lines:
        return None
    try:
        data = parse_json_text(lines[-1])
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    error_type, message = data.get("errorType"), data.get("message")
    if not isinstance(error_type, str) or not error_type:
        return None
    return error_type, message if isinstance(message, str) else ""


def _describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"
