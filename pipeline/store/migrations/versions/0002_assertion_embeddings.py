"""Assertion embeddings: one float32 vector per assertion and model, for semantic matching.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "assertion_embeddings",
        sa.Column(
            "assertion_id",
            sa.Integer,
            sa.ForeignKey("assertions.id", ondelete="CASCADE", name="fk_assertion_embeddings_assertion"),
            nullable=False,
        ),
        sa.Column("model", sa.String(100), nullable=False),
        sa.Column("dim", sa.Integer, nullable=False),
        sa.Column("content_sha256", sa.String(64), nullable=False),
        sa.Column("vector", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("assertion_id", "model", name="pk_assertion_embeddings"),
        sa.CheckConstraint("dim > 0", name="ck_assertion_embeddings_dim"),
    )


def downgrade() -> None:
    op.drop_table("assertion_embeddings")
