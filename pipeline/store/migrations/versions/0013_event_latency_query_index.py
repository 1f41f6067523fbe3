"""Event latency and memory.query's filter index.

- memory_events.latency_ms: how long an operation took, for the ones that are timed
  (on-demand recall).
- ix_assertions_query: every column memory.query filters on, so the ids that pass a request's
  filters are read from the index alone, never from the wide rows (half the time at 10,000).

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

# As pipeline/store/tables.py declares it.
QUERY_INDEX_COLUMNS = (
    "engagement_id",
    "category",
    "force",
    "deleted_at",
    "importance",
    "updated_at",
    "pinned",
)


def upgrade() -> None:
    with op.batch_alter_table("memory_events") as batch:
        batch.add_column(sa.Column("latency_ms", sa.Float(), nullable=True))
    op.create_index("ix_assertions_query", "assertions", list(QUERY_INDEX_COLUMNS))


def downgrade() -> None:
    op.drop_index("ix_assertions_query", table_name="assertions")
    with op.batch_alter_table("memory_events") as batch:
        batch.drop_column("latency_ms")
