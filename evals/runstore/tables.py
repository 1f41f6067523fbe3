"""The run store's two tables, as the migrations in evals/runstore/migrations create them."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, Float, Integer, MetaData, String, Table, Text

metadata = MetaData()
runs = Table(
    "eval_runs",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("created_at", String(40), nullable=False),
    Column("finished_at", String(40)),
    Column("git_commit", String(64)),
    Column("git_dirty", Boolean),
    Column("providers", JSON, nullable=False),
    Column("models", JSON, nullable=False),
    Column("prompts", JSON, nullable=False),
    Column("cost_usd", Float),
    Column("unpriced_rows", Integer, nullable=False),
    Column("rows", Integer, nullable=False),
    Column("gates_passed", Boolean),
    Column("meta", JSON, nullable=False),
)
rows_table = Table(
    "eval_rows",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("run_id", String(64), nullable=False),
    Column("suite", String(200), nullable=False),
    Column("case_id", String(200), nullable=False),
    Column("provider", String(100), nullable=False),
    Column("provider_label", String(300), nullable=False),
    Column("variant", String(300), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("row_key", Text, nullable=False),
    Column("status", String(10), nullable=False),
    Column("cost_usd", Float),
    Column("finished_at", String(40), nullable=False),
    Column("row", JSON, nullable=False),
)
