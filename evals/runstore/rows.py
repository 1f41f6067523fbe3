"""A result row as the run store writes it: its columns, its key, its JSON, and the small tally
of a run's rows its summary columns are made from."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

import orjson

from evals.runner.results import row_key
from evals.runstore.tables import rows_table


def record(row: dict[str, Any]) -> dict[str, Any]:
    """A row's values for rows_table (the row itself under "row")."""
    return {
        "run_id": row["run_id"],
        "suite": row["suite"],
        "case_id": row["case_id"],
        "provider": row["provider"],
        "provider_label": row.get("provider_label") or row["provider"],
        "variant": row["variant"],
        "epoch": int(row["epoch"]),
        "row_key": key_text(row),
        "status": row["status"],
        "cost_usd": row.get("cost_usd"),
        "finished_at": str(row.get("finished_at") or ""),
        "row": row,
    }


# json.dumps(..., ensure_ascii=False) builds an encoder per call; one shared encoder writes the
# same text for a fraction of the cost, and the key is written for every row.
_KEY_ENCODER = json.JSONEncoder(ensure_ascii=False)


def key_text(row: dict[str, Any]) -> str:
    """The row's key (case, provider, prompt variant, epoch, ...) as stored."""
    return _KEY_ENCODER.encode(list(row_key(row)))


class RowTally:
    """What a run's summary columns need from its latest row per key, kept small, so a run's
    metadata can be written at the end without reading its rows back."""

    def __init__(self) -> None:
        self._latest: dict[str, tuple[str, str, float | None, tuple[tuple[str, str, str], ...]]]
        self._latest = {}
        self.rows_seen = 0  # every row added, a later one of a key included

    def add(self, row: dict[str, Any], key: str | None = None) -> None:
        """Count one row (a later row of the same key replaces the earlier)."""
        self.rows_seen += 1
        prompts = tuple(
            (str(p["family"]), str(p["version"]), str(p.get("sha256", "")))
            for p in row.get("prompts") or []
        )
        self._latest[key or key_text(row)] = (
            str(row["provider"]),
            str(row.get("model") or ""),
            row.get("cost_usd"),
            prompts,
        )

    def __len__(self) -> int:
        return len(self._latest)

    def summary(self, meta: dict[str, Any]) -> dict[str, Any]:
        """The run's columns: git state, providers, models, prompt versions and hashes, cost."""
        git = meta.get("git") or {}
        prompts: dict[str, dict[str, str]] = {}
        for _, _, _, refs in self._latest.values():
            for family, version, sha in refs:
                prompts[f"{family}={version}"] = {
                    "family": family,
                    "version": version,
                    "sha256": sha,
                }
        costs = [cost for _, _, cost, _ in self._latest.values()]
        priced = [c for c in costs if c is not None]
        providers = {provider for provider, _, _, _ in self._latest.values()}
        return {
            "created_at": str(meta.get("created_at") or ""),
            "finished_at": meta.get("finished_at"),
            "git_commit": git.get("commit"),
            "git_dirty": git.get("dirty"),
            "providers": sorted(providers | set(meta.get("config", {}).get("providers", []))),
            "models": sorted({model for _, model, _, _ in self._latest.values() if model}),
            "prompts": sorted(prompts.values(), key=lambda p: (p["family"], p["version"])),
            "cost_usd": round(sum(priced), 8) if priced else None,
            "unpriced_rows": len(costs) - len(priced),
            "rows": len(costs),
            "gates_passed": meta.get("gates_passed"),
            "meta": meta,
        }


def summarize_meta(meta: dict[str, Any], rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The run's columns: git state, providers, models, prompt versions and hashes, cost."""
    tally = RowTally()
    for row in rows:
        tally.add(row)
    return tally.summary(meta)


ROW_COLUMNS = tuple(c.name for c in rows_table.columns if c.name != "id")
_ROW_ENCODER = json.JSONEncoder(ensure_ascii=False)


def encode_row(row: dict[str, Any]) -> str:
    """A row's JSON text: orjson's (the same JSON value, in a sixth of the time), or json's for
    what orjson does not take (keys that are not strings, integers past 64 bits)."""
    try:
        return orjson.dumps(row).decode()
    except TypeError:
        return _ROW_ENCODER.encode(row)


def stored_json(row: dict[str, Any], text: str | None) -> str:
    """The row's JSON text for the store: the run folder's text when there is one and every
    database takes it (Python writes NaN and Infinity, which PostgreSQL's JSON refuses; orjson
    writes them as null), else the row encoded."""
    if text is None or "NaN" in text or "Infinity" in text:
        return encode_row(row)
    return text


def row_values(values: dict[str, Any], text: str | None) -> tuple[Any, ...]:
    """A record's values in ROW_COLUMNS order, its row as stored JSON text."""
    return tuple(stored_json(values["row"], text) if c == "row" else values[c] for c in ROW_COLUMNS)


def copy_rows(conn: Any, values: Sequence[tuple[Any, ...]]) -> None:
    """rows_table rows (ROW_COLUMNS order) into PostgreSQL by COPY, in the connection's
    transaction (psycopg 3)."""
    columns = ", ".join(ROW_COLUMNS)
    cursor = conn.connection.driver_connection.cursor()
    with cursor.copy(f"COPY {rows_table.name} ({columns}) FROM STDIN") as copy:
        for value in values:
            copy.write_row(value)


_PLACEHOLDERS = {"qmark": "?", "format": "%s", "pyformat": "%({})s", "named": ":{}"}


@functools.cache
def driver_insert(backend: str, paramstyle: str) -> tuple[str, bool] | None:
    """The INSERT of a rows_table row in the driver's own parameter style, and whether its
    parameters are named; None where it is not known to work (SQLAlchemy inserts instead)."""
    if backend not in ("sqlite", "postgresql") or paramstyle not in _PLACEHOLDERS:
        return None
    mark = _PLACEHOLDERS[paramstyle]
    values = []
    for column in ROW_COLUMNS:
        value = mark.format(column)
        if column == "row" and backend == "postgresql":
            value = f"CAST({value} AS JSON)"
        values.append(value)
    sql = f"INSERT INTO {rows_table.name} ({', '.join(ROW_COLUMNS)}) VALUES ({', '.join(values)})"
    return sql, paramstyle in ("pyformat", "named")
