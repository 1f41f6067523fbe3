"""Erasure: links from turns to the assertions they carried, and display numbers never reused.

`turn_assertions` records, when a turn states, restates, refines, confirms or matches an
assertion, that the turn carries its text, so erasing the assertion can blank exactly those
turns. `engagements.last_display_number` is the last number handed out: numbers come from
it, not from the largest number still stored, so an erased #N is never given to a new fact
that old turns would then seem to point at.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_assertions",
        sa.Column(
            "turn_id",
            sa.Integer,
            sa.ForeignKey(
                "conversation_turns.id", ondelete="CASCADE", name="fk_turn_assertions_turn"
            ),
            nullable=False,
        ),
        sa.Column(
            "assertion_id",
            sa.Integer,
            sa.ForeignKey("assertions.id", ondelete="CASCADE", name="fk_turn_assertions_assertion"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("turn_id", "assertion_id", name="pk_turn_assertions"),
    )
    op.create_index("ix_turn_assertions_assertion", "turn_assertions", ["assertion_id"])
    with op.batch_alter_table("engagements") as batch:
        batch.add_column(
            sa.Column("last_display_number", sa.Integer, nullable=False, server_default="0")
        )
    op.execute(
        "UPDATE engagements SET last_display_number = COALESCE("
        "(SELECT MAX(display_number) FROM assertions"
        " WHERE assertions.engagement_id = engagements.id), 0)"
    )


def downgrade() -> None:
    with op.batch_alter_table("engagements") as batch:
        batch.drop_column("last_display_number")
    op.drop_index("ix_turn_assertions_assertion", "turn_assertions")
    op.drop_table("turn_assertions")
