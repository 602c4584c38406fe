"""Credential references resolved to values at call time, and hiding those values again.

A workflow's ``configuration.credentials`` maps names to references, never to values:

    env:NAME              the environment variable NAME
    keyring:SERVICE/NAME  the system keyring's password for user NAME of SERVICE; SERVICE may
                          itself contain ``/`` (the last one separates the two)

Errors name the reference and never the value. A resolved value lives only for one call; a
Redactor replaces it with ``[redacted]`` wherever it might be written down, and
:func:`secrets_in` names the references whose values a text holds, for what must be refused
rather than redacted (an artifact, which can never be removed once landed).
"""

import functools
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

ENV_SCHEME = "env"
KEYRING_SCHEME = "keyring"
REDACTED = "[redacted]"
MIN_SECRET_CHARS = 4
"""Shorter values are not redacted: hiding every "ab" or "1234" would wreck the output."""

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*$")
_EXPECTED = "expected 'env:NAME' or 'keyring:SERVICE/NAME'"


class CredentialError(ValueError):
    """A credential reference is malformed or leads to no value."""


def resolve_reference(reference: str, environ: Mapping[str, str] = os.environ) -> str:
    """The value a reference points at; a CredentialError when there is none."""
    if not isinstance(reference, str):
        raise CredentialError(f"a credential reference must be text; {_EXPECTED}")
    scheme, colon, rest = reference.partition(":")
    if scheme == ENV_SCHEME:
        return _from_environment(reference, rest, environ)
    if scheme == KEYRING_SCHEME:
        return _from_keyring(reference, rest)
    if colon and _SCHEME.match(scheme):
        # Only the scheme is shown: the rest may be a pasted secret rather than a reference.
        raise CredentialError(
            f"a credential reference has the unknown scheme '{scheme}:'; {_EXPECTED}"
        )
    raise CredentialError(
        f"a credential reference of {len(reference)} characters has no 'env:' or 'keyring:' "
        f"prefix (not shown, in case it is the secret itself); {_EXPECTED}"
    )


def resolve_credentials(
    references: Mapping[str, str], environ: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """Resolve a ``configuration.credentials`` map (name → reference) to values.

    Every reference is tried; one CredentialError lists all that failed, by name.
    """
    values: dict[str, str] = {}
    problems: list[str] = []
    for name, reference in references.items():
        try:
            values[name] = resolve_reference(reference, environ)
        except CredentialError as failure:
            problems.append(f"credentials.{name}: {failure}")
    if problems:
        raise CredentialError("; ".join(problems))
    return values


def _from_environment(reference: str, name: str, environ: Mapping[str, str]) -> str:
    if not _ENV_NAME.match(name):
        raise CredentialError(
            f"credential reference '{reference}': '{name}' is not an environment variable name"
        )
    value = environ.get(name)
    if value is None:
        raise CredentialError(
            f"credential reference '{reference}': environment variable {name} is not set"
        )
    if not value:
        raise CredentialError(
            f"credential reference '{reference}': environment variable {name} is empty"
        )
    return value


def _from_keyring(reference: str, location: str) -> str:
    service, slash, user = location.rpartition("/")
    if not (slash and service and user):
        raise CredentialError(
            f"credential reference '{reference}' must name a service and a user, "
            "as in 'keyring:SERVICE/NAME'"
        )
    # The keyring and its backends load here, when a reference first names it.
    import keyring
    import keyring.errors

    try:
        value = keyring.get_password(service, user)
    except keyring.errors.KeyringError as failure:
        reason = str(failure) or type(failure).__name__
        raise CredentialError(
            f"credential reference '{reference}': the system keyring is not usable: {reason}"
        ) from None
    if not value:
        raise CredentialError(
            f"credential reference '{reference}': the keyring has no password for user "
            f"'{user}' of service '{service}'"
        )
    return value


def agent_secret_name(agent_id: str, setting: str) -> str:
    """The name an agent's own ``...Ref`` setting's value is kept under during a run."""
    return f"{agent_id}.{setting}"


def secret_label(name: str) -> str:
    """How a kept secret is named to a person, never by its value: ``credentials.NAME`` for a
    workflow's credential (a name a template can use has no dot), else the agent's setting."""
    agent_id, dot, setting = name.rpartition(".")
    return f"settings.{setting} of agent '{agent_id}'" if dot else f"credentials.{name}"


def secrets_in(text: str, secrets: Mapping[str, str]) -> list[str]:
    """The labels of the secrets whose value appears in the text, in any spelling."""
    return [
        secret_label(name)
        for name, value in sorted(secrets.items())
        if Redactor([value]).finds(text)
    ]


class Redactor:
    """Replaces every occurrence of known secret values with ``[redacted]``.

    A secret is found however the text spells it: as written, percent-encoded (as in a URL or
    a form), or escaped inside JSON or a Python repr, each character either way, since agents
    and servers echo what they were sent in those forms. Overlapping occurrences of several
    secrets become one marker, so no part of a secret is left behind. A value that is itself
    part of the marker text cannot be hidden by it.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        kept = {value for value in secrets if isinstance(value, str)}
        longest_first = sorted(
            (value for value in kept if len(value) >= MIN_SECRET_CHARS),
            key=lambda value: (-len(value), value),
        )
        alternatives = "|".join(spelling_pattern(value) for value in longest_first)
        # A lookahead finds the longest secret starting at every position, overlaps included.
        self._pattern = re.compile(f"(?=({alternatives}))", re.DOTALL) if alternatives else None

    def finds(self, text: str) -> bool:
        """Whether any secret appears in the text, in any spelling."""
        return self._pattern is not None and self._pattern.search(text) is not None

    def redact(self, data: Any) -> Any:
        """A copy of JSON-like data with secrets replaced in strings, keys included."""
        if isinstance(data, str):
            return self.redact_text(data)
        if isinstance(data, Mapping):
            return {self.redact(key): self.redact(value) for key, value in data.items()}
        if isinstance(data, list | tuple):
            items = [self.redact(item) for item in data]
            return items if isinstance(data, list) else tuple(items)
        return data

    def redact_text(self, text: str) -> str:
        """The text with every secret (and every overlap of secrets) replaced by the marker."""
        if self._pattern is None:
            return text
        pieces: list[str] = []
        position = 0
        for start, end in self._covered_spans(text):
            pieces.extend((text[position:start], REDACTED))
            position = end
        pieces.append(text[position:])
        return "".join(pieces)

    def _covered_spans(self, text: str) -> list[tuple[int, int]]:
        assert self._pattern is not None
        spans: list[tuple[int, int]] = []
        for match in self._pattern.finditer(text):
            start, end = match.start(), match.start() + len(match.group(1))
            if spans and start <= spans[-1][1]:
                spans[-1] = (spans[-1][0], max(spans[-1][1], end))
            else:
                spans.append((start, end))
        return spans


_SHORT_ESCAPES = {
    '"': '\\"',
    "'": "\\'",
    "\\": "\\\\",
    "/": "\\/",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
"""How JSON and Python reprs escape a character with a backslash."""


@functools.lru_cache(maxsize=64)  # a Redactor is made for every call and every result
def spelling_pattern(value: str) -> str:
    """A regular expression for ``value`` however each of its characters is spelled."""
    return "".join(_character_pattern(char) for char in value)


def _character_pattern(char: str) -> str:
    code = ord(char)
    encoded = ["".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))]
    if code <= 0xFFFF:
        encoded.append(f"\\u{code:04X}")
    else:  # JSON writes a surrogate pair, Python an eight-digit escape
        high, low = 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)
        encoded += [f"\\u{high:04X}\\u{low:04X}", f"\\U{code:08X}"]
    if code <= 0xFF:
        encoded.append(f"\\x{code:02X}")
    # Longest first: alternatives are tried in order, so an escape is taken whole.
    spellings = [f"(?i:{re.escape(text)})" for text in sorted(encoded, key=len, reverse=True)]
    if char in _SHORT_ESCAPES:
        spellings.append(re.escape(_SHORT_ESCAPES[char]))
    if char == " ":
        spellings.append(re.escape("+"))  # a form-encoded space
    spellings.append(re.escape(char))
    return f"(?:{'|'.join(spellings)})"
