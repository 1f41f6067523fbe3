"""Opening the database: engine, migrations check, transactions and per-person locks."""

from __future__ import annotations

import os
import sqlite3
import threading
import zlib
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session

from pipeline.config import DEFAULT_DB_URL, database_url
from pipeline.errors import SchemaOutdated, StoreUnavailable
from pipeline.settings import checked_settings
from pipeline.store.db_errors import store_error
from pipeline.store.person_locks import sqlite_person_lock
from pipeline.store.revisions import MIGRATIONS_DIR, head_from_files

if TYPE_CHECKING:
    from alembic.config import Config

T = TypeVar("T")


def alembic_config(url: str) -> Config:
    """An Alembic config pointing at the packaged migrations."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    """The newest migration the code knows."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    assert head is not None
    return head


def _sqlite_hooks(engine: Engine) -> None:
    """WAL, foreign keys, secure delete, and BEGIN IMMEDIATE for writes so concurrent writers
    queue, not fail. secure_delete zeroes the bytes of deleted and overwritten rows, so erased
    text does not linger in free pages of the file."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA secure_delete=ON")
        if engine.url.database not in (None, "", ":memory:"):
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        if options.get("snapshotless"):
            return  # hot-path reads: each statement reads committed data on its own
        # Straight to the driver: SQLAlchemy's execution path costs ~20x the statement itself.
        driver = conn.connection.dbapi_connection
        assert driver is not None
        driver.execute("BEGIN IMMEDIATE" if options.get("write") else "BEGIN DEFERRED")


def _sqlite_folder(database: str) -> None:
    """Refuse a SQLite file in a folder that does not exist; only the default one is made.

    A mistyped path would otherwise grow a folder tree and an empty database that hides the
    real one.
    """
    folder = Path(database).parent
    if folder.is_dir():
        return
    default = make_url(DEFAULT_DB_URL).database
    if default is not None and folder.resolve() == Path(default).parent.resolve():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return
        except OSError as exc:
            raise StoreUnavailable(
                f"cannot create the folder for the database {database!r}: {exc.strerror}",
                "set CONVERSE_DB_URL to a writable location",
            ) from exc
    raise StoreUnavailable(
        f"the folder of the database {database!r} does not exist",
        "create it first, or set CONVERSE_DB_URL to a file in an existing folder",
    )


class DbSettings(BaseSettings):
    """CONVERSE_DB_* settings beside the URL (docs/reliability.md, "Database location")."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_DB_", extra="ignore")

    # Seconds a PostgreSQL connection may take to open (psycopg's connect_timeout).
    connect_timeout_s: int = Field(10, ge=1, le=300)
    # Seconds one PostgreSQL statement may run before the server cancels it (statement_timeout);
    # waiting for another process's advisory lock is exempt (`exempt_from_timeout`).
    statement_timeout_s: int = Field(300, ge=1, le=86_400)


def db_settings() -> DbSettings:
    """The CONVERSE_DB_* settings now in the environment, or a one-line error."""
    return checked_settings(DbSettings, "CONVERSE_DB_")


def _make_engine(url: str) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StoreUnavailable(
            f"CONVERSE_DB_URL is not a database URL: {url!r}",
            "use sqlite:///path/to/file.db or postgresql+psycopg://user@host/db",
        ) from exc
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        _sqlite_folder(parsed.database)
    # A server that accepts and never answers would hang a command without end.
    limits = db_settings()
    connect_args = (
        {
            "connect_timeout": limits.connect_timeout_s,
            "options": f"-c statement_timeout={limits.statement_timeout_s * 1000}",
        }
        if parsed.get_backend_name() == "postgresql"
        else {}
    )
    try:
        engine = create_engine(
            parsed,
            pool_pre_ping=parsed.get_backend_name() != "sqlite",
            connect_args=connect_args,
        )
    except (NoSuchModuleError, ImportError) as exc:
        raise StoreUnavailable(
            f"no driver for database URL {url!r}",
            "use sqlite:///... or postgresql+psycopg://...",
        ) from exc
    if engine.dialect.name == "sqlite":
        _sqlite_hooks(engine)
    return engine


@contextmanager
def _translated() -> Iterator[None]:
    """A driver's OperationalError (full disk, lock, read-only file) as one line that says what
    to do; entered first, so it also covers the commit or rollback at the block's end."""
    try:
        yield
    except (OperationalError, sqlite3.OperationalError) as exc:
        # sqlite3's own: raised by the BEGIN the "begin" hook sends straight to the driver
        raise store_error(exc) from exc


class Store:
    """An opened, migrated database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._locks: dict[int, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._memo: dict[Hashable, Any] = {}
        self._snapshotless = engine.execution_options(snapshotless=True)

    @property
    def dialect(self) -> str:
        """`sqlite` or `postgresql`."""
        return self.engine.dialect.name

    @contextmanager
    def read(self, snapshot: bool = True) -> Iterator[Session]:
        """A session for reads; nothing it does is committed, so code that would cache what
        it computed (`session.info["read_only"]`) leaves that to a write transaction.
        `snapshot=False`: on SQLite each statement reads committed data on its own, with no
        enclosing transaction, for a caller that checks a revision before it acts on what it
        read (a turn's decision)."""
        if not snapshot:
            # Bound to the engine, the session takes a connection only when it first reads:
            # most turns decide without a query.
            with _translated(), Session(bind=self._snapshotless, expire_on_commit=False) as lazy:
                lazy.info["read_only"] = True
                yield lazy
            return
        with (
            _translated(),
            self.engine.connect() as conn,
            Session(bind=conn, expire_on_commit=False) as session,
        ):
            session.info["read_only"] = True
            yield session

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A bare connection for reads on the hot path: no ORM session, nothing committed.

        On SQLite its statements run without an enclosing transaction (each sees committed
        data), which saves two round trips per turn.
        """
        with _translated(), self.engine.connect().execution_options(snapshotless=True) as conn:
            yield conn

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """One transaction on a bare connection: for Core inserts on the hot path."""
        with (
            _translated(),
            self.engine.connect().execution_options(write=True) as conn,
            conn.begin(),
        ):
            yield conn

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back on any error."""
        with (
            _translated(),
            self.engine.connect().execution_options(write=True) as conn,
            conn.begin(),
            Session(bind=conn, expire_on_commit=False) as session,
        ):
            yield session
            session.flush()

    @contextmanager
    def person_lock(self, person_id: int) -> Iterator[None]:
        """Serialize turns of one person; other persons are not blocked.

        A thread lock covers this process; other processes (and other stores opened in this
        one) are held off by an advisory lock on PostgreSQL, a lock file on SQLite
        (pipeline/store/person_locks.py).
        """
        with self._locks_guard:
            lock = self._locks.setdefault(person_id, threading.Lock())
        with lock:
            if self.dialect != "postgresql":
                with sqlite_person_lock(self.engine.url.database, person_id):
                    yield
                return
            key = zlib.crc32(f"converse-person-{person_id}".encode())
            with self.engine.connect() as conn:
                exempt_from_timeout(conn)
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": key})
                conn.commit()
                try:
                    yield
                finally:
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
                    conn.commit()

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """Cache a value that never changes once stored (a person's or project's ids)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return cast(T, self._memo[key])

    def checkpoint(self) -> bool:
        """On SQLite, copy the WAL into the database file and truncate it, so no stale page
        of an erased row stays in the -wal file; False when a reader kept it from finishing.
        PostgreSQL has nothing to do here: dead row versions go at the next VACUUM."""
        if self.dialect != "sqlite" or self.engine.url.database in (None, "", ":memory:"):
            return True
        with self.engine.connect().execution_options(snapshotless=True) as conn:
            row = conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
        return int(row[0]) == 0

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def exempt_from_timeout(conn: Connection | Session) -> None:
    """On PostgreSQL, lift the statement timeout until this transaction ends: for waiting on an
    advisory lock, which may rightly take as long as another process's turn or sweep."""
    conn.execute(text("SET LOCAL statement_timeout = 0"))


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at, or None for an empty database."""
    with engine.connect() as conn:
        # What Alembic's MigrationContext reads, without importing Alembic.
        if not inspect(conn).has_table("alembic_version"):
            return None
        rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    if len(rows) > 1:
        raise SchemaOutdated(
            f"the database records {len(rows)} migrations at once ({', '.join(rows)})",
            "point CONVERSE_DB_URL at a converse database",
        )
    return rows[0] if rows else None


def upgrade(url: str | None = None) -> tuple[str | None, str]:
    """Migrate the database to the newest revision; returns (before, after)."""
    from alembic import command

    url = url or database_url()
    engine = _make_engine(url)
    try:
        before = _checked_revision(engine, url)
        with engine.begin() as conn:
            cfg = alembic_config(url)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        return before, head_revision()
    finally:
        engine.dispose()


def _checked_revision(engine: Engine, url: str) -> str | None:
    try:
        return current_revision(engine)
    except OperationalError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        read_only = _read_only_sqlite(engine)
        if read_only:
            raise StoreUnavailable(
                f"the database {read_only} is read-only (SQLite writes beside the file too, "
                "even to read it)",
                "make the file and its folder writable, or copy it to a writable folder and "
                "set CONVERSE_DB_URL to the copy",
            ) from exc
        raise StoreUnavailable(
            f"cannot open the database {engine.url.render_as_string(hide_password=True)}: {reason}",
            "check CONVERSE_DB_URL and that the database server is running",
        ) from exc
    except SQLAlchemyError as exc:
        raise StoreUnavailable(
            f"cannot open the database {url!r}: {exc.__class__.__name__}",
            "check CONVERSE_DB_URL",
        ) from exc


def _read_only_sqlite(engine: Engine) -> str | None:
    """The SQLite file's path when it exists but it or its folder cannot be written (file
    modes, a read-only mount): opening it then fails as "unable to open database file"."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or database in (None, "", ":memory:"):
        return None
    path = Path(database)
    if not path.is_file():
        return None
    writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    return None if writable else str(path)


def open_store(url: str | None = None) -> Store:
    """Open the database; a new, empty one is migrated, an outdated one is refused."""
    url = url or database_url()
    engine = _make_engine(url)
    revision = _checked_revision(engine, url)
    head = head_from_files() or head_revision()
    if revision is None:
        from alembic import command

        if inspect(engine).get_table_names():
            engine.dispose()
            raise SchemaOutdated(
                f"the database {url!r} has tables but no migration record",
                "point CONVERSE_DB_URL at a converse database or an empty one",
            )
        with engine.begin() as conn:
            cfg = alembic_config(url)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    elif revision != head:
        engine.dispose()
        from alembic.script import ScriptDirectory

        known = {
            s.revision for s in ScriptDirectory.from_config(alembic_config(url)).walk_revisions()
        }
        if revision in known:
            raise SchemaOutdated(
                f"the database is at migration {revision}, this version needs {head}",
                "run `converse db upgrade` (your data is kept)",
            )
        raise SchemaOutdated(
            f"the database is at migration {revision}, which this version does not know",
            "upgrade converse-harness to the version that created this database",
        )
    return Store(engine)
