"""Indexes for memory-aware classification: the fingerprint that tells a cached memory index
it is stale reads these instead of scanning narratives and vectors.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_memory_embeddings_model_memory_created",
        "memory_embeddings",
        ["model", "memory_id", "created_at"],
    )
    op.create_index(
        "ix_memories_person_status_confirmed",
        "memories",
        ["person_id", "status", "id", "confirmed_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_memories_person_status_confirmed", table_name="memories")
    op.drop_index("ix_memory_embeddings_model_memory_created", table_name="memory_embeddings")
