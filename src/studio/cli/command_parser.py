"""The parser ``studio`` and each of its commands are built with: one that can leave a command's
arguments to be added when that command is parsed, so that building the whole parser (for
``studio --version`` or ``studio --help``) imports nothing a command's arguments need."""

import argparse
from collections.abc import Callable, Iterable
from typing import TypeVar, overload

ArgumentsAdder = Callable[[argparse.ArgumentParser], None]
"""Adds a command's arguments (and its actions) to the command's parser."""

_Parsed = TypeVar("_Parsed")


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose arguments may be added the first time it parses or shows its
    help. The commands' parsers made with ``add_subparsers`` are of this class too."""

    _adding_later: ArgumentsAdder | None = None

    def add_arguments_later(self, add: ArgumentsAdder) -> None:
        """Leave ``add`` to be called just before this parser is first used."""
        self._adding_later = add

    @overload
    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: None = None
    ) -> tuple[argparse.Namespace, list[str]]: ...
    @overload
    def parse_known_args(
        self, args: Iterable[str] | None, namespace: _Parsed
    ) -> tuple[_Parsed, list[str]]: ...
    @overload
    def parse_known_args(self, *, namespace: _Parsed) -> tuple[_Parsed, list[str]]: ...

    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: object = None
    ) -> tuple[object, list[str]]:
        """Parse as ``argparse`` does, once the arguments left for later are added."""
        self._add_arguments_left()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        """The help text, once the arguments left for later are added."""
        self._add_arguments_left()
        return super().format_help()

    def _add_arguments_left(self) -> None:
        add, self._adding_later = self._adding_later, None
        if add is not None:
            add(self)


def add_arguments_when_used(parser: argparse.ArgumentParser, add: ArgumentsAdder) -> None:
    """Have ``add`` add ``parser``'s arguments when it is first used (at once for a parser that
    cannot wait)."""
    if isinstance(parser, CommandParser):
        parser.add_arguments_later(add)
    else:
        add(parser)
