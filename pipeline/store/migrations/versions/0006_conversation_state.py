"""Conversation state: the inbox, sessions and working memory.

`inbox`: a message is stored the moment it arrives, before any model is called; the turn that
answers it deletes it in the transaction that stores the turn, so a process killed at any point
leaves each message either answered or still here, to be answered after a restart.
`sessions`: a person's run of turns without a long gap; `context` is the session context
(profile and working memory) fixed at its first turn. `working_memory`: one document per
person with Updated/Expires headers, written at compaction.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
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
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "person_id",
            sa.Integer,
            sa.ForeignKey("persons.id", name="fk_sessions_person"),
            nullable=False,
        ),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_turn_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("reset_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_sessions_person_id", "sessions", ["person_id", "id"])
    op.create_table(
        "working_memory",
        sa.Column(
            "person_id",
            sa.Integer,
            sa.ForeignKey("persons.id", name="fk_working_memory_person"),
            primary_key=True,
        ),
        sa.Column("document", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("working_memory")
    op.drop_index("ix_sessions_person_id", "sessions")
    op.drop_table("sessions")
    op.drop_index("ix_inbox_person_id", "inbox")
    op.drop_table("inbox")
