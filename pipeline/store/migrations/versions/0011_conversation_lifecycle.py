"""Conversation lifecycle: conversations, their turns, memories and what they extracted.

`conversations`: one per stretch of talk with a person, active -> ready_to_close ->
compressing -> archived (docs/conversations.md). A partial unique index keeps at most one
conversation per person that is not archived, so two starts racing each other cannot both
succeed, on SQLite and PostgreSQL alike. `conversation_messages` links a turn to its
conversation. `memory_destinations`: where a memory lives, "Your Story" (permanent) or a
project. `memories` with their `memory_entities` (active or resolved, and by which memory),
`memory_state_deltas` (applied or not) and `memory_embeddings`;
`classification_memory_references` records which memories a classification was shown.

Revision ID: 0011
Revises: 0007
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0011"
down_revision = "0007"
branch_labels = None
depends_on = None

_OPEN = "status <> 'archived'"
_JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _person(table: str) -> sa.Column[int]:
    return sa.Column(
        "person_id",
        sa.Integer,
        sa.ForeignKey("persons.id", name=f"fk_{table}_person"),
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "conversations",
        sa.Column("id", sa.Integer, primary_key=True),
        _person("conversations"),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("is_paused", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_message_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("message_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("compression", _JSON, nullable=True),
        sa.CheckConstraint(
            "status IN ('active', 'ready_to_close', 'compressing', 'archived')",
            name="ck_conversations_status",
        ),
    )
    op.create_index("ix_conversations_person", "conversations", ["person_id", "id"])
    op.create_index(
        "uq_conversations_one_open",
        "conversations",
        ["person_id"],
        unique=True,
        sqlite_where=sa.text(_OPEN),
        postgresql_where=sa.text(_OPEN),
    )
    op.create_table(
        "conversation_messages",
        sa.Column(
            "turn_id",
            sa.Integer,
            sa.ForeignKey(
                "conversation_turns.id", name="fk_conversation_messages_turn", ondelete="CASCADE"
            ),
            primary_key=True,
        ),
        sa.Column(
            "conversation_id",
            sa.Integer,
            sa.ForeignKey(
                "conversations.id", name="fk_conversation_messages_conversation", ondelete="CASCADE"
            ),
            nullable=False,
        ),
    )
    op.create_index(
        "ix_conversation_messages_conversation",
        "conversation_messages",
        ["conversation_id", "turn_id"],
    )
    op.create_table(
        "memory_destinations",
        sa.Column("id", sa.Integer, primary_key=True),
        _person("memory_destinations"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column(
            "engagement_id",
            sa.Integer,
            sa.ForeignKey("engagements.id", name="fk_memory_destinations_engagement"),
            nullable=True,
        ),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('your_story', 'project')", name="ck_destinations_kind"),
        # Your Story is never archived; a project destination names its project.
        sa.CheckConstraint(
            "(kind = 'your_story' AND engagement_id IS NULL AND archived_at IS NULL)"
            " OR (kind = 'project' AND engagement_id IS NOT NULL)",
            name="ck_destinations_shape",
        ),
        sa.UniqueConstraint("person_id", "engagement_id", name="uq_destinations_project"),
    )
    op.create_index(
        "uq_destinations_your_story",
        "memory_destinations",
        ["person_id"],
        unique=True,
        sqlite_where=sa.text("kind = 'your_story'"),
        postgresql_where=sa.text("kind = 'your_story'"),
    )
    op.create_table(
        "memories",
        sa.Column("id", sa.Integer, primary_key=True),
        _person("memories"),
        sa.Column(
            "conversation_id",
            sa.Integer,
            sa.ForeignKey("conversations.id", name="fk_memories_conversation"),
            nullable=False,
        ),
        sa.Column(
            "destination_id",
            sa.Integer,
            sa.ForeignKey("memory_destinations.id", name="fk_memories_destination"),
            nullable=False,
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("narrative", sa.Text, nullable=False),
        sa.Column("original_narrative", sa.Text, nullable=False),
        sa.Column("method", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('draft', 'confirmed')", name="ck_memories_status"),
    )
    op.create_index("ix_memories_person", "memories", ["person_id", "status", "id"])
    op.create_index("ix_memories_conversation", "memories", ["conversation_id"])
    op.create_table(
        "memory_entities",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "memory_id",
            sa.Integer,
            sa.ForeignKey("memories.id", name="fk_memory_entities_memory", ondelete="CASCADE"),
            nullable=False,
        ),
        _person("memory_entities"),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("data", _JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column(
            "resolved_by",
            sa.Integer,
            sa.ForeignKey("memories.id", name="fk_memory_entities_resolved_by", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('active', 'resolved')", name="ck_memory_entities_status"),
    )
    op.create_index(
        "ix_memory_entities_person", "memory_entities", ["person_id", "status", "kind"]
    )
    op.create_index("ix_memory_entities_memory", "memory_entities", ["memory_id"])
    op.create_table(
        "memory_state_deltas",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "memory_id",
            sa.Integer,
            sa.ForeignKey("memories.id", name="fk_memory_state_deltas_memory", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column(
            "entity_id",
            sa.Integer,
            sa.ForeignKey(
                "memory_entities.id", name="fk_memory_state_deltas_entity", ondelete="SET NULL"
            ),
            nullable=True,
        ),
        sa.Column("applied", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_memory_state_deltas_memory", "memory_state_deltas", ["memory_id"])
    op.create_table(
        "memory_embeddings",
        sa.Column(
            "memory_id",
            sa.Integer,
            sa.ForeignKey("memories.id", name="fk_memory_embeddings_memory", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("model", sa.String(100), primary_key=True),
        sa.Column("embedder", sa.String(100), nullable=False),
        sa.Column("dim", sa.Integer, nullable=False),
        sa.Column("content_sha256", sa.String(64), nullable=False),
        sa.Column("vector", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "classification_memory_references",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "turn_id",
            sa.Integer,
            sa.ForeignKey("conversation_turns.id", name="fk_cmr_turn", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "memory_id",
            sa.Integer,
            sa.ForeignKey("memories.id", name="fk_cmr_memory", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_cmr_turn", "classification_memory_references", ["turn_id"])
    op.create_index("ix_cmr_memory", "classification_memory_references", ["memory_id"])


def downgrade() -> None:
    op.drop_table("classification_memory_references")
    op.drop_table("memory_embeddings")
    op.drop_table("memory_state_deltas")
    op.drop_table("memory_entities")
    op.drop_table("memories")
    op.drop_index("uq_destinations_your_story", "memory_destinations")
    op.drop_table("memory_destinations")
    op.drop_table("conversation_messages")
    op.drop_index("uq_conversations_one_open", "conversations")
    op.drop_table("conversations")
