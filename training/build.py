"""Build the reader's corpus: `python -m training.build [--sgd GIT_DIR] [--rows N] [--seed S]`.

Writes training/data/generated.jsonl (seeded, so the same every time) and, given a snapshot of
the Schema-Guided Dialogue repository, training/data/sgd.jsonl. No row's message is an
evaluation message or an example of the local provider (normalised: case, spacing,
punctuation and emoji aside); such rows are dropped as they are generated.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import yaml

from training import sgd
from training.answers import ANSWERS
from training.scenes import SCENES, Context, Scene
from training.schema import GENERATED_LICENCE, assemble, labels, normalised
from training.styles import styled

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
EVAL_FILES = ("evals/suites/*.yaml", "evals/heldout/*.yaml")
EXAMPLES = ROOT / "fixtures" / "local_model" / "examples.yaml"
# Keys whose string values are messages a person types, in suites and the examples file.
MESSAGE_KEYS = {"message", "operator"}
SPLITS = (("test", 0.08), ("validation", 0.08))


def _strings_under(node: Any, keys: set[str], inside: bool = False) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _strings_under(value, keys, inside or key in keys)
    elif isinstance(node, list):
        for value in node:
            yield from _strings_under(value, keys, inside)
    elif isinstance(node, str) and inside:
        yield node


def evaluation_messages() -> set[str]:
    """Every suite and held-out message, normalised."""
    found: set[str] = set()
    for pattern in EVAL_FILES:
        for path in sorted(ROOT.glob(pattern)):
            found |= {
                normalised(m)
                for m in _strings_under(yaml.safe_load(path.read_text()), MESSAGE_KEYS)
            }
    return found - {""}


def example_messages() -> set[str]:
    """Every message of the local provider's examples file, normalised."""
    data = yaml.safe_load(EXAMPLES.read_text())
    return {normalised(m) for m in _strings_under(data, {"intents", "replies"})} - {""}


def split_of(message: str) -> str:
    """The split a message belongs to, by the hash of its normalised form (duplicates agree)."""
    digest = hashlib.sha256(normalised(message).encode()).digest()
    share = int.from_bytes(digest[:4], "big") / 2**32
    for name, size in SPLITS:
        if share < size:
            return name
        share -= size
    return "train"


def _context(ctx: Context) -> dict[str, Any]:
    return {"pending": ctx.pending, "prev": ctx.prev, "project": ctx.project, "items": ctx.items}


def generated(rows: int, seed: int, banned: set[str]) -> list[dict[str, Any]]:
    """`rows` generated rows, none of whose messages is in `banned` or repeats another's."""
    rng = random.Random(seed)
    scenes: list[tuple[Scene, int]] = [*SCENES, *ANSWERS]
    pool, weights = [s for s, _ in scenes], [n for _, n in scenes]
    seen: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    while len(out) < rows:
        ctx, draft = rng.choices(pool, weights)[0](rng)
        draft, style = styled(draft, rng)
        try:
            message, spans = assemble(draft)
        except ValueError:
            continue
        key = (normalised(message), ctx.pending)
        if not message or key[0] in banned or key in seen:
            continue
        seen.add(key)
        out.append(
            {
                "id": f"gen:{len(out):06d}",
                "source": "generated",
                "licence": GENERATED_LICENCE,
                "style": style,
                "context": _context(ctx),
                "message": message,
                "labels": labels(draft, spans),
            }
        )
    return out


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Rows as JSON lines, keys sorted, with each row's split."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            row = {**row, "split": split_of(row["message"])}
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def read_corpus(folder: Path = DATA) -> list[dict[str, Any]]:
    """Every row of every JSONL file in the corpus folder, files in name order."""
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")):
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return rows


def corpus_sha256(folder: Path = DATA) -> str:
    """The sha256 of the corpus files, in name order, as the manifest records it."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.jsonl")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> None:
    """Write the corpus files."""
    parser = argparse.ArgumentParser(prog="python -m training.build", description=__doc__)
    parser.add_argument("--rows", type=int, default=45000)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument(
        "--sgd", type=Path, help="git dir of a dstc8-schema-guided-dialogue snapshot"
    )
    args = parser.parse_args(argv)
    banned = evaluation_messages() | example_messages()
    rows = generated(args.rows, args.seed, banned)
    write_jsonl(DATA / "generated.jsonl", rows)
    print(f"generated.jsonl: {len(rows)} rows")
    if args.sgd:
        public = [
            r for r in sgd.sample(args.sgd, args.seed) if normalised(r["message"]) not in banned
        ]
        write_jsonl(DATA / "sgd.jsonl", public)
        print(f"sgd.jsonl: {len(public)} rows")
    print(f"corpus sha256 {corpus_sha256()}")


if __name__ == "__main__":
    main()
