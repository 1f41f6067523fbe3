"""What the background-job tests share: a person's facts, a small deterministic embedder
(words hashed into a vector, so restatements score 1.0 and loading no model), and a job run."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from pipeline.domain import ActorKind, Assertion, NormativeForce
from pipeline.jobs import Consolidated, consolidate
from pipeline.memory.embeddings import Vectors
from pipeline.prompting import default_library
from pipeline.providers.structured import StructuredGenerator
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import get_person

_WORD = re.compile(r"[\w']+")
_FRAMING = {"you", "you're", "your", "are", "is", "a", "the", "i", "my", "i'm"}


class WordEmbedder:
    """Bag of words (framing words left out), hashed into 256 dimensions, unit length."""

    model_name = "test-words"
    dim = 256

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                if word not in _FRAMING:
                    out[row, int(hashlib.sha256(word.encode()).hexdigest(), 16) % self.dim] += 1
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def facts(store: Store, person: str, *contents: str, at: datetime | None = None) -> list[Assertion]:
    """Committed personal facts of the person, in order (the last is the newest)."""
    made = []
    with store.write() as session:
        personal = get_person(session, person).personal_engagement_id
        assert personal is not None
        for content in contents:
            made.append(
                repo.add_assertion(
                    session, personal, content, ActorKind.OPERATOR, NormativeForce.COMMITTED, at
                )
            )
    return made


def run(
    store: Store,
    person: str,
    now: datetime,
    generator: StructuredGenerator | None = None,
    pairs_per_day: int = 50,
) -> Consolidated:
    """One consolidation pass for the person at `now`."""
    with store.read() as session:
        found = get_person(session, person)
    return consolidate(
        store,
        found,
        now=now,
        library=default_library(),
        generator=generator,
        embedder=WordEmbedder,
        pairs_per_day=pairs_per_day,
    )


def live(store: Store, person: str) -> list[str]:
    """The person's committed personal facts, oldest first."""
    with store.read() as session:
        personal = get_person(session, person).personal_engagement_id
        assert personal is not None
        found = repo.list_assertions(session, personal, forces=[NormativeForce.COMMITTED])
    return [a.content for a in reversed(found)]
