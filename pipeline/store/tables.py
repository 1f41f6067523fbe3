"""SQLAlchemy table definitions. The schema itself is created by the Alembic migrations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from pipeline.clock import utcnow
from pipeline.domain import DEFAULT_CATEGORY, DEFAULT_IMPORTANCE

JsonType = JSON().with_variant(JSONB(), "postgresql")


class Base(DeclarativeBase):
    """Declarative base of the store's tables."""


class PersonRow(Base):
    """A person and the id of their personal engagement."""

    __tablename__ = "persons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    personal_engagement_id: Mapped[int | None] = mapped_column(
        ForeignKey("engagements.id", use_alter=True, name="fk_persons_personal_engagement")
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EngagementRow(Base):
    """A personal engagement or a project."""

    __tablename__ = "engagements"
    __table_args__ = (UniqueConstraint("owner_person_id", "name", name="uq_engagement_owner_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    visibility: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(Text)
    owner_person_id: Mapped[int | None] = mapped_column(ForeignKey("persons.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The last display number handed out; erased numbers are never handed out again.
    last_display_number: Mapped[int] = mapped_column(Integer, default=0)


class AssertionRow(Base):
    """One assertion; display numbers are unique within an engagement."""

    __tablename__ = "assertions"
    __table_args__ = (
        UniqueConstraint("engagement_id", "display_number", name="uq_assertion_display_number"),
        Index("ix_assertions_engagement_force_created", "engagement_id", "force", "created_at"),
        Index("ix_assertions_last_accessed", "last_accessed_at"),
        Index("ix_assertions_deleted", "deleted_at"),
        Index("ix_assertions_engagement_category", "engagement_id", "category"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    engagement_id: Mapped[int] = mapped_column(ForeignKey("engagements.id"))
    display_number: Mapped[int] = mapped_column(Integer)
    content: Mapped[str] = mapped_column(Text)
    actor: Mapped[str] = mapped_column(String(16))
    force: Mapped[str] = mapped_column(String(16))
    retraction_rationale: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Lifecycle (migration 0005, docs/memory.md "Lifecycle"): when it was last written or
    # used in a prompt or recall, how much it matters (0..1), whether the sweep may ever
    # soft-delete it, and when the sweep did (None: live).
    # Nullable in the schema only (migration 0005 adds it without a table rebuild): every
    # write sets it.
    last_accessed_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=True, default=utcnow
    )
    importance: Mapped[float] = mapped_column(Float, default=DEFAULT_IMPORTANCE)
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # pipeline/categories.yaml (migration 0009).
    category: Mapped[str] = mapped_column(String(32), default=DEFAULT_CATEGORY)
    # The sensitive profile field a personal fact changes, as read when it was held
    # (migration 0017; pipeline/memory/consent.py); None for every other fact.
    profile_field: Mapped[str | None] = mapped_column(String(32), nullable=True)


class HistoryRow(Base):
    """One write to an assertion: what it was before and after, who wrote it, and when.

    No foreign key to `assertions`: the history of an erased or purged assertion stays
    (its text removed), found by (engagement, display number), which is never reused.
    """

    __tablename__ = "assertion_history"
    __table_args__ = (
        Index("ix_assertion_history_number", "engagement_id", "display_number", "id"),
        Index("ix_assertion_history_assertion", "assertion_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assertion_id: Mapped[int] = mapped_column(Integer)
    engagement_id: Mapped[int] = mapped_column(ForeignKey("engagements.id"))
    display_number: Mapped[int] = mapped_column(Integer)
    op: Mapped[str] = mapped_column(String(16))
    actor: Mapped[str] = mapped_column(String(16))
    old_content: Mapped[str | None] = mapped_column(Text)
    new_content: Mapped[str | None] = mapped_column(Text)
    old_force: Mapped[str | None] = mapped_column(String(16))
    new_force: Mapped[str | None] = mapped_column(String(16))
    detail: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TurnRow(Base):
    """One conversation turn, with what the pipeline did and which prompts it used."""

    __tablename__ = "conversation_turns"
    __table_args__ = (Index("ix_turns_person_engagement_id", "person_id", "engagement_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    engagement_id: Mapped[int | None] = mapped_column(ForeignKey("engagements.id"))
    role: Mapped[str] = mapped_column(String(16))
    content: Mapped[str] = mapped_column(Text)
    classified_intent: Mapped[str | None] = mapped_column(String(64))
    operation_data: Mapped[dict[str, Any]] = mapped_column(JsonType)
    prompt_refs: Mapped[list[dict[str, str]]] = mapped_column(JsonType)
    channel: Mapped[str] = mapped_column(String(32))
    meta: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AssertionEmbeddingRow(Base):
    """An assertion's embedding under one model: float32 bytes, and the hash of the content
    it was computed from, so an amended assertion is re-embedded instead of mis-matched."""

    __tablename__ = "assertion_embeddings"

    assertion_id: Mapped[int] = mapped_column(
        ForeignKey("assertions.id", ondelete="CASCADE"), primary_key=True
    )
    model: Mapped[str] = mapped_column(String(100), primary_key=True)
    # Which embedder computed the vector (the same model on onnxruntime or torch differs
    # slightly): a vector of another embedder is recomputed, never mixed in (migration 0003).
    embedder: Mapped[str] = mapped_column(String(100))
    dim: Mapped[int] = mapped_column(Integer)
    content_sha256: Mapped[str] = mapped_column(String(64))
    vector: Mapped[bytes] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TurnAssertionRow(Base):
    """A turn that carried an assertion's text (stated, restated, refined, confirmed or
    matched it): what erasing the assertion must blank."""

    __tablename__ = "turn_assertions"
    __table_args__ = (Index("ix_turn_assertions_assertion", "assertion_id"),)

    turn_id: Mapped[int] = mapped_column(
        ForeignKey("conversation_turns.id", ondelete="CASCADE"), primary_key=True
    )
    assertion_id: Mapped[int] = mapped_column(
        ForeignKey("assertions.id", ondelete="CASCADE"), primary_key=True
    )


class InboxRow(Base):
    """A message received and not yet answered (migration 0006); the answering turn deletes it."""

    __tablename__ = "inbox"
    __table_args__ = (Index("ix_inbox_person_id", "person_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    engagement_id: Mapped[int | None] = mapped_column(ForeignKey("engagements.id"))
    channel: Mapped[str] = mapped_column(String(32))
    content: Mapped[str] = mapped_column(Text)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The queue that answers it (pipeline/store/leases.py; migration 0016), and until when
    # its lease lasts without renewal; NULL: any queue may take it.
    lease_owner: Mapped[str | None] = mapped_column(String(200), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A person's run of turns without a long gap, and the session context fixed at its start."""

    __tablename__ = "sessions"
    __table_args__ = (Index("ix_sessions_person_id", "person_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_turn_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    context: Mapped[str] = mapped_column(Text)
    reset_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WorkingMemoryRow(Base):
    """A person's working memory document (Updated/Expires headers, then the summary)."""

    __tablename__ = "working_memory"

    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"), primary_key=True)
    document: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    """One operation of the pipeline on memory (migration 0009): what was done, where, to which
    memory, how it went, and the best similarity when there was one. No text of the person's."""

    __tablename__ = "memory_events"
    __table_args__ = (
        Index("ix_memory_events_person_created", "person_id", "created_at"),
        Index("ix_memory_events_node_created", "node", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int | None] = mapped_column(Integer)
    conversation: Mapped[str | None] = mapped_column(String(32))
    node: Mapped[str] = mapped_column(String(16))
    op: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    memory_id: Mapped[int | None] = mapped_column(Integer)
    category: Mapped[str | None] = mapped_column(String(32))
    similarity: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    latency_ms: Mapped[float | None] = mapped_column(Float)  # timed operations (migration 0015)


class CheckpointRow(Base):
    """The pipeline's state of one conversation, as JSON, upserted each turn (migration 0009)."""

    __tablename__ = "conversation_checkpoints"
    __table_args__ = (
        UniqueConstraint("person_id", "conversation", name="uq_checkpoint_conversation"),
        Index("ix_checkpoints_updated", "updated_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    conversation: Mapped[str] = mapped_column(String(32))
    state: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MemoryRevisionRow(Base):
    """How many times an engagement's memory changed: its revision (migration 0009)."""

    __tablename__ = "memory_revisions"

    engagement_id: Mapped[int] = mapped_column(ForeignKey("engagements.id"), primary_key=True)
    revision: Mapped[int] = mapped_column(BigInteger)


class MemoryChangeRow(Base):
    """One change to an engagement's memory at a revision; the text stays with the assertion
    (and goes with it at erasure), so this row holds none."""

    __tablename__ = "memory_changes"
    __table_args__ = (Index("ix_memory_changes_revision", "engagement_id", "revision"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    engagement_id: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(BigInteger)
    assertion_id: Mapped[int] = mapped_column(Integer)
    event: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CompactionRow(Base):
    """A summary standing for a conversation's turns up to `upto_turn_id` (migration 0007)."""

    __tablename__ = "compactions"
    __table_args__ = (
        Index("ix_compactions_person_engagement", "person_id", "engagement_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    engagement_id: Mapped[int | None] = mapped_column(ForeignKey("engagements.id"))
    upto_turn_id: Mapped[int] = mapped_column(Integer)
    summary: Mapped[str] = mapped_column(Text)
    method: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class StatusNoteRow(Base):
    """A status note (migration 0008): current while `replaced_at` is empty."""

    __tablename__ = "status_notes"
    __table_args__ = (Index("ix_status_notes_person_topic", "person_id", "topic", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    topic: Mapped[str] = mapped_column(String(100))
    text: Mapped[str] = mapped_column(Text)
    source_turn_id: Mapped[int | None] = mapped_column(Integer)
    written_by: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    replaced_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class VectorChangeRow(Base):
    """An assertion whose searchable vector may have changed, appended by triggers (0010)."""

    __tablename__ = "vector_changes"
    __table_args__ = (Index("ix_vector_changes_engagement_seq", "engagement_id", "seq"),)

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    engagement_id: Mapped[int] = mapped_column(Integer)
    assertion_id: Mapped[int] = mapped_column(Integer)


class JobRunRow(Base):
    """One background job's pass for one person on one day (migration 0014): unique, so
    concurrent workers claim it once."""

    __tablename__ = "worker_job_runs"
    __table_args__ = (
        UniqueConstraint("job", "person_id", "day", name="uq_worker_job_run"),
        Index("ix_worker_job_runs_person_job", "person_id", "job", "claimed_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    job: Mapped[str] = mapped_column(String(32))
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    day: Mapped[str] = mapped_column(String(10))
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16))
    counts: Mapped[dict[str, Any]] = mapped_column(JsonType)


class FingerprintRow(Base):
    """A memory pair the consolidation job compared, by hash of (ids, rounded score), and
    its verdict (migration 0014)."""

    __tablename__ = "consolidation_fingerprints"
    __table_args__ = (Index("ix_consolidation_fingerprints_person", "person_id", "checked_at"),)

    pair_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    checked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    verdict: Mapped[str] = mapped_column(String(16))


class RelationRow(Base):
    """An undirected edge between two related personal facts of one person (migration 0013):
    the smaller id is `from_id`, so each pair has one row (pipeline/store/relations.py)."""

    __tablename__ = "memory_relations"
    __table_args__ = (
        UniqueConstraint("from_id", "to_id", name="uq_memory_relations_pair"),
        CheckConstraint("from_id < to_id", name="ck_memory_relations_ordered"),
        Index("ix_memory_relations_from", "from_id"),
        Index("ix_memory_relations_to", "to_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("assertions.id", ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(ForeignKey("assertions.id", ondelete="CASCADE"))
    relation_type: Mapped[str] = mapped_column(String(32), default="related_to")
    strength: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
