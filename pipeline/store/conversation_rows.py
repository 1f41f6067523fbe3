"""Tables of the conversation lifecycle (migration 0011): conversations and their turns,
memories, their entities, state deltas and embeddings, and classification references."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from pipeline.store.tables import Base, JsonType

OPEN_WHERE = text("status <> 'archived'")


class ConversationRow(Base):
    """A conversation; at most one per person is not archived (a partial unique index)."""

    __tablename__ = "conversations"
    __table_args__ = (
        Index("ix_conversations_person", "person_id", "id"),
        Index(
            "uq_conversations_one_open",
            "person_id",
            unique=True,
            sqlite_where=OPEN_WHERE,
            postgresql_where=OPEN_WHERE,
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    status: Mapped[str] = mapped_column(String(16))
    is_paused: Mapped[bool] = mapped_column(Boolean, default=False)
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_message_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    archived_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    message_count: Mapped[int] = mapped_column(Integer, default=0)
    # What the compression pipeline did: per stage, the method and any recorded error.
    compression: Mapped[dict[str, Any] | None] = mapped_column(JsonType)


class ConversationMessageRow(Base):
    """A turn that belongs to a conversation."""

    __tablename__ = "conversation_messages"
    __table_args__ = (Index("ix_conversation_messages_conversation", "conversation_id", "turn_id"),)

    turn_id: Mapped[int] = mapped_column(
        ForeignKey("conversation_turns.id", ondelete="CASCADE"), primary_key=True
    )
    conversation_id: Mapped[int] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))


class DestinationRow(Base):
    """Where memories live: the person's Your Story (permanent) or one of their projects."""

    __tablename__ = "memory_destinations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    kind: Mapped[str] = mapped_column(String(16))
    engagement_id: Mapped[int | None] = mapped_column(ForeignKey("engagements.id"))
    archived_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class MemoryRow(Base):
    """The meaning of a conversation for one destination: a draft until the person confirms."""

    __tablename__ = "memories"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    conversation_id: Mapped[int] = mapped_column(ForeignKey("conversations.id"))
    destination_id: Mapped[int] = mapped_column(ForeignKey("memory_destinations.id"))
    status: Mapped[str] = mapped_column(String(16))
    narrative: Mapped[str] = mapped_column(Text)
    original_narrative: Mapped[str] = mapped_column(Text)  # as extracted; edits keep it
    method: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class MemoryEntityRow(Base):
    """One extracted entity; open kinds stay active until a later memory resolves them."""

    __tablename__ = "memory_entities"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    memory_id: Mapped[int] = mapped_column(ForeignKey("memories.id", ondelete="CASCADE"))
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    kind: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, Any]] = mapped_column(JsonType)
    status: Mapped[str] = mapped_column(String(16))
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("memories.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class StateDeltaRow(Base):
    """A change to the person's open state that a memory carries; applied at confirmation."""

    __tablename__ = "memory_state_deltas"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    memory_id: Mapped[int] = mapped_column(ForeignKey("memories.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    entity_id: Mapped[int | None] = mapped_column(
        ForeignKey("memory_entities.id", ondelete="SET NULL")
    )
    applied: Mapped[bool] = mapped_column(Boolean, default=False)
    applied_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class MemoryEmbeddingRow(Base):
    """A memory's narrative embedded by the local model (float32 bytes)."""

    __tablename__ = "memory_embeddings"

    memory_id: Mapped[int] = mapped_column(
        ForeignKey("memories.id", ondelete="CASCADE"), primary_key=True
    )
    model: Mapped[str] = mapped_column(String(100), primary_key=True)
    embedder: Mapped[str] = mapped_column(String(100))
    dim: Mapped[int] = mapped_column(Integer)
    content_sha256: Mapped[str] = mapped_column(String(64))
    vector: Mapped[bytes] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClassificationMemoryRow(Base):
    """A memory a classification was shown, with its score and why."""

    __tablename__ = "classification_memory_references"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    turn_id: Mapped[int] = mapped_column(ForeignKey("conversation_turns.id", ondelete="CASCADE"))
    memory_id: Mapped[int] = mapped_column(ForeignKey("memories.id", ondelete="CASCADE"))
    score: Mapped[float] = mapped_column(Float)
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
