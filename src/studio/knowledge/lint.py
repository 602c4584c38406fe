"""The land-time lint of an artifact: every problem with its front matter and typed items.

Each rule is its own check with its own code, and all of them run, so a producer sees every
problem at once. An artifact with any problem does not land.
"""

import re
from collections.abc import Callable, Iterator, Mapping, Set
from datetime import datetime
from typing import Any, TypeGuard

from studio.knowledge.derivation import Fence, ItemBlock, scan_body
from studio.knowledge.front_matter import (
    PRODUCED_BY_KEYS,
    ArtifactFormatError,
    load_front_matter,
    parse_created_at,
    split_fences,
    supersedes_ref,
)
from studio.knowledge.item_types import DEFAULT, ItemType, ItemTypeRegistry
from studio.model.identifiers import MAX_ID_CHARS, identifier_problem, is_identifier, shown_id
from studio.model.knowledge import LINK_TYPES, FrontMatter
from studio.model.problems import Problem, error
from studio.store.knowledge_schema import ARTIFACT_ID_CHARS, KIND_CHARS, SUBJECT_CHARS

KnownRefs = Callable[[str], FrontMatter | bool | None] | Mapping[str, FrontMatter] | Set[str]
"""The refs already landed: a set, a mapping of each to its front matter, or a function that
gives a ref's front matter (or only whether it exists). Given the front matter of the version
named by ``supersedes``, the lint also checks that it is an earlier version of the same
artifact."""

REQUIRED = ("id", "kind", "subject", "title", "produced_by", "created_at")
"""Front matter fields every artifact must carry."""

TEXT_FIELDS = ("id", "kind", "subject", "title")

KEBAB_CASE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
"""The canonical-key convention for subjects, artifact ids and kinds (each is a segment of a
ref): ids that follow the pattern of every id, in lower-case words joined by hyphens."""

KEY_CHARS = {
    "subject": min(MAX_ID_CHARS, SUBJECT_CHARS),
    "id": min(MAX_ID_CHARS, ARTIFACT_ID_CHARS),
    "kind": min(MAX_ID_CHARS, KIND_CHARS),
}
"""How long a subject, artifact id and kind may be: as long as an id, or as the knowledge store
holds where that is shorter (kinds: 64). The ref they make then fits the store too."""

_FRONT = "front matter"


def _at(name: str) -> str:
    return f"{_FRONT}: {name}"


def _is_set(value: object) -> bool:
    return value is not None and value != ""


def check_required(data: dict) -> Iterator[Problem]:
    """Every required front matter field is present and not empty."""
    for name in REQUIRED:
        if not _is_set(data.get(name)):
            message = f"required field '{name}' is missing; expected one of {', '.join(REQUIRED)}"
            yield error("kg.front_matter.missing_field", message, path=_at(name))


def check_field_types(data: dict) -> Iterator[Problem]:
    """Text fields are strings; ``supersedes`` is a string and ``links`` a list."""
    for name in (*TEXT_FIELDS, "supersedes"):
        value = data.get(name)
        if _is_set(value) and not isinstance(value, str):
            message = f"'{name}' must be text, not {type(value).__name__} {value!r}"
            yield error("kg.front_matter.type", message, path=_at(name))
    links = data.get("links")
    if links is not None and not isinstance(links, list):
        message = "'links' must be a list of {type, target} mappings"
        yield error("kg.front_matter.type", message, path=_at("links"))


def check_created_at(data: dict) -> Iterator[Problem]:
    """``created_at`` is an ISO 8601 date-time."""
    value = data.get("created_at")
    if _is_set(value) and parse_created_at(value) is None:
        message = f"'created_at' must be an ISO date-time like 2026-09-01T10:00:00Z, not {value!r}"
        yield error("kg.front_matter.created_at", message, path=_at("created_at"))


def check_produced_by(data: dict) -> Iterator[Problem]:
    """``produced_by`` is a non-empty mapping of known provenance keys to text or numbers."""
    value = data.get("produced_by")
    if not _is_set(value):
        return
    expected = ", ".join(PRODUCED_BY_KEYS)
    if not isinstance(value, dict) or not value:
        message = f"'produced_by' must be a mapping with some of: {expected}"
        yield error("kg.front_matter.produced_by", message, path=_at("produced_by"))
        return
    for key, item in value.items():
        if key not in PRODUCED_BY_KEYS:
            message = f"unknown provenance key '{key}'; expected one of: {expected}"
            yield error("kg.front_matter.produced_by", message, path=_at(f"produced_by.{key}"))
        elif isinstance(item, bool) or not isinstance(item, str | int):
            message = f"provenance '{key}' must be text or a number, not {item!r}"
            yield error("kg.front_matter.produced_by", message, path=_at(f"produced_by.{key}"))


def _check_kebab(data: dict, name: str, what: str) -> Iterator[Problem]:
    value, limit = data.get(name), KEY_CHARS[name]
    if not isinstance(value, str) or not value:
        return
    if not _is_key(value):
        message = (
            f"{what} {shown_id(value)} must be kebab-case (lower-case letters and digits joined "
            f"by single hyphens, e.g. 'checkout-redesign'), at most {limit} characters"
        )
    elif len(value) > limit:
        message = (
            f"{what} {shown_id(value)} has {len(value)} characters; "
            f"the knowledge store holds {what}s of at most {limit}"
        )
    else:
        return
    yield error(f"kg.front_matter.{name}", message, path=_at(name))


def check_subject(data: dict) -> Iterator[Problem]:
    """The subject follows the canonical-key convention."""
    yield from _check_kebab(data, "subject", "subject")


def check_id(data: dict) -> Iterator[Problem]:
    """The artifact id follows the pattern of every id and, within it, the canonical-key
    convention."""
    value = data.get("id")
    problem = identifier_problem(value, "artifact id") if isinstance(value, str) else None
    if value and problem is not None:
        yield error("kg.front_matter.id", problem, path=_at("id"))
    else:
        yield from _check_kebab(data, "id", "artifact id")


def check_kind(data: dict) -> Iterator[Problem]:
    """The kind follows the canonical-key convention: it is a folder of the artifact's ref."""
    yield from _check_kebab(data, "kind", "kind")


def _landed(known_refs: KnownRefs, ref: str) -> FrontMatter | bool | None:
    if callable(known_refs):
        return known_refs(ref)
    if isinstance(known_refs, Mapping):
        return known_refs.get(ref)
    return ref in known_refs


def _is_key(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and is_identifier(value) and bool(KEBAB_CASE.match(value))


def _lands(data: dict, name: str) -> bool:
    """Whether the subject, id or kind of ``data`` passes its checks."""
    value = data.get(name)
    return _is_key(value) and len(value) <= KEY_CHARS[name]


def check_supersedes(data: dict, known_refs: KnownRefs) -> Iterator[Problem]:
    """``supersedes``, when present, is not empty and names a ref that has landed: an earlier
    version of the same artifact, when ``known_refs`` gives its front matter."""
    if "supersedes" not in data:
        return
    value = data["supersedes"]
    if value is None or (isinstance(value, str) and not value.strip()):
        message = (
            "'supersedes' is empty: give the ref (or file name) of the version this one "
            "replaces, or leave the field out to supersede the current version"
        )
        yield error("kg.supersedes.empty", message, path=_at("supersedes"))
        return
    if not isinstance(value, str):
        return  # reported by check_field_types
    if "/" not in value and not (_lands(data, "subject") and _lands(data, "kind")):
        return  # a bare file name needs a valid subject and kind, reported on their own
    ref = supersedes_ref(data)
    landed = _landed(known_refs, ref) if ref is not None else True
    if not landed:
        message = f"supersedes '{value}', but no artifact '{ref}' has landed"
        yield error("kg.supersedes.unresolved", message, path=_at("supersedes"))
    elif isinstance(landed, FrontMatter) and ref is not None:
        yield from check_superseded(data, ref, landed)


def check_superseded(data: dict, ref: str, replaced: FrontMatter) -> Iterator[Problem]:
    """A version supersedes only a version of its own subject and id, created no later."""
    subject, artifact_id = data.get("subject"), data.get("id")
    if not (_lands(data, "subject") and _lands(data, "id")):
        return  # reported on their own
    if (replaced.subject, replaced.id) != (subject, artifact_id):
        message = (
            f"supersedes '{ref}', a version of '{replaced.subject}/{replaced.id}', not of "
            f"'{subject}/{artifact_id}': a version can only supersede one of its own subject "
            "and id"
        )
        yield error("kg.supersedes.other_artifact", message, path=_at("supersedes"))
        return
    created_at = parse_created_at(data.get("created_at"))
    if created_at is not None and created_at < replaced.created_at:
        message = (
            f"created_at {_moment(created_at)} is earlier than the version it supersedes "
            f"({ref}, created {_moment(replaced.created_at)}); "
            "a later version must not be dated before the one it replaces"
        )
        yield error("kg.supersedes.earlier", message, path=_at("created_at"))


def _moment(value: datetime) -> str:
    return value.isoformat().replace("+00:00", "Z")


def check_links(data: dict) -> Iterator[Problem]:
    """Every link is a ``{type, target}`` mapping with an allowed type and a target."""
    links = data.get("links")
    if not isinstance(links, list):
        return
    for index, link in enumerate(links):
        where = _at(f"links[{index}]")
        if not isinstance(link, dict):
            message = f"a link must be a mapping {{type, target}}, not {link!r}"
            yield error("kg.link.entry", message, path=where)
            continue
        if link.get("type") not in LINK_TYPES:
            message = f"link type {link.get('type')!r} is not allowed; expected one of: " + (
                ", ".join(LINK_TYPES)
            )
            yield error("kg.link.type", message, path=where)
        target = link.get("target")
        if not isinstance(target, str) or not target:
            message = "a link needs a 'target': the logical id of an artifact in the subject"
            yield error("kg.link.target", message, path=where)


def lint_front_matter(data: dict, known_refs: KnownRefs) -> list[Problem]:
    """Every problem with an artifact's front matter mapping."""
    return [
        *check_required(data),
        *check_field_types(data),
        *check_created_at(data),
        *check_produced_by(data),
        *check_subject(data),
        *check_id(data),
        *check_kind(data),
        *check_supersedes(data, known_refs),
        *check_links(data),
    ]


def _fence_at(fence: Fence, line: int | None = None) -> str:
    return f"line {line or fence.line}: yaml {fence.type_name}"


def check_item_type(fence: Fence, registry: ItemTypeRegistry) -> Iterator[Problem]:
    """A ```yaml <type>``` fence names a registered item type."""
    if fence.type_name not in registry:
        message = (
            f"unknown item type '{fence.type_name}'; registered: {', '.join(registry.names())}"
        )
        yield error("kg.item.unknown_type", message, path=_fence_at(fence))


def check_required_fields(fence: Fence, item_type: ItemType, fields: dict) -> Iterator[Problem]:
    """Every required field of the item's type is present and not empty."""
    for name in item_type.required:
        if not _is_set(fields.get(name)):
            message = f"{item_type.name} needs '{name}' (required: {', '.join(item_type.required)})"
            yield error("kg.item.missing_field", message, path=_fence_at(fence))


def check_unknown_fields(fence: Fence, item_type: ItemType, fields: dict) -> Iterator[Problem]:
    """An item has only the fields its type declares."""
    for name in fields:
        if name not in item_type.fields:
            message = (
                f"unknown field '{name}' for {item_type.name}; "
                f"expected: {', '.join(item_type.fields)}"
            )
            yield error("kg.item.unknown_field", message, path=_fence_at(fence))


def check_id_value(fence: Fence, item_type: ItemType, fields: dict) -> Iterator[Problem]:
    """The item's id is a single word of text, since it becomes a graph key."""
    value = fields.get(item_type.id_field)
    if _is_set(value) and (not isinstance(value, str) or value.split() != [value]):
        message = f"'{item_type.id_field}' must be one word of text, not {value!r}"
        yield error("kg.item.id", message, path=_fence_at(fence))


def _is_relation_value(value: Any) -> bool:
    if isinstance(value, str):
        return bool(value)
    return isinstance(value, list) and all(isinstance(v, str) and v for v in value)


def check_relations(fence: Fence, item_type: ItemType, fields: dict) -> Iterator[Problem]:
    """Relationship fields are an id or a list of ids."""
    for name in item_type.relations:
        if name in fields and not _is_relation_value(fields[name]):
            message = f"'{name}' must be an id or a list of ids, not {fields[name]!r}"
            yield error("kg.item.relation", message, path=_fence_at(fence))


ITEM_CHECKS = (check_required_fields, check_unknown_fields, check_id_value, check_relations)
"""The checks run on every item whose YAML is a mapping of a registered type."""


def check_item_yaml(block: ItemBlock) -> Iterator[Problem]:
    """An item block is valid YAML, a mapping, with no key given twice."""
    fence, exc = block.fence, block.error
    if exc is not None:
        codes = {"duplicate_key": "kg.item.duplicate_key", "limit": "kg.item.limit"}
        code = codes.get(exc.reason, "kg.item.yaml")
        yield error(code, exc.message, path=_fence_at(fence, exc.line))
    elif not isinstance(block.fields, dict):
        message = f"a {fence.type_name} block must be a YAML mapping of its fields"
        yield error("kg.item.yaml", message, path=_fence_at(fence))


def check_unique_ids(items: list[tuple[Fence, ItemType, dict]]) -> Iterator[Problem]:
    """No two items of the artifact share a graph key."""
    first_line: dict[str, int] = {}
    for fence, item_type, fields in items:
        value = fields.get(item_type.id_field)
        if not isinstance(value, str):
            continue
        key = item_type.key(fields)
        if key in first_line:
            message = f"item id '{value}' is already used on line {first_line[key]}"
            yield error("kg.item.duplicate_id", message, path=_fence_at(fence))
        else:
            first_line[key] = fence.line


def lint_items(body: str, body_line: int, registry: ItemTypeRegistry = DEFAULT) -> list[Problem]:
    """Every problem with the typed items in an artifact's body."""
    problems: list[Problem] = []
    items: list[tuple[Fence, ItemType, dict]] = []
    for block in scan_body(body, body_line).blocks:
        item_type = registry.get(block.fence.type_name)
        if item_type is None:
            problems += check_item_type(block.fence, registry)
            continue
        yaml_problems = list(check_item_yaml(block))
        problems += yaml_problems
        if yaml_problems:
            continue
        for check in ITEM_CHECKS:
            problems += check(block.fence, item_type, block.fields)
        items.append((block.fence, item_type, block.fields))
    problems += check_unique_ids(items)
    return problems


def _format_problem(exc: ArtifactFormatError) -> Problem:
    codes = {
        "missing": "kg.front_matter.missing",
        "duplicate_key": "kg.front_matter.duplicate_key",
        "limit": "kg.front_matter.limit",
    }
    place = f"line {exc.line}: {_FRONT}" if exc.line else _FRONT
    return error(codes.get(exc.reason, "kg.front_matter.yaml"), exc.message, path=place)


def lint_artifact(
    text: str, *, known_refs: KnownRefs, registry: ItemTypeRegistry = DEFAULT
) -> list[Problem]:
    """Every problem that keeps an artifact from landing; an empty list means it may land."""
    try:
        front_text, body, body_line = split_fences(text)
    except ArtifactFormatError as exc:
        return [_format_problem(exc), *lint_items(text, 1, registry)]
    try:
        problems = lint_front_matter(load_front_matter(front_text), known_refs)
    except ArtifactFormatError as exc:
        problems = [_format_problem(exc)]
    return problems + lint_items(body, body_line, registry)
