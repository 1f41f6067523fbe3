"""Where the migrations live and which is newest, read without SQLAlchemy or Alembic."""

from __future__ import annotations

import re
from pathlib import Path

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

_REVISION = re.compile(r'^(down_revision|revision) = "([^"]+)"$', re.MULTILINE)


def head_from_files() -> str | None:
    """The newest migration, read from the files' `revision =` lines without Alembic.

    Importing Alembic costs more than the rest of opening a store, and a database at the
    newest migration (every everyday command) needs only this name. None when the files do
    not have the plain form, and Alembic is asked instead.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        found = dict(_REVISION.findall(path.read_text(encoding="utf-8")))
        if "revision" not in found:
            return None
        revisions.add(found["revision"])
        parents.update([found["down_revision"]] if "down_revision" in found else [])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None
