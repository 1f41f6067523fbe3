"""Memory governance: assertion categories.

`assertions` gains `category` (pipeline/categories.yaml). Existing rows take the default of
their engagement's kind: `profile` in a personal engagement, `knowledge` in a project.

Revision ID: 0009
Revises: 0007
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0007"
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


def downgrade() -> None:
    op.drop_index("ix_assertions_engagement_category", "assertions")
    with op.batch_alter_table("assertions") as batch:
        batch.drop_column("category")
