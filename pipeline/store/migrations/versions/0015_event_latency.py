"""Event latency: how long an operation took, for the ones that are timed (on-demand recall).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("memory_events") as batch:
        batch.add_column(sa.Column("latency_ms", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("memory_events") as batch:
        batch.drop_column("latency_ms")
