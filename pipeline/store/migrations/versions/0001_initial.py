"""Initial schema: persons, engagements, assertions, conversation turns.

Revision ID: 0001
Revises:
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

json = sa.JSON().with_variant(JSONB(), "postgresql")
tstz = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "persons",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("personal_engagement_id", sa.Integer, nullable=True),
        sa.Column("created_at", tstz, nullable=False),
    )
    op.create_table(
        "engagements",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("owner_person_id", sa.Integer, sa.ForeignKey("persons.id"), nullable=True),
        sa.Column("created_at", tstz, nullable=False),
        sa.UniqueConstraint("owner_person_id", "name", name="uq_engagement_owner_name"),
        sa.CheckConstraint("visibility in ('personal', 'project')", name="ck_engagement_visibility"),
    )
    with op.batch_alter_table("persons") as batch:
        batch.create_foreign_key(
            "fk_persons_personal_engagement", "engagements", ["personal_engagement_id"], ["id"]
        )
    op.create_table(
        "assertions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("engagement_id", sa.Integer, sa.ForeignKey("engagements.id"), nullable=False),
        sa.Column("display_number", sa.Integer, nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("force", sa.String(16), nullable=False),
        sa.Column("retraction_rationale", sa.Text, nullable=True),
        sa.Column("created_at", tstz, nullable=False),
        sa.Column("updated_at", tstz, nullable=False),
        sa.UniqueConstraint("engagement_id", "display_number", name="uq_assertion_display_number"),
        sa.CheckConstraint("actor in ('operator', 'companion')", name="ck_assertion_actor"),
        sa.CheckConstraint(
            "force in ('held', 'committed', 'retracted')", name="ck_assertion_force"
        ),
    )
    op.create_index(
        "ix_assertions_engagement_force_created",
        "assertions",
        ["engagement_id", "force", "created_at"],
    )
    op.create_table(
        "conversation_turns",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("persons.id"), nullable=False),
        sa.Column("engagement_id", sa.Integer, sa.ForeignKey("engagements.id"), nullable=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("classified_intent", sa.String(64), nullable=True),
        sa.Column("operation_data", json, nullable=False),
        sa.Column("prompt_refs", json, nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("meta", json, nullable=False),
        sa.Column("created_at", tstz, nullable=False),
        sa.CheckConstraint("role in ('operator', 'companion')", name="ck_turn_role"),
    )
    op.create_index(
        "ix_turns_person_engagement_id", "conversation_turns", ["person_id", "engagement_id", "id"]
    )


def downgrade() -> None:
    op.drop_index("ix_turns_person_engagement_id", "conversation_turns")
    op.drop_table("conversation_turns")
    op.drop_index("ix_assertions_engagement_force_created", "assertions")
    op.drop_table("assertions")
    with op.batch_alter_table("persons") as batch:
        batch.drop_constraint("fk_persons_personal_engagement", type_="foreignkey")
    op.drop_table("engagements")
    op.drop_table("persons")
