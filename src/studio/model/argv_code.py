"""Where an argv hands code to a shell or an interpreter: the script of ``sh -c SCRIPT`` or the
code of ``python3 -c CODE``, also behind launchers such as ``env`` or ``timeout 5``.

The programs are read the way they read their own options: a launcher's options and its own
arguments come first, then the command it runs; an interpreter's options come before its first
operand (a script file), and an option that takes code takes the rest of its item (``-cCODE``)
or the next item. The tables name the programs people use in a shell agent; others are not read.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import PurePosixPath
from typing import Any

CODE = "code"
"""The option's value is code to run (``python3 -c CODE``)."""
VALUE = "value"
"""The option takes a value: the rest of its item or, if nothing is left, the next item."""
ATTACHED = "attached"
"""The option takes only what follows it in the same item (perl ``-i.bak``), if anything."""
PROGRAM = "program"
"""The option names what runs instead of code (``python3 -m MODULE``); the rest is its own."""


@dataclass(frozen=True)
class Options:
    """A program's options that take something, each kind as space-separated spellings."""

    code: str = ""
    value: str = ""
    attached: str = ""
    program: str = ""

    @cached_property
    def roles(self) -> Mapping[str, str]:
        """Each spelling with what it takes (CODE, VALUE, ATTACHED or PROGRAM)."""
        kinds = {CODE: self.code, VALUE: self.value, ATTACHED: self.attached, PROGRAM: self.program}
        return {spelling: role for role, text in kinds.items() for spelling in text.split()}


@dataclass(frozen=True)
class Launcher(Options):
    """A program that runs the rest of its argv as a command (``timeout 5 COMMAND …``)."""

    operands: int = 0
    """Arguments of its own between its options and the command (timeout's duration)."""
    assignments: bool = False
    """Whether ``NAME=VALUE`` items come before the command (env)."""


@dataclass(frozen=True)
class Interpreter(Options):
    """A program that runs code given on its command line, and how that code reads an argument."""

    language: str = ""
    argument: str = ""
    """How the code reads the first argv item after it."""
    clusters: bool = True
    """Whether short options may share one item (``-lne``); node reads only whole spellings."""


@dataclass(frozen=True)
class CodeInArgv:
    """An argv item that a shell or an interpreter runs as code."""

    index: int
    program: str
    """The program's name as written (``python3.11``)."""
    interpreter: Interpreter


SHELL = Interpreter(value="-o +o -O +O --rcfile --init-file", language="shell", argument='"$1"')
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash"})

LAUNCHERS: Mapping[str, Launcher] = {
    "env": Launcher(value="-u --unset -C --chdir", assignments=True),
    "exec": Launcher(value="-a"),
    "nice": Launcher(value="-n --adjustment"),
    "nohup": Launcher(),
    "setsid": Launcher(),
    "stdbuf": Launcher(value="-i -o -e --input --output --error"),
    "time": Launcher(value="-f --format -o --output"),
    "timeout": Launcher(value="-s --signal -k --kill-after", operands=1),
    "ionice": Launcher(value="-c --class -n --classdata"),
    "chrt": Launcher(value="-T -P -D", operands=1),
    "taskset": Launcher(operands=1),
}

_PYTHON = Interpreter(
    code="-c", program="-m", value="-W -X --check-hash-based-pycs",
    language="Python", argument="sys.argv[1]",
)  # fmt: skip
_NODE = Interpreter(
    code="-e --eval -p --print -pe", value="-r --require --import --input-type",
    language="JavaScript", argument="process.argv[1]", clusters=False,
)  # fmt: skip
INTERPRETERS: Mapping[str, Interpreter] = {
    "python": _PYTHON,
    "pypy": _PYTHON,
    "node": _NODE,
    "nodejs": _NODE,
    "perl": Interpreter(
        code="-e -E", value="-I", attached="-C -d -D -F -i -m -M -x",
        language="Perl", argument="$ARGV[0]",
    ),
    "ruby": Interpreter(
        code="-e", value="-C -E -I -r", attached="-0 -F -i -K -W -x",
        language="Ruby", argument="ARGV[0]",
    ),
    "php": Interpreter(
        code="-r -B -R -E", program="-f", value="-c -d -t -z",
        language="PHP", argument="$argv[1]",
    ),
}  # fmt: skip

_VERSION = re.compile(r"(?<=[a-z])[0-9.]+$")
"""The version at the end of a program's name (python3.11, ksh93)."""


def code_in_argv(argv: list[Any]) -> CodeInArgv | None:
    """The item an argv gives a shell or an interpreter as code, past any launchers."""
    start = _command_start(argv)
    if start is None:
        return None
    program = PurePosixPath(argv[start]).name
    name = _VERSION.sub("", program)
    if name in SHELLS:
        index = _shell_script_index(argv, start + 1)
        return None if index is None else CodeInArgv(index, program, SHELL)
    interpreter = INTERPRETERS.get(name)
    if interpreter is None:
        return None
    index = _code_index(argv, start + 1, interpreter)
    return None if index is None else CodeInArgv(index, program, interpreter)


def _command_start(argv: list[Any]) -> int | None:
    """The index of the command that runs, past launchers such as ``env`` and ``timeout 5``."""
    index = 0
    while index < len(argv) and isinstance(argv[index], str):
        launcher = LAUNCHERS.get(PurePosixPath(argv[index]).name)
        if launcher is None:
            return index
        index = _operands_start(argv, index + 1, launcher.roles)
        while launcher.assignments and _is_assignment(argv, index):
            index += 1
        index += launcher.operands
    return None


def _is_assignment(argv: list[Any], index: int) -> bool:
    return index < len(argv) and isinstance(argv[index], str) and "=" in argv[index]


def _shell_script_index(argv: list[Any], index: int) -> int | None:
    """The index of the script when the shell's options ask it to run one (``-c``, ``-euc``)."""
    command_mode = False
    while index < len(argv) and _is_option(argv[index], "-+") and argv[index] != "--":
        item = argv[index]
        command_mode |= item[:2] != "--" and item[0] == "-" and "c" in item[1:]
        index += _items_taken(*_option_role(item, SHELL.roles, clusters=True))
    index += index < len(argv) and argv[index] == "--"
    return index if command_mode and index < len(argv) else None


def _code_index(argv: list[Any], index: int, interpreter: Interpreter) -> int | None:
    """The index of the code an interpreter's options give it, or None if they give none."""
    while index < len(argv) and _is_option(argv[index]) and argv[index] != "--":
        role, attached = _option_role(argv[index], interpreter.roles, interpreter.clusters)
        if role == CODE:
            code = index if attached else index + 1
            return code if code < len(argv) else None
        if role == PROGRAM:
            return None
        index += _items_taken(role, attached)
    return None


def _operands_start(argv: list[Any], index: int, options: Mapping[str, str]) -> int:
    """The index past a launcher's options (and past ``--``), where its operands start."""
    while index < len(argv) and _is_option(argv[index]):
        if argv[index] == "--":
            return index + 1
        index += _items_taken(*_option_role(argv[index], options, clusters=True))
    return index


def _items_taken(role: str | None, attached: bool) -> int:
    """How many argv items an option spans: two when its value is the next item."""
    return 2 if role == VALUE and not attached else 1


def _is_option(item: Any, marks: str = "-") -> bool:
    return isinstance(item, str) and len(item) > 1 and item[0] in marks


def _option_role(item: str, options: Mapping[str, str], clusters: bool) -> tuple[str | None, bool]:
    """What an option item takes (CODE, VALUE, …, or None for a flag) and whether its value
    is in the same item (``--eval=CODE``, ``-cCODE``, ``-oL``); in a cluster such as ``-lne``
    the first letter that takes something takes the rest of the item."""
    if item.startswith("--"):
        name, equals, _value = item.partition("=")
        return options.get(name), bool(equals)
    if item in options or not clusters:
        return options.get(item), False
    for position, letter in enumerate(item[1:], start=2):
        role = options.get(item[0] + letter)  # item[0] is "+" in a shell's +eo
        if role is not None:
            return role, position < len(item)
    return None, False
