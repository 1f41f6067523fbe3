"""Opening the run store's engine: the URL read as a browser reads it."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from evals.runner.results import RunError
from pipeline.redact import redact

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


def store_engine(url: str) -> Engine:
    """An engine for the run store at `url`, or a one-line RunError."""
    parsed = parse(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(str(parsed.database)).parent.mkdir(parents=True, exist_ok=True)
    try:
        return create_engine(parsed, future=True)
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise _cannot_open(url, "not a database URL this install can open") from exc
