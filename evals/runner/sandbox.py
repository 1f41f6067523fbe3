"""A throwaway SQLite store for targets that read or write memory, one person per case."""

from __future__ import annotations

import itertools
import shutil
import tempfile
import threading
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from evals.dataset.conversation import Note
from evals.dataset.models import HistoryEntry, Memory
from pipeline.domain import ActorKind, Person, Role
from pipeline.store import Store, add_assertion, add_turn, create_person, create_project, open_store


class Sandbox:
    """Opened lazily on first use and removed on close; safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._store: Store | None = None
        self._dir: Path | None = None
        self._ids = itertools.count(1)
        self._names: set[str] = set()

    @property
    def store(self) -> Store:
        """The sandbox store, migrated on first use."""
        with self._lock:
            if self._store is None:
                self._dir = Path(tempfile.mkdtemp(prefix="converse-eval-"))
                self._store = open_store(f"sqlite:///{self._dir / 'eval.db'}")
            return self._store

    def person(
        self,
        memories: Sequence[Memory],
        now: datetime,
        project: str | None = None,
        history: Sequence[HistoryEntry] = (),
    ) -> tuple[Person, int | None]:
        """A new person with the memories (ages counted back from `now`) and earlier turns."""
        store = self.store
        name = self._unique(None)
        with store.write() as session:
            person = create_person(session, name)
            engagement = create_project(session, person, project) if project else None
            assert person.personal_engagement_id is not None
            for memory in memories:
                add_assertion(
                    session,
                    person.personal_engagement_id,
                    memory.content,
                    ActorKind.COMPANION,
                    memory.state,
                    created_at=now - memory.elapsed,
                )
            for turn in history:
                add_turn(
                    session,
                    person_id=person.id,
                    engagement_id=engagement.id if engagement else None,
                    role=Role(turn.role),
                    content=turn.content,
                    intent=turn.intent,
                    operation_data=turn.operation_data,
                    channel="eval",
                )
        return person, engagement.id if engagement else None

    def seeded(
        self,
        memories: Sequence[Memory],
        notes: Sequence[Note],
        projects: Sequence[str],
        now: datetime,
        name: str | None = None,
    ) -> tuple[Person, dict[str, int]]:
        """A new person with personal memories, and every project named (name -> engagement id)
        with its knowledge.

        `name` (else a counter) is the person's name, which prompts carry: a case that passes
        its own gets the same prompts whatever order cases run in, so a recorded cassette
        replays under any concurrency. A name already taken in this sandbox gets a suffix."""
        store = self.store
        name = self._unique(name)
        with store.write() as session:
            person = create_person(session, name)
            assert person.personal_engagement_id is not None
            engagements = {p: create_project(session, person, p).id for p in projects}
            seeds = [(person.personal_engagement_id, m, ActorKind.COMPANION) for m in memories]
            # project knowledge is what the operator added (as add_knowledge stores it)
            seeds += [(engagements[n.project], n, ActorKind.OPERATOR) for n in notes]
            for engagement_id, fact, actor in seeds:
                add_assertion(
                    session,
                    engagement_id,
                    fact.content,
                    actor,
                    fact.state,
                    created_at=now - fact.elapsed,
                )
        return person, engagements

    def unique_name(self, wanted: str | None) -> str:
        """A person's name not yet taken in this sandbox (see `_unique`)."""
        return self._unique(wanted)

    def _unique(self, wanted: str | None) -> str:
        """`wanted` (else the next counter name), with a suffix if this sandbox has it already."""
        with self._lock:
            base = wanted or f"case-{next(self._ids)}"
            name, suffix = base, 2
            while name in self._names:
                name, suffix = f"{base}-{suffix}", suffix + 1
            self._names.add(name)
            return name

    def close(self) -> None:
        """Dispose of the store and delete its folder."""
        with self._lock:
            if self._store is not None:
                self._store.dispose()
                self._store = None
            if self._dir is not None:
                shutil.rmtree(self._dir, ignore_errors=True)
                self._dir = None
