"""Background jobs: who claimed which job for which person and day, and which memory pairs the
consolidation job has already compared.

`worker_job_runs` holds one row per (job, person, day), unique, so several `converse worker
run-once` processes started together claim each one exactly once: the claim is an INSERT
that does nothing when the row exists (pipeline/store/job_runs.py).
`consolidation_fingerprints` holds a hash of each compared pair and its score, and the
verdict, so the pair is not asked about again for 14 days.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "worker_job_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("job", sa.String(32), nullable=False),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("persons.id"), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("counts", _JSON, nullable=False),
        sa.UniqueConstraint("job", "person_id", "day", name="uq_worker_job_run"),
    )
    op.create_index(
        "ix_worker_job_runs_person_job", "worker_job_runs", ["person_id", "job", "claimed_at"]
    )
    op.create_table(
        "consolidation_fingerprints",
        sa.Column("pair_hash", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("persons.id"), nullable=False),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
    )
    op.create_index(
        "ix_consolidation_fingerprints_person",
        "consolidation_fingerprints",
        ["person_id", "checked_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_consolidation_fingerprints_person", table_name="consolidation_fingerprints")
    op.drop_table("consolidation_fingerprints")
    op.drop_index("ix_worker_job_runs_person_job", table_name="worker_job_runs")
    op.drop_table("worker_job_runs")
