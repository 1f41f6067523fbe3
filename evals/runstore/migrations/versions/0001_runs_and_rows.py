"""Runs and their rows.

Revision ID: 0001_runs_and_rows
Revises:
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_runs_and_rows"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """One row per run (its metadata), one per result row written (append-only)."""
    op.create_table(
        "eval_runs",
        sa.Column("run_id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("finished_at", sa.String(40)),
        sa.Column("git_commit", sa.String(64)),
        sa.Column("git_dirty", sa.Boolean),
        sa.Column("providers", sa.JSON, nullable=False),
        sa.Column("models", sa.JSON, nullable=False),
        sa.Column("prompts", sa.JSON, nullable=False),
        sa.Column("cost_usd", sa.Float),
        sa.Column("unpriced_rows", sa.Integer, nullable=False, server_default="0"),
        sa.Column("rows", sa.Integer, nullable=False, server_default="0"),
        sa.Column("gates_passed", sa.Boolean),
        sa.Column("meta", sa.JSON, nullable=False),
    )
    op.create_index("ix_eval_runs_created_at", "eval_runs", ["created_at"])
    op.create_table(
        "eval_rows",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "run_id",
            sa.String(64),
            sa.ForeignKey("eval_runs.run_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("suite", sa.String(200), nullable=False),
        sa.Column("case_id", sa.String(200), nullable=False),
        sa.Column("provider", sa.String(100), nullable=False),
        sa.Column("provider_label", sa.String(300), nullable=False),
        sa.Column("variant", sa.String(300), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        # the row's whole key (results.row_key) as JSON: what `sync` compares
        sa.Column("row_key", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("cost_usd", sa.Float),
        sa.Column("finished_at", sa.String(40), nullable=False),
        sa.Column("row", sa.JSON, nullable=False),
    )
    op.create_index("ix_eval_rows_run", "eval_rows", ["run_id", "suite"])


def downgrade() -> None:
    """Drop both tables."""
    op.drop_index("ix_eval_rows_run", "eval_rows")
    op.drop_table("eval_rows")
    op.drop_index("ix_eval_runs_created_at", "eval_runs")
    op.drop_table("eval_runs")
