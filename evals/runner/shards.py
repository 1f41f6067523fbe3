"""Shards: one run's plan split across machines, and the shards merged back into one run.

`--shard K/N` keeps the work items whose key hashes to K-1 modulo N (sha256 of suite, case,
provider, prompt variant and epoch), so every machine picks the same slice of the same plan
without talking to the others, and the N slices cover the plan exactly once. Shards given one
`--run-id` write run folders of that id (one per machine); `merge_shards` (merge.py) checks
that the folders are the N shards of one plan and writes them as one run, whose rows are the
rows an unsharded run would have written (their timing aside).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from evals.runner.results import RunError

SHARD = re.compile(r"(\d+)/(\d+)")


@dataclass(frozen=True)
class Shard:
    """Slice `k` (1-based) of `n`."""

    k: int
    n: int

    def holds(self, key: tuple[Any, ...]) -> bool:
        """Whether the work item with this key is in this shard."""
        text = "\x1f".join(str(part) for part in key)
        digest = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
        return digest % self.n == self.k - 1

    def as_meta(self) -> dict[str, int]:
        """As run.json keeps it."""
        return {"k": self.k, "n": self.n}


def parse_shard(text: str) -> Shard:
    """ "2/4" -> Shard(2, 4); anything else is a one-line error."""
    found = SHARD.fullmatch(text.strip())
    if found is None or not 1 <= int(found[1]) <= int(found[2]):
        raise RunError(f"--shard {text!r} is not K/N with 1 ≤ K ≤ N", "e.g. --shard 2/4")
    return Shard(int(found[1]), int(found[2]))


def shard_of(meta: dict[str, Any]) -> Shard | None:
    """The shard a run.json describes, if any."""
    data = meta.get("shard")
    return Shard(int(data["k"]), int(data["n"])) if isinstance(data, dict) else None
