"""Scoring a personal-memory block: substrings (case-sensitive, formatting matters), order, size."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from evals.dataset.models import MemoryBlockExpect
from evals.scorers.base import Check, Score, Scorer


def _order(block: str, order: list[str]) -> Check:
    positions = [block.find(needle) for needle in order]
    missing = [needle for needle, at in zip(order, positions, strict=True) if at < 0]
    if missing:
        return Check("order", order, positions, False, f"order: {missing[0]!r} is not in the block")
    ok = all(a < b for a, b in pairwise(positions))
    return Check("order", order, positions, ok, "" if ok else f"order: found at {positions}")


def _score(expect: MemoryBlockExpect, got: dict[str, Any]) -> Score:
    block: str = got.get("block") or ""
    n = len(block)
    checks: list[Check] = []
    if expect.empty is not None:
        ok = (block == "") is expect.empty
        want = "an empty block" if expect.empty else "a non-empty block"
        checks.append(
            Check("empty", expect.empty, block == "", ok, "" if ok else f"expected {want}")
        )
    for needle in expect.includes:
        ok = needle in block
        checks.append(Check("includes", needle, ok, ok, "" if ok else f"block lacks {needle!r}"))
    for needle in expect.excludes:
        ok = needle not in block
        checks.append(Check("excludes", needle, not ok, ok, "" if ok else f"block has {needle!r}"))
    if expect.order:
        checks.append(_order(block, expect.order))
    if expect.max_chars is not None:
        ok = n <= expect.max_chars
        checks.append(
            Check(
                "max_chars",
                expect.max_chars,
                n,
                ok,
                "" if ok else f"{n} chars > {expect.max_chars}",
            )
        )
    if expect.exact_chars is not None:
        ok = n == expect.exact_chars
        checks.append(
            Check(
                "exact_chars",
                expect.exact_chars,
                n,
                ok,
                "" if ok else f"{n} chars, expected {expect.exact_chars}",
            )
        )
    return Score(
        scorer=MEMORY_BLOCK.name,
        version=MEMORY_BLOCK.version,
        expected=expect.model_dump(mode="json", exclude_defaults=True),
        got={"block": block, "chars": n},
        checks=tuple(checks),
    )


MEMORY_BLOCK = Scorer("memory_block_text", 1, _score)
