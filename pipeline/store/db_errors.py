"""What a database failure during use means to the person, in one line.

The driver says "database or disk is full", "database is locked" or "attempt to write a
readonly database" inside a traceback; the store turns each into a StoreUnavailable that names
the cause and what to do. The transaction it happened in was rolled back, so the line says
nothing of it was stored (and nothing stored before was lost).
"""

from __future__ import annotations

from sqlalchemy.exc import OperationalError

from pipeline.errors import StoreUnavailable

_NOTHING = "nothing of this command was stored, and nothing stored before was lost"

# (what the driver's message contains, what it means, what to do)
_KNOWN = (
    ("disk is full", "the disk holding the database is full", "free some space and run it again"),
    (
        "database is locked",
        "the database stayed locked by another process for 30 s",
        "wait for the other converse command to finish (or stop it) and run it again",
    ),
    (
        "readonly database",
        "the database is read-only",
        "make the file and its folder writable, or set CONVERSE_DB_URL to a writable copy",
    ),
    (
        "statement timeout",
        "the database server took too long to answer",
        "check the server's load, then run it again",
    ),
    (
        "timeout expired",
        "the database server did not answer in time",
        "check CONVERSE_DB_URL and that the server is running and reachable",
    ),
    ("disk i/o error", "the disk holding the database failed to read or write", "check the disk"),
)


def store_error(exc: Exception) -> StoreUnavailable:
    """The one-line error for a driver's OperationalError met while using the store."""
    orig = exc.orig if isinstance(exc, OperationalError) else None
    said = str(orig if orig is not None else exc).strip()
    lowered = said.casefold()
    for needle, meaning, todo in _KNOWN:
        if needle in lowered:
            return StoreUnavailable(f"{meaning}; {_NOTHING}", todo)
    first = said.splitlines()[0] if said else exc.__class__.__name__
    return StoreUnavailable(
        f"the database failed: {first}; {_NOTHING}", "check CONVERSE_DB_URL and the database"
    )
