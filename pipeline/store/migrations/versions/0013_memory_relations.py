"""Memory relations: undirected edges between a person's related personal facts.

One row per pair, stored with the smaller assertion id first (`from_id < to_id`, checked), so
the unique constraint on (from_id, to_id) makes a second edge between the same two facts
impossible, whichever of them was written last and however many writers race
(pipeline/store/relations.py). Both ends cascade with their assertion.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "memory_relations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "from_id",
            sa.Integer,
            sa.ForeignKey("assertions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "to_id",
            sa.Integer,
            sa.ForeignKey("assertions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "relation_type", sa.String(32), nullable=False, server_default="related_to"
        ),
        sa.Column("strength", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("from_id", "to_id", name="uq_memory_relations_pair"),
        sa.CheckConstraint("from_id < to_id", name="ck_memory_relations_ordered"),
    )
    op.create_index("ix_memory_relations_from", "memory_relations", ["from_id"])
    op.create_index("ix_memory_relations_to", "memory_relations", ["to_id"])


def downgrade() -> None:
    op.drop_index("ix_memory_relations_to", table_name="memory_relations")
    op.drop_index("ix_memory_relations_from", table_name="memory_relations")
    op.drop_table("memory_relations")
