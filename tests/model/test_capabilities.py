"""Capability manifests: the offered types with their Status marker, and the freshness stamp."""

from __future__ import annotations

import hashlib

import pytest

from studio.model.capabilities import ManifestError, read_manifest, source_hash
from tests.fabric.items import MANIFEST, manifest


def test_a_manifest_offers_its_types_each_live_or_planned() -> None:
    source = read_manifest(MANIFEST)

    assert source.capability == "design-studio"
    assert source.title == "Design studio"
    assert [(offer.name, offer.status) for offer in source.types] == [
        ("design", "live"),
        ("design-review", "planned"),
        ("wireframe", "live"),
    ]
    assert "components with the requirements" in source.types[0].requirements
    assert "**Status:**" not in source.types[0].requirements


def test_the_freshness_stamp_is_the_sources_sha256() -> None:
    assert read_manifest(MANIFEST).source_hash == hashlib.sha256(MANIFEST.encode()).hexdigest()
    assert source_hash(MANIFEST) != source_hash(manifest(design="planned"))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("# no front matter\n", "'---'"),
        ("---\ntitle: x\n---\n", "id"),
        ("---\nid: Design Studio\n---\n", "id"),
        (MANIFEST.replace("**Status:** live\n\nA wireframe", "A wireframe"), "wireframe"),
        (manifest(design="beta"), "beta"),
        (MANIFEST + "\n## design\n\n**Status:** live\n", "more than once"),
    ],
)
def test_a_manifest_that_cannot_be_published_says_why(text: str, says: str) -> None:
    with pytest.raises(ManifestError) as refused:
        read_manifest(text, "design.md")
    assert says in str(refused.value) and "design.md" in str(refused.value)
