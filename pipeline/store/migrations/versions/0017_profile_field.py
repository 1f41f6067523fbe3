"""Profile field: the sensitive field a personal fact changes, stored when it is held.

`assertions` gains `profile_field` (pipeline/memory/profile_fields.py), which consent reads
(pipeline/memory/consent.py) instead of re-reading a fact's wording. Facts held before it
existed are read once here by the English wording patterns — a labelled fallback, as every
registered provider bundle lends them (pipeline/english/profile.py) — so a proposal waiting
for consent stays one. Only held personal facts are read: consent concerns nothing else.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

from pipeline.english.lexicon import ENGLISH
from pipeline.memory.profile_fields import read_field

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("assertions", sa.Column("profile_field", sa.String(32), nullable=True))
    bind = op.get_bind()
    held = bind.execute(
        sa.text(
            "SELECT a.id, a.content FROM assertions a JOIN engagements e "
            "ON e.id = a.engagement_id WHERE e.visibility = 'personal' AND a.force = 'held'"
        )
    ).all()
    for ident, content in held:
        field = read_field(content or "", ENGLISH)
        if field is not None:
            bind.execute(
                sa.text("UPDATE assertions SET profile_field = :field WHERE id = :id"),
                {"field": field.value, "id": ident},
            )


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite 3.35+): a batch rebuild of `assertions` would break the
    # vector-change triggers that name it (0010).
    op.drop_column("assertions", "profile_field")
