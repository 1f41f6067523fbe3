"""Expected entries against stored facts: each entry needs a fact of its own."""

from __future__ import annotations

from collections.abc import Sequence


def max_matching(candidates: Sequence[Sequence[int]]) -> dict[int, int]:
    """A maximum matching, entry index -> fact index, given each entry's acceptable facts.

    Augmenting paths (Kuhn): an entry may take a fact another entry holds if that entry can
    move to a different fact, so the order of entries never decides whether all are matched,
    as it would if each took its first acceptable fact.
    """
    owner: dict[int, int] = {}

    def augment(entry: int, seen: set[int]) -> bool:
        for fact in candidates[entry]:
            if fact in seen:
                continue
            seen.add(fact)
            if fact not in owner or augment(owner[fact], seen):
                owner[fact] = entry
                return True
        return False

    for entry in range(len(candidates)):
        augment(entry, set())
    return {entry: fact for fact, entry in owner.items()}
