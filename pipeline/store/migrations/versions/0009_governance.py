"""Memory governance: categories, operational events, checkpoints and the memory delta.

`assertions` gains `category` (pipeline/categories.yaml). Existing rows take the default of
their engagement's kind: `profile` in a personal engagement, `knowledge` in a project.
`memory_events` counts what the pipeline did to memory (pipeline/store/events.py).
`conversation_checkpoints` keeps the pipeline's state of each conversation, one JSON row per
person and conversation (pipeline/store/checkpoints.py). `memory_revisions` and
`memory_changes` number each engagement's changes (pipeline/store/changes.py).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (no table rebuild: on SQLite a rebuild with foreign keys on would
    # cascade to embeddings and turn links, see 0005).
    op.add_column(
        "assertions",
        sa.Column("category", sa.String(32), nullable=False, server_default="profile"),
    )
    op.execute(
        "UPDATE assertions SET category = 'knowledge' WHERE engagement_id IN "
        "(SELECT id FROM engagements WHERE visibility = 'project')"
    )
    op.create_index(
        "ix_assertions_engagement_category", "assertions", ["engagement_id", "category"]
    )


    # Operational events (pipeline/store/events.py): no foreign keys, so the counts of what
    # was done outlive an erased memory; no text of the person's is kept here.
    op.create_table(
        "memory_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, nullable=True),
        sa.Column("conversation", sa.String(32), nullable=True),
        sa.Column("node", sa.String(16), nullable=False),
        sa.Column("op", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("memory_id", sa.Integer, nullable=True),
        sa.Column("category", sa.String(32), nullable=True),
        sa.Column("similarity", sa.Float, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_memory_events_person_created", "memory_events", ["person_id", "created_at"]
    )
    op.create_index("ix_memory_events_node_created", "memory_events", ["node", "created_at"])


    # Checkpoints (pipeline/store/checkpoints.py): one row per person and conversation.
    op.create_table(
        "conversation_checkpoints",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "person_id",
            sa.Integer,
            sa.ForeignKey("persons.id", name="fk_checkpoints_person"),
            nullable=False,
        ),
        sa.Column("conversation", sa.String(32), nullable=False),
        sa.Column(
            "state", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("person_id", "conversation", name="uq_checkpoint_conversation"),
    )
    op.create_index("ix_checkpoints_updated", "conversation_checkpoints", ["updated_at"])


    # The memory delta (pipeline/store/changes.py): a revision per engagement, and one row
    # per change at a revision; no text (it stays with the assertion).
    op.create_table(
        "memory_revisions",
        sa.Column(
            "engagement_id",
            sa.Integer,
            sa.ForeignKey("engagements.id", name="fk_memory_revisions_engagement"),
            primary_key=True,
        ),
        sa.Column("revision", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "memory_changes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("engagement_id", sa.Integer, nullable=False),
        sa.Column("revision", sa.BigInteger, nullable=False),
        sa.Column("assertion_id", sa.Integer, nullable=False),
        sa.Column("event", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_memory_changes_revision", "memory_changes", ["engagement_id", "revision"]
    )


def downgrade() -> None:
    op.drop_index("ix_memory_changes_revision", "memory_changes")
    op.drop_table("memory_changes")
    op.drop_table("memory_revisions")
    op.drop_index("ix_checkpoints_updated", "conversation_checkpoints")
    op.drop_table("conversation_checkpoints")
    op.drop_index("ix_memory_events_node_created", "memory_events")
    op.drop_index("ix_memory_events_person_created", "memory_events")
    op.drop_table("memory_events")
    op.drop_index("ix_assertions_engagement_category", "assertions")
    with op.batch_alter_table("assertions") as batch:
        batch.drop_column("category")
