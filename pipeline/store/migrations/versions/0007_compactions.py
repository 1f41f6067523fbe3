"""Compactions: summaries that stand for a conversation's older turns.

Each row says: the turns of this person in this project (or outside any) up to and including
`upto_turn_id` are summarised by `summary`. A turn's history is the newest summary plus the
turns after it, so the context stays bounded however long the conversation runs.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "compactions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "person_id",
            sa.Integer,
            sa.ForeignKey("persons.id", name="fk_compactions_person"),
            nullable=False,
        ),
        sa.Column(
            "engagement_id",
            sa.Integer,
            sa.ForeignKey("engagements.id", name="fk_compactions_engagement"),
            nullable=True,
        ),
        sa.Column("upto_turn_id", sa.Integer, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("method", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_compactions_person_engagement", "compactions", ["person_id", "engagement_id", "id"]
    )


def downgrade() -> None:
    op.drop_index("ix_compactions_person_engagement", "compactions")
    op.drop_table("compactions")
