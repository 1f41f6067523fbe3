"""Status notes: what a person reported about an ongoing thing, one current note a topic.

A later note on the same topic replaces the earlier one, which is kept with `replaced_at` set
(the note's history). `source_turn_id` is the operator turn that reported it, so erasing the
text of that turn erases the note too.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "status_notes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "person_id",
            sa.Integer,
            sa.ForeignKey("persons.id", name="fk_status_notes_person"),
            nullable=False,
        ),
        sa.Column("topic", sa.String(100), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("source_turn_id", sa.Integer, nullable=True),
        sa.Column("written_by", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("replaced_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_status_notes_person_topic", "status_notes", ["person_id", "topic", "id"])


def downgrade() -> None:
    op.drop_index("ix_status_notes_person_topic", "status_notes")
    op.drop_table("status_notes")
