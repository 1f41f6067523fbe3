"""Opening the run store's engine: the URL read as a browser reads it, a mistyped SQLite path
refused, and a PostgreSQL server that never answers given up on within the memory database's
own bound (CONVERSE_DB_CONNECT_TIMEOUT_S, pipeline/store/engine.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from evals.runner.results import RunError, reports_dir
from pipeline.redact import redact
from pipeline.store import db_settings

FIX = (
    "set CONVERSE_RUNS_URL to sqlite:///PATH or postgresql+psycopg://..., "
    "or to none to record runs only in their folders"
)


def shown(url: str) -> str:
    """The URL as an error may show it: its password hidden whole (pipeline/redact.py), and
    nothing of a URL that does not parse (it may hold one)."""
    try:
        make_url(url)
    except ArgumentError:
        return "(CONVERSE_RUNS_URL, which does not parse as a URL)"
    return redact(url)


def parse(url: str) -> URL:
    """The URL, with a password that holds an unescaped `@` read up to the last `@` (as
    browsers and urllib read it); SQLAlchemy alone would take the password's tail for the
    host and show it in every error."""
    scheme, sep, rest = url.partition("://")
    authority = rest.split("/", 1)[0]
    if sep and authority.count("@") > 1:
        userinfo, _, host = authority.rpartition("@")
        user, colon, password = userinfo.partition(":")
        escaped = f"{user}{colon}{password.replace('@', '%40')}@{host}"
        url = f"{scheme}://{escaped}{rest[len(authority) :]}"
    try:
        return make_url(url)
    except ArgumentError as exc:
        raise _cannot_open(url, "not a database URL this install can open") from exc


def _cannot_open(url: str, reason: str) -> RunError:
    return RunError(f"cannot open the run store {shown(url)}: {reason}", FIX)


def _sqlite_folder(url: str, database: str) -> None:
    """Refuse a SQLite file in a folder that does not exist; only the default one (the
    reports folder) is made. A mistyped path would otherwise grow folders and an empty store
    that hides the real one."""
    folder = Path(database).parent
    if folder.is_dir():
        return
    if folder.resolve() == reports_dir().resolve():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return
        except OSError as exc:
            raise _cannot_open(url, f"cannot create {folder} ({exc.strerror})") from exc
    raise RunError(
        f"the folder of the run store {database!r} does not exist",
        "create it first, or set CONVERSE_RUNS_URL to a file in an existing folder",
    )


def store_engine(url: str) -> Engine:
    """An engine for the run store at `url`, or a one-line RunError."""
    parsed = parse(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite" and parsed.database not in (None, "", ":memory:"):
        _sqlite_folder(url, str(parsed.database))
    connect_args: dict[str, Any] = {}
    if backend == "postgresql":
        # A server that accepts and never answers would hang `runs list` and `eval` without end.
        connect_args["connect_timeout"] = db_settings().connect_timeout_s
    try:
        return create_engine(parsed, future=True, connect_args=connect_args)
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise _cannot_open(url, "not a database URL this install can open") from exc
