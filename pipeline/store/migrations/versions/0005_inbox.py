"""Inbox: messages received and not yet answered.

A message is stored here the moment it arrives, before any model is called; the turn that
answers it deletes it in the transaction that stores the turn. A process killed at any point
so leaves each message either answered or still here, to be answered after a restart.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "person_id",
            sa.Integer,
            sa.ForeignKey("persons.id", name="fk_inbox_person"),
            nullable=False,
        ),
        sa.Column(
            "engagement_id",
            sa.Integer,
            sa.ForeignKey("engagements.id", name="fk_inbox_engagement"),
            nullable=True,
        ),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_inbox_person_id", "inbox", ["person_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_inbox_person_id", "inbox")
    op.drop_table("inbox")
