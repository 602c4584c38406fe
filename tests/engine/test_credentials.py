"""Credential references (environment and keyring) and the Redactor that hides their values."""

import copy
import json
import string
from collections.abc import Iterator
from typing import Any

import keyring
import keyring.backend
import keyring.backends.fail
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from studio.engine.credentials import (
    REDACTED,
    CredentialError,
    Redactor,
    resolve_credentials,
    resolve_reference,
)

SECRET = "s3cr3t-value-42"


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring that keeps passwords in a dict, for tests only."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.passwords.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    """An in-memory keyring in place of the system's; the previous one is put back after."""
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


def failure_of(reference: Any) -> str:
    """The message of the CredentialError a reference raises."""
    with pytest.raises(CredentialError) as failure:
        resolve_reference(reference)
    return str(failure.value)


# --- environment references ---


def test_an_env_reference_reads_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDIO_TEST_TOKEN", SECRET)
    assert resolve_reference("env:STUDIO_TEST_TOKEN") == SECRET


def test_an_unset_variable_is_named_in_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STUDIO_TEST_TOKEN", raising=False)
    message = failure_of("env:STUDIO_TEST_TOKEN")
    assert "STUDIO_TEST_TOKEN" in message and "not set" in message


def test_an_empty_variable_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDIO_TEST_TOKEN", "")
    assert "empty" in failure_of("env:STUDIO_TEST_TOKEN")


def test_errors_never_contain_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDIO_TEST_TOKEN", SECRET)
    monkeypatch.delenv("STUDIO_TEST_MISSING", raising=False)
    with pytest.raises(CredentialError) as failure:
        resolve_credentials({"good": "env:STUDIO_TEST_TOKEN", "bad": "env:STUDIO_TEST_MISSING"})
    message = str(failure.value)
    assert "credentials.bad" in message and "STUDIO_TEST_MISSING" in message
    assert "credentials.good" not in message and SECRET not in message


def test_credentials_resolve_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDIO_TEST_TOKEN", SECRET)
    monkeypatch.setenv("STUDIO_TEST_OTHER", "other-value")
    references = {"api": "env:STUDIO_TEST_TOKEN", "db": "env:STUDIO_TEST_OTHER"}
    assert resolve_credentials(references) == {"api": SECRET, "db": "other-value"}
    assert resolve_credentials({}) == {}


def test_an_explicit_environment_can_be_given() -> None:
    assert resolve_reference("env:TOKEN", {"TOKEN": SECRET}) == SECRET


# --- syntax ---


@pytest.mark.parametrize("reference", ["env:", "env:1ABC", "env:MY-TOKEN", "env:A B"])
def test_a_bad_variable_name_is_named(reference: str) -> None:
    message = failure_of(reference)
    assert reference in message and "environment variable name" in message


@pytest.mark.parametrize(
    "reference", ["keyring:", "keyring:service", "keyring:/user", "keyring:s/"]
)
def test_a_keyring_reference_needs_service_and_user(reference: str) -> None:
    message = failure_of(reference)
    assert reference in message and "SERVICE/NAME" in message


def test_an_unknown_scheme_is_named() -> None:
    message = failure_of("vault:secret/token")
    assert "'vault:'" in message and "env:NAME" in message


def test_text_without_a_scheme_is_not_echoed() -> None:
    # Someone pasted the key itself where the reference goes.
    message = failure_of("sk-live-0123456789abcdef")
    assert "sk-live" not in message and "env:NAME" in message


def test_a_reference_must_be_text() -> None:
    assert "must be text" in failure_of(None)


def test_credential_error_is_a_value_error() -> None:
    assert issubclass(CredentialError, ValueError)


# --- keyring references ---


def test_a_keyring_reference_reads_the_password(memory_keyring: MemoryKeyring) -> None:
    memory_keyring.set_password("studio", "openai", SECRET)
    assert resolve_reference("keyring:studio/openai") == SECRET


def test_the_last_slash_separates_service_and_user(memory_keyring: MemoryKeyring) -> None:
    memory_keyring.set_password("https://api.example.com/v1", "ada", SECRET)
    assert resolve_reference("keyring:https://api.example.com/v1/ada") == SECRET


def test_a_missing_keyring_entry_is_named(memory_keyring: MemoryKeyring) -> None:
    memory_keyring.set_password("studio", "other", SECRET)
    message = failure_of("keyring:studio/openai")
    assert "keyring:studio/openai" in message and "no password" in message
    assert SECRET not in message


def test_a_keyring_without_a_backend_is_an_error() -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    try:
        message = failure_of("keyring:studio/openai")
    finally:
        keyring.set_keyring(previous)
    assert "keyring:studio/openai" in message and "not usable" in message


# --- Redactor ---


def test_nested_data_keys_and_substrings_are_redacted() -> None:
    data = {
        "header": f"Bearer {SECRET}",
        SECRET: [1, None, True, {"deep": (SECRET, f"x{SECRET}y{SECRET}")}],
        f"key-{SECRET}": 2.5,
    }
    assert Redactor([SECRET]).redact(data) == {
        "header": f"Bearer {REDACTED}",
        REDACTED: [1, None, True, {"deep": (REDACTED, f"x{REDACTED}y{REDACTED}")}],
        f"key-{REDACTED}": 2.5,
    }


def test_several_secrets_are_redacted_longest_first() -> None:
    redactor = Redactor(["alpha-key", "beta-key-long", "key-long"])
    assert redactor.redact_text("alpha-key and beta-key-long") == f"{REDACTED} and {REDACTED}"


def test_overlapping_secrets_leave_no_fragment() -> None:
    redactor = Redactor(["abcdef", "defghi"])
    assert redactor.redact_text("<abcdefghi>") == f"<{REDACTED}>"


def test_short_values_are_ignored() -> None:
    redactor = Redactor(["abc", "", "12"])
    data = {"abc": "abcabc", "n": "12"}
    assert redactor.redact(data) == data
    assert Redactor([]).redact_text("anything") == "anything"


def test_regex_characters_in_secrets_are_literal() -> None:
    assert Redactor(["a.b*c+"]).redact_text("a.b*c+ axbbc") == f"{REDACTED} axbbc"


def test_redaction_never_mutates_its_input() -> None:
    data = {"list": [SECRET, {"k": SECRET}], SECRET: "v"}
    before = copy.deepcopy(data)
    redacted = Redactor([SECRET]).redact(data)
    assert data == before
    assert redacted["list"] is not data["list"]


json_data = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=12,
)
# Token-like secrets: JSON punctuation or escapes could spell a secret in any dump.
secrets = st.text(string.ascii_letters + string.digits + "-_", min_size=4, max_size=24)


def _with_secret(data: Any, secret: str, choice: int, place: int) -> Any:
    """The data with the secret put into one of its strings (keys included), or beside it."""
    count = len(_strings(data))
    if not count:
        return {"carrier": [data, f"before {secret} after"]}
    target, seen = choice % count, 0

    def walk(value: Any) -> Any:
        nonlocal seen
        if isinstance(value, str):
            seen += 1
            if seen - 1 != target:
                return value
            cut = place % (len(value) + 1)
            return value[:cut] + secret + value[cut:]
        if isinstance(value, dict):
            return {walk(key): walk(item) for key, item in value.items()}
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    return walk(data)


def _strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [text for key, item in data.items() for text in [key, *_strings(item)]]
    if isinstance(data, list):
        return [text for item in data for text in _strings(item)]
    return []


@given(json_data, secrets, st.integers(0, 1_000), st.integers(0, 1_000))
def test_a_redacted_dump_never_contains_the_secret(
    data: Any, secret: str, choice: int, place: int
) -> None:
    assume(secret not in json.dumps(data) and secret not in REDACTED)
    changed = _with_secret(data, secret, choice, place)
    assert secret in json.dumps(changed)
    assert secret not in json.dumps(Redactor([secret]).redact(changed))
