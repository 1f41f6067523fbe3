"""Assertion history (an audit row for every write) and the assertion lifecycle columns.

`assertion_history` keeps one row per write to an assertion: the operation, who made it, the
content and force before and after, and when. It names the assertion by id and by
(engagement, display number) without a foreign key to `assertions`, so the history of an
erased or purged assertion outlives it (with its text removed: pipeline/store/erasure.py).

`assertions` gains the lifecycle columns: `last_accessed_at` (when the assertion was last
written or put in a prompt or recall; existing rows start from their last update),
`importance` (0..1), `pinned`, and `deleted_at` (soft deletion by the lifecycle sweep).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "assertion_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assertion_id", sa.Integer, nullable=False),
        sa.Column(
            "engagement_id",
            sa.Integer,
            sa.ForeignKey("engagements.id", name="fk_assertion_history_engagement"),
            nullable=False,
        ),
        sa.Column("display_number", sa.Integer, nullable=False),
        sa.Column("op", sa.String(16), nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("old_content", sa.Text, nullable=True),
        sa.Column("new_content", sa.Text, nullable=True),
        sa.Column("old_force", sa.String(16), nullable=True),
        sa.Column("new_force", sa.String(16), nullable=True),
        sa.Column(
            "detail",
            sa.JSON().with_variant(postgresql.JSONB(), "postgresql"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_assertion_history_number",
        "assertion_history",
        ["engagement_id", "display_number", "id"],
    )
    op.create_index("ix_assertion_history_assertion", "assertion_history", ["assertion_id"])
    # Plain ADD COLUMNs, never a table rebuild: on SQLite a rebuild drops `assertions`, and
    # with foreign keys on that deletes every embedding and turn link (ON DELETE CASCADE).
    # So last_accessed_at stays nullable in the schema; every write sets it.
    op.add_column("assertions", sa.Column("last_accessed_at", sa.DateTime(timezone=True)))
    op.add_column(
        "assertions",
        sa.Column("importance", sa.Float, nullable=False, server_default=sa.text("0.5")),
    )
    op.add_column(
        "assertions", sa.Column("pinned", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("assertions", sa.Column("deleted_at", sa.DateTime(timezone=True)))
    op.execute("UPDATE assertions SET last_accessed_at = updated_at")
    # What the lifecycle sweep looks for: old accesses first, soft-deleted rows by date.
    op.create_index("ix_assertions_last_accessed", "assertions", ["last_accessed_at"])
    op.create_index("ix_assertions_deleted", "assertions", ["deleted_at"])


def downgrade() -> None:
    op.drop_index("ix_assertions_deleted", "assertions")
    op.drop_index("ix_assertions_last_accessed", "assertions")
    # A table rebuild on SQLite: run it with foreign keys off (Alembic's own engine), or the
    # rebuild's DROP TABLE cascades to embeddings and turn links.
    with op.batch_alter_table("assertions") as batch:
        batch.drop_column("deleted_at")
        batch.drop_column("pinned")
        batch.drop_column("importance")
        batch.drop_column("last_accessed_at")
    op.drop_index("ix_assertion_history_assertion", "assertion_history")
    op.drop_index("ix_assertion_history_number", "assertion_history")
    op.drop_table("assertion_history")
