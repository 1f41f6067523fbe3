"""A person whose facts have vectors chosen by the test, so every similarity is known."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from pipeline.domain import ActorKind, NormativeForce
from pipeline.memory.embeddings import Vectors, normalized
from pipeline.memory.relations import RelationSettings
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person

DIM = 16
SETTINGS = RelationSettings(top_k=3, link_min=0.5, boost_weight=0.05, related_bullets=2)


def toward(axis: int, cosine: float, other: int = 15) -> Vectors:
    """A unit vector whose cosine with unit vector `axis` is `cosine` (the rest on `other`)."""
    vector = np.zeros(DIM, dtype=np.float32)
    vector[axis] = cosine
    vector[other] = np.sqrt(max(0.0, 1.0 - cosine * cosine))
    return vector


class TableEmbedder:
    """A text holding a key the test named gets its vector; any other text a hashed one far
    from them all."""

    model_name = "table-16"
    dim = DIM

    def __init__(self, table: dict[str, Vectors]) -> None:
        self.table = table

    def embed(self, texts: Sequence[str]) -> Vectors:
        rows = []
        for text in texts:
            named = [v for key, v in self.table.items() if key.lower() in text.lower()]
            if named:
                rows.append(named[0])
            else:
                seed = int(hashlib.md5(text.encode()).hexdigest()[:8], 16)
                noise = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
                noise[:8] = 0.0  # far from the named axes
                rows.append(noise)
        return normalized(np.array(rows))


def add_facts(
    store: Store,
    person: str,
    facts: Sequence[tuple[str, str]],
    force: NormativeForce = NormativeForce.COMMITTED,
) -> dict[str, int]:
    """(key, content) facts of the person (made if missing), committed unless told; ids by key."""
    ids: dict[str, int] = {}
    with store.write() as session:
        from pipeline.errors import NotFound
        from pipeline.store.people import get_person

        try:
            who = get_person(session, person)
        except NotFound:
            who = create_person(session, person)
        assert who.personal_engagement_id is not None
        for key, content in facts:
            made = repo.add_assertion(
                session, who.personal_engagement_id, content, ActorKind.OPERATOR, force
            )
            ids[key] = made.id
    return ids
