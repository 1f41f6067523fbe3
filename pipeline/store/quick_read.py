"""Read-only answers straight from a SQLite file with the standard library's driver.

`converse memory list` is an everyday command that must answer at once, and importing
SQLAlchemy alone costs more than the rest of the command. This module answers only the happy
path: a SQLite database at the newest migration and a person who exists. Anything else returns
None and the caller goes through the store (pipeline/store/engine.py), which gives the errors
and the upgrade advice. A test keeps its answers identical to the store's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import closing
from datetime import datetime
from pathlib import Path

from pipeline.clock import as_utc
from pipeline.domain import Assertion, NormativeForce
from pipeline.store.revisions import head_from_files
from pipeline.store.rows import ASSERTION_COLUMNS, assertion_from_row

_SQLITE_PREFIX = "sqlite:///"
_LISTED = (
    f"SELECT {', '.join(f'a.{c}' for c in ASSERTION_COLUMNS)} "
    "FROM assertions a JOIN persons p ON a.engagement_id = p.personal_engagement_id "
    "WHERE p.name = ? {forces} {visible} ORDER BY a.created_at DESC, a.id DESC"
)
# The store's visibility rule (pipeline/store/assertions.py, VISIBLE): soft-deleted
# assertions are listed only when asked for.
_VISIBLE = "AND a.deleted_at IS NULL"


def sqlite_file(url: str) -> Path | None:
    """The file of a plain `sqlite:///path` URL that exists, else None (query strings,
    drivers and in-memory databases are left to SQLAlchemy)."""
    if not url.startswith(_SQLITE_PREFIX) or "?" in url:
        return None
    path = Path(url[len(_SQLITE_PREFIX) :])
    return path if path.name and path.is_file() else None


def personal_assertions(
    url: str, person: str, include_retracted: bool = False, include_deleted: bool = False
) -> list[Assertion] | None:
    """What `manage.personal_assertions` returns, or None when this path cannot answer."""
    path = sqlite_file(url)
    head = head_from_files()
    if path is None or head is None:
        return None
    name = " ".join(person.split())
    forces: Sequence[str] = (
        () if include_retracted else (NormativeForce.HELD.value, NormativeForce.COMMITTED.value)
    )
    where = f"AND a.force IN ({', '.join('?' * len(forces))})" if forces else ""
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            conn.execute("PRAGMA busy_timeout=30000")
            if _revision(conn) != head:
                return None
            found = conn.execute("SELECT 1 FROM persons WHERE name = ?", (name,)).fetchone()
            if found is None:
                return None
            listed = _LISTED.format(forces=where, visible="" if include_deleted else _VISIBLE)
            rows = conn.execute(listed, (name, *forces)).fetchall()
    except sqlite3.Error:
        return None  # the store reports what is wrong with the file
    return [assertion_from_row(row, _moment) for row in rows]


def _revision(conn: sqlite3.Connection) -> str | None:
    try:
        rows = conn.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.OperationalError:
        return None
    return str(rows[0][0]) if len(rows) == 1 else None


def _moment(stored: str) -> datetime:
    return as_utc(datetime.fromisoformat(stored))
