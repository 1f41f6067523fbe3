"""A team's run history: every run's metadata and rows in SQLite or PostgreSQL.

`CONVERSE_RUNS_URL` names the database (any SQLAlchemy URL; default: SQLite at
`reports/runs.sqlite`; `none` turns recording off). The schema grows only by the named
migrations in evals/runstore/migrations, with a version table of its own. Rows are append-only:
a case run again (resume, retry of errors) adds a row, and the latest per key counts, as in a
run folder, so concurrent writers (shards of one run) only ever insert. The run folder stays
the local copy; `sync` fills in anything the store missed (a crash between flushes).
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import (
    IntegrityError,
    OperationalError,
    SQLAlchemyError,
)

from evals.runner.results import RunError, redact_meta, redact_row, reports_dir, row_key
from evals.runstore.connect import parse, shown, store_engine
from evals.runstore.rows import (
    ROW_COLUMNS,
    RowTally,
    copy_rows,
    driver_insert,
    key_text,
    record,
    row_values,
    summarize_meta,
)
from evals.runstore.tables import rows_table, runs
from evals.settings import run_store_settings
from pipeline.redact import redact
from pipeline.store import db_settings

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "runstore_alembic_version"  # as migrations/env.py names it
_REVISION = re.compile(r"^(down_)?revision\s*(?::[^=]*)?=\s*[\"']?([\w-]*)[\"']?", re.MULTILINE)
OFF = ("none", "off", "")
FLUSH_ROWS = 200
FLUSH_SECONDS = 1.0
_MIGRATING = threading.Lock()


@functools.cache
def head_revision() -> str:
    """The newest migration's revision id, read from the version files (Alembic not loaded)."""
    revisions: set[str] = set()
    replaced: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        for down, value in _REVISION.findall(path.read_text(encoding="utf-8")):
            if value and value != "None":
                (replaced if down else revisions).add(value)
    heads = sorted(revisions - replaced)
    return heads[0] if len(heads) == 1 else ""


def runs_url() -> str | None:
    """The run store's URL, or None when recording is turned off."""
    value = run_store_settings().runs_url
    if value is None:
        return f"sqlite:///{reports_dir() / 'runs.sqlite'}"
    return None if value.strip().lower() in OFF else value.strip()


class RunStore:
    """The database of runs; thread-safe; rows are buffered and flushed in batches."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = store_engine(url)
        _relax_commits(self.engine)
        # rows with their JSON text when known, made records when written
        self._buffer: list[tuple[dict[str, Any], str | None]] = []
        self._tallies: dict[str, RowTally] = {}  # run id -> the rows written by this process
        self._lock = threading.Lock()
        self._flushing = threading.Lock()  # one batch at a time, in order
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._writer: threading.Thread | None = None
        self.error: str | None = None  # why the background writer stopped, if it did
        self.busy = 0.0  # seconds spent writing rows
        self.busy_cpu = 0.0  # CPU seconds of the writing thread in them (no waits, no GIL queue)
        self._migrate()

    def _migrate(self) -> None:
        if self._at_head():
            return  # loading Alembic and its scripts costs more than the rest of a small run
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        try:
            with _MIGRATING, self.engine.begin() as conn:  # Alembic's context is process-global
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except (OperationalError, IntegrityError) as exc:
            if _exists(exc):  # another process created the tables at the same moment
                return
            raise _unavailable(self.url, exc) from exc
        except SQLAlchemyError as exc:
            raise _unavailable(self.url, exc) from exc

    def _at_head(self) -> bool:
        """Whether the store's version table already names the newest migration; a store
        that cannot be reached is a RunError here, once, not a second wait in the upgrade."""
        try:
            conn = self.engine.connect()
        except SQLAlchemyError as exc:
            raise _unavailable(self.url, exc) from exc
        with conn:
            try:
                found = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
            except SQLAlchemyError:
                return False  # no version table yet: a new store
        return [r[0] for r in found] == [head_revision()]

    # -- writing -------------------------------------------------------------------------

    def record_run(
        self,
        meta: dict[str, Any],
        rows: Sequence[dict[str, Any]] = (),
        tally: RowTally | None = None,
    ) -> None:
        """Insert or update the run's metadata (shards of one run merge their shard lists);
        its summary columns from `tally` when given, else from `rows`."""
        meta = redact_meta(meta)  # a folder written before run.json hid its secrets, too
        values = tally.summary(meta) if tally is not None else summarize_meta(meta, rows)
        run_id = str(meta["run_id"])
        shard = meta.get("shard")
        for _ in range(3):
            with self.engine.begin() as conn:
                found = conn.execute(
                    select(runs.c.meta).where(runs.c.run_id == run_id).with_for_update()
                ).first()
                if found is None:
                    try:
                        values["meta"] = _with_shard(dict(meta), None, shard)
                        conn.execute(insert(runs).values(run_id=run_id, **values))
                        return
                    except IntegrityError:
                        continue  # a shard inserted it first: update instead
                earlier = dict(found.meta)
                values["meta"] = _with_shard(dict(meta), earlier, shard)
                if shard is not None:  # one shard's gates judge its slice, not the run
                    values.pop("gates_passed", None)
                conn.execute(update(runs).where(runs.c.run_id == run_id).values(**values))
                return

    def add_row(self, row: dict[str, Any], text: str | None = None) -> None:
        """Buffer one row (and its JSON text, when the caller has it) for the background
        writer (started by the first row), which writes every FLUSH_SECONDS or FLUSH_ROWS
        rows: the runner's workers never wait on the database."""
        with self._lock:
            self._buffer.append((row, text))
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._write_loop, name="runstore-writer", daemon=True
                )
                self._writer.start()
            if len(self._buffer) >= FLUSH_ROWS:
                self._wake.set()

    def _write_loop(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(FLUSH_SECONDS)
            self._wake.clear()
            try:
                self.flush()
            except Exception as exc:  # the rows stay in the run folder; `sync` catches up
                self.error = redact(f"{type(exc).__name__}: {exc}".splitlines()[0])
                return

    def flush(self) -> None:
        """Write the buffered rows in one transaction."""
        with self._flushing:
            with self._lock:
                batch, self._buffer = self._buffer, []
            if batch:
                started, cpu = time.perf_counter(), time.thread_time()
                records = [record(row) for row, _ in batch]  # here, off the runner's workers
                with self.engine.begin() as conn:
                    self._insert(conn, records, [text for _, text in batch])
                for written in records:
                    run_id = written["run_id"]
                    if run_id not in self._tallies:
                        self._tallies[run_id] = RowTally()
                    self._tallies[run_id].add(written["row"], written["row_key"])
                self.busy += time.perf_counter() - started
                self.busy_cpu += time.thread_time() - cpu

    def _insert(
        self, conn: Connection, records: list[dict[str, Any]], texts: Sequence[str | None]
    ) -> None:
        """Insert rows: on PostgreSQL by COPY, on SQLite straight through the driver, with
        each row's JSON as the run folder holds it (else encoded once by orjson); elsewhere
        through SQLAlchemy. SQLAlchemy's per-row bind processing doubled the writer's time,
        and COPY takes a third of the CPU of a many-row INSERT."""
        backend = self.engine.dialect.name
        statement = driver_insert(backend, self.engine.dialect.paramstyle)
        if statement is None:
            conn.execute(insert(rows_table), records)
            return
        values = [row_values(r, text) for r, text in zip(records, texts, strict=True)]
        if backend == "postgresql" and self.engine.dialect.driver == "psycopg":
            copy_rows(conn, values)
            return
        sql, named = statement
        params: list[Any] = (
            [dict(zip(ROW_COLUMNS, v, strict=True)) for v in values] if named else values
        )
        conn.exec_driver_sql(sql, params)

    def tally(self, run_id: str) -> RowTally | None:
        """What this process has written of a run, summed up (None: nothing)."""
        with self._flushing:
            return self._tallies.get(run_id)

    def stop_writer(self) -> None:
        """Stop the background writer and write what it had not."""
        self._stopping.set()
        self._wake.set()
        if self._writer is not None:
            self._writer.join()
            self._writer = None
        self._stopping.clear()
        self.flush()

    def sync(self, meta: dict[str, Any], rows: Sequence[dict[str, Any]]) -> int:
        """Make the store hold the run's metadata and every row of its folder; returns how many
        rows were missing."""
        self.stop_writer()
        self.record_run(meta)
        with self.engine.connect() as conn:
            have = {
                (r.row_key, r.finished_at)
                for r in conn.execute(
                    select(rows_table.c.row_key, rows_table.c.finished_at).where(
                        rows_table.c.run_id == meta["run_id"]
                    )
                )
            }
        missing = [
            record(redact_row(r))
            for r in rows
            if (key_text(r), str(r.get("finished_at") or "")) not in have
        ]
        if missing:
            with self.engine.begin() as conn:
                conn.execute(insert(rows_table), missing)
        # a shard's folder holds its slice: the run's figures come from every stored row
        whole = self.rows_of([meta["run_id"]])[meta["run_id"]] if meta.get("shard") else rows
        self.record_run(meta, whole)
        return len(missing)

    # -- reading -------------------------------------------------------------------------

    def list_runs(self, limit: int = 20, suite: str | None = None) -> list[dict[str, Any]]:
        """The newest runs first (those with rows of `suite`, when given)."""
        query = select(runs).order_by(runs.c.created_at.desc(), runs.c.run_id.desc()).limit(limit)
        if suite is not None:
            having = select(rows_table.c.run_id).where(rows_table.c.suite == suite).distinct()
            query = query.where(runs.c.run_id.in_(having))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def get_run(self, run_id: str) -> dict[str, Any] | None:
        """A run's columns, or None."""
        with self.engine.connect() as conn:
            found = conn.execute(select(runs).where(runs.c.run_id == run_id)).first()
        return dict(found._mapping) if found is not None else None

    def rows_of(self, run_ids: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
        """Run id -> its latest row per key, in the order first written."""
        wanted = list(run_ids)
        out: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {r: {} for r in wanted}
        query = select(rows_table.c.run_id, rows_table.c.row).where(rows_table.c.run_id.in_(wanted))
        with self.engine.connect() as conn:
            for found in conn.execute(query.order_by(rows_table.c.id)):
                out[found.run_id][row_key(found.row)] = found.row
        return {r: list(keyed.values()) for r, keyed in out.items()}

    def count_rows(self, run_id: str) -> int:
        """Rows stored for a run (every version of a retried case)."""
        with self.engine.connect() as conn:
            query = select(func.count()).select_from(rows_table)
            return int(conn.execute(query.where(rows_table.c.run_id == run_id)).scalar_one())

    def close(self) -> None:
        """Write what is buffered and release connections."""
        self.stop_writer()
        self.engine.dispose()


def _relax_commits(engine: Engine) -> None:
    """Commits that do not wait for the disk: the run folder is the durable copy (fsynced as
    rows are written), and `sync` at the end of a run, or `converse runs push`, restores any
    row a crash of the database machine took. On SQLite: WAL with synchronous=NORMAL (concurrent
    writers, no fsync per commit); on PostgreSQL: synchronous_commit off for the store's own
    sessions. Waiting for an fsync per batch of rows was most of the store's time."""
    backend = engine.dialect.name
    if backend not in ("sqlite", "postgresql"):
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            if backend == "sqlite":
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA busy_timeout=30000")
            else:
                cursor.execute("SET synchronous_commit TO OFF")
        finally:
            cursor.close()
        if backend == "postgresql":
            dbapi_connection.commit()  # psycopg opened a transaction for the SET


def _with_shard(
    meta: dict[str, Any], earlier: dict[str, Any] | None, shard: dict[str, int] | None
) -> dict[str, Any]:
    shards = list((earlier or {}).get("shards", []))
    if shard is not None and shard not in shards:
        shards.append(shard)
    meta.pop("shard", None)
    if shards:
        meta["shards"] = sorted(shards, key=lambda s: (s["n"], s["k"]))
    return meta


def _exists(exc: SQLAlchemyError) -> bool:
    text = str(exc).lower()
    return "already exists" in text or "duplicate" in text or "unique" in text


def _unavailable(url: str, exc: SQLAlchemyError) -> RunError:
    reason = redact(str(getattr(exc, "orig", None) or exc).strip().splitlines()[0])
    if "timeout" in reason.lower() and parse(url).get_backend_name() == "postgresql":
        reason += (
            f" (gave up after {db_settings().connect_timeout_s} s, "
            "CONVERSE_DB_CONNECT_TIMEOUT_S, as the memory database does)"
        )
    return RunError(
        f"cannot open the run store {shown(url)}: {reason}",
        "check CONVERSE_RUNS_URL (or set it to none to record runs only in their folders)",
    )
