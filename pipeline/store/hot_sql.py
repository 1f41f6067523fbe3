"""The turn's hot statements, run on the driver's cursor.

The SQL is SQLAlchemy's: a Core statement, compiled once per dialect, with the bind and result
processors of its types. What is skipped is SQLAlchemy's per-execution work (cache keys,
parameter construction, execution context, result objects): on SQLite it cost five to ten
times the statement itself, and every turn runs eleven statements (docs/benchmarks.md,
"Per-turn overhead").

A Session's pending changes are flushed first, as its own execute would, and its transaction
is the statement's. A driver error is raised as SQLAlchemy's DBAPIError subclass, as any other
statement's, so callers translate it the same way. Statements that SQLAlchemy completes at
execution (expanding IN lists, Python-side column defaults) are refused when compiled.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

Processor = Callable[[Any], Any] | None


@dataclass
class _Compiled:
    """A statement as one dialect runs it."""

    sql: str
    order: tuple[str, ...] | None  # positional parameter names in order; None: named
    values: dict[str, Any]  # values the statement binds itself (literals in its WHERE)
    binds: dict[str, Processor]
    converted: list[tuple[str, Callable[[Any], Any]]]  # the parameters with a bind processor
    row: Callable[..., Any]  # a named tuple of the returned columns
    types: list[Any]  # each returned column's type as the dialect implements it
    # (column, processor) of the returned columns that have one; set from the first cursor
    results: list[tuple[int, Callable[[Any], Any]]] | None = field(default=None)


class HotStatement:
    """A Core statement run on the driver's cursor of the caller's connection."""

    def __init__(self, statement: ClauseElement, column_keys: Iterable[str] | None = None) -> None:
        """`column_keys`: for an INSERT or UPDATE without its own values, the columns every
        execution gives."""
        self.statement = statement
        self._keys = list(column_keys) if column_keys is not None else None
        self._compiled: dict[str, _Compiled] = {}

    def rows(self, conn: Session | Connection, params: Mapping[str, Any]) -> list[Any]:
        """The rows it returns, each with the columns by position and by name."""
        compiled, connection = self._ready(conn)
        make = compiled.row
        return [make(*row) for row in self._run(compiled, connection, [params], fetch=True)]

    def tuples(self, conn: Session | Connection, params: Mapping[str, Any]) -> list[Any]:
        """The rows as plain tuples (the cheapest, for a read of many rows)."""
        compiled, connection = self._ready(conn)
        return self._run(compiled, connection, [params], fetch=True)

    def execute(self, conn: Session | Connection, params: Sequence[Mapping[str, Any]]) -> None:
        """Run once for each set of parameters (one executemany), returning nothing."""
        if params:
            compiled, connection = self._ready(conn)
            self._run(compiled, connection, params, fetch=False)

    def _ready(self, conn: Session | Connection) -> tuple[_Compiled, Connection]:
        if isinstance(conn, Session):
            conn.flush()
            conn = conn.connection()
        compiled = self._compiled.get(conn.dialect.name) or self._compile(conn.dialect)
        return compiled, conn

    def _run(
        self,
        compiled: _Compiled,
        conn: Connection,
        params: Sequence[Mapping[str, Any]],
        fetch: bool,
    ) -> list[Any]:
        args = [_arguments(compiled, p) for p in params]
        driver = conn.connection.driver_connection
        assert driver is not None
        dbapi = conn.dialect.loaded_dbapi
        try:
            cursor = driver.cursor()
            try:
                if len(args) == 1:
                    cursor.execute(compiled.sql, args[0])
                else:
                    cursor.executemany(compiled.sql, args)
                if not fetch:
                    return []
                fetched: list[tuple[Any, ...]] = cursor.fetchall()
                if compiled.results is None:
                    compiled.results = _result_processors(compiled, conn.dialect, cursor)
            finally:
                cursor.close()
        except dbapi.Error as exc:
            raise DBAPIError.instance(compiled.sql, args, exc, dbapi.Error) from exc
        if not compiled.results:
            return fetched
        # only the columns that have a processor (times and JSON on SQLite) are touched
        processed = []
        for row in fetched:
            cells = list(row)
            for index, processor in compiled.results:
                if cells[index] is not None:
                    cells[index] = processor(cells[index])
            processed.append(tuple(cells))
        return processed

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self.statement.compile(dialect=dialect, column_keys=self._keys)
        assert isinstance(compiled, SQLCompiler)
        if compiled.post_compile_params or compiled.escaped_bind_names:
            raise ValueError("a hot statement needs plain bound parameters")
        if compiled.insert_prefetch or compiled.update_prefetch:
            raise ValueError("a hot statement cannot fill Python-side column defaults")
        binds: dict[str, Processor] = {
            name: bind.type.dialect_impl(dialect).bind_processor(dialect)
            for bind, name in compiled.bind_names.items()
        }
        values = {
            name: bind.value
            for bind, name in compiled.bind_names.items()
            if not bind.required and bind.callable is None
        }
        # a select's columns, or what an INSERT / UPDATE … RETURNING returns
        columns = list(getattr(self.statement, "exported_columns", ()))
        made = _Compiled(
            sql=compiled.string,
            order=tuple(compiled.positiontup) if compiled.positiontup is not None else None,
            values=values,
            binds=binds,
            converted=[(name, p) for name, p in binds.items() if p is not None],
            row=_row_type([c.key for c in columns]),
            types=[c.type.dialect_impl(dialect) for c in columns],
        )
        self._compiled[dialect.name] = made
        return made


def _arguments(compiled: _Compiled, params: Mapping[str, Any]) -> Any:
    values = {**compiled.values, **params}
    for name, processor in compiled.converted:
        value = values[name]
        if value is not None:
            values[name] = processor(value)
    if compiled.order is not None:
        return tuple([values[name] for name in compiled.order])
    return {name: values[name] for name in compiled.binds}


def _row_type(keys: list[str]) -> Callable[..., Any]:
    return namedtuple("Row", keys, rename=True)


def _result_processors(
    compiled: _Compiled, dialect: Dialect, cursor: Any
) -> list[tuple[int, Callable[[Any], Any]]]:
    # the driver's type codes, as SQLAlchemy passes them (PostgreSQL's numerics need them)
    codes = [d[1] for d in cursor.description or ()] or [None] * len(compiled.types)
    found = [t.result_processor(dialect, c) for t, c in zip(compiled.types, codes, strict=True)]
    return [(index, p) for index, p in enumerate(found) if p is not None]
