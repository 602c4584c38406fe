"""Knowledge ingest speed: land 10,000 generated artifacts (about 3 KB, 10 headings and 5
typed items each) into a SQLite file, and, in the same run, time the bare markdown-it-py
parse (commonmark preset) of the same files, so the ratio shows what everything else costs
(front matter, lint, derivation, hashing, storing, the search index). Prints; asserts
nothing.

    .venv/bin/python bench/knowledge.py [COUNT]     (default 10000)
"""

import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# Run as a script, this folder comes first on the path, and its queue.py would hide the
# standard library's queue module from everything imported below: put the folder last.
sys.path.sort(key=lambda entry: Path(entry or ".").resolve() == Path(__file__).resolve().parent)

from markdown_it import MarkdownIt

from studio.store import open_database
from studio.store.knowledge import KnowledgeRepository


@dataclass(frozen=True)
class KnowledgeFigures:
    """One ingest of a generated corpus next to the bare parse of the same files."""

    count: int
    average_kb: float
    parse_rate: float
    """Artifacts per second markdown-it-py parses."""
    ingest_rate: float
    """Artifacts per second Studio lands."""
    landed: int
    database_mb: float


ITEM_TYPES = ("requirement", "story", "decision", "component", "contract")
WORDS = [
    "cart",
    "checkout",
    "guest",
    "payment",
    "wallet",
    "session",
    "order",
    "refund",
    "basket",
    "price",
    "stock",
    "address",
    "delivery",
    "invoice",
    "receipt",
    "account",
    "token",
    "retry",
    "latency",
    "audit",
    "record",
    "review",
    "release",
]


def sentence(rng: random.Random, words: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def artifact(index: int, rng: random.Random) -> str:
    """One artifact of about 3 KB: front matter, 10 headings, 5 typed items, a citation."""
    subject = f"intent-{index % 200}"
    lines = [
        "---",
        f"id: doc-{index}",
        f"kind: {ITEM_TYPES[index % 5]}s",
        f"subject: {subject}",
        f"title: Generated document {index}",
        f"produced_by: {{capability: bench, workflow: generate, execution: exec-{index}}}",
        f"created_at: 2026-{1 + index % 12:02d}-{1 + index % 28:02d}T10:00:00Z",
        "---",
        f"# Document {index}",
        "",
        f"Built from [[{ITEM_TYPES[(index + 1) % 5]}s]]. {sentence(rng)}",
    ]
    for heading in range(10):
        level = "##" if heading % 3 == 0 else "###"
        lines += ["", f"{level} Part {heading} of {index}", "", sentence(rng, 18), sentence(rng)]
        if heading % 2 == 0:
            kind = ITEM_TYPES[heading // 2]
            lines += ["", f"```yaml {kind}", *_item_fields(kind, index, heading), "```"]
    return "\n".join(lines) + "\n"


def _item_fields(kind: str, index: int, heading: int) -> list[str]:
    key = f"{kind[:3].upper()}-{index}-{heading}"
    title = f"title: {kind} {heading} of document {index}"
    if kind == "story":
        return [f"id: {key}", title, f"covers: [REQ-{index}-0]"]
    if kind == "decision":
        return [f"id: {key}", title, f"covers: [REQ-{index}-0]"]
    if kind == "component":
        return [f"id: {key}", f"name: component {heading} of {index}"]
    return [f"id: {key}", title]


def write_corpus(folder: Path, count: int) -> list[Path]:
    rng = random.Random(5)
    paths = []
    for index in range(count):
        path = folder / f"{index:05d}.md"
        path.write_text(artifact(index, rng), encoding="utf-8")
        paths.append(path)
    return paths


def bare_parse_rate(paths: list[Path]) -> float:
    """Artifacts per second markdown-it-py parses (commonmark preset, blocks and inline)."""
    md = MarkdownIt("commonmark")
    texts = [path.read_text(encoding="utf-8") for path in paths]
    began = time.perf_counter()
    for text in texts:
        md.parse(text)
    return len(texts) / (time.perf_counter() - began)


def ingest_rate(folder: Path, database: Path) -> tuple[float, int]:
    """Artifacts per second `studio kg ingest` lands, with reading the files and committing."""
    from studio.knowledge.knowledge_base import KnowledgeBase

    knowledge = KnowledgeBase(KnowledgeRepository(open_database(database)))
    began = time.perf_counter()
    refs = knowledge.ingest(folder)
    return len(refs) / (time.perf_counter() - began), len(refs)


def measure(count: int = 10_000) -> KnowledgeFigures:
    """Write ``count`` artifacts to a temporary folder, parse them bare, then ingest them."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "corpus"
        folder.mkdir()
        paths = write_corpus(folder, count)
        size = sum(path.stat().st_size for path in paths) / len(paths)
        parse = bare_parse_rate(paths)
        rate, landed = ingest_rate(folder, Path(scratch) / "knowledge.db")
        database_size = os.path.getsize(Path(scratch) / "knowledge.db") / 1e6
    return KnowledgeFigures(count, size / 1024, parse, rate, landed, database_size)


def main(count: int) -> int:
    figures = measure(count)
    parse, rate = figures.parse_rate, figures.ingest_rate
    print(f"{count} artifacts, {figures.average_kb:.1f} KB each on average, 10 headings, 5 items")
    print(f"bare markdown-it-py parse (commonmark): {parse:8.0f} artifacts/s")
    print(
        f"studio ingest (lint, derive, store, index): {rate:8.0f} artifacts/s "
        f"({figures.landed} landed, {rate / parse:.2f}x the bare parse, "
        f"database {figures.database_mb:.0f} MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000))
