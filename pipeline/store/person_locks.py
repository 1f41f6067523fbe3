"""Per-person locks that hold across processes: a turn of one person runs load -> decide ->
apply while no other turn of that person runs, in this process or any other
(docs/reliability.md, "A turn is stored whole or not at all").

On PostgreSQL an advisory lock does it. SQLite has no lock short of its single write lock,
which would hold every other person's turn through this one's model calls, so an exclusive
`flock` on a file per person, in a folder beside the database, does it instead. `flock`
belongs to the open file, not the process: two stores opened in one process exclude each
other like two processes do, and the lock goes when the process dies (killed or not).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: this process's thread lock only
    fcntl = None  # type: ignore[assignment]


def lock_folder(database: str) -> Path:
    """Where a SQLite database's person locks live: `.<file name>.locks`, beside it (hidden,
    and not matched by `<file name>*`, which names the database and its -wal and -shm)."""
    path = Path(database)
    return path.with_name(f".{path.name}.locks")


@contextmanager
def sqlite_person_lock(database: str | None, person_id: int) -> Iterator[None]:
    """Hold person_id's lock file for the block (waits while another process holds it).

    An in-memory database has no other process. A folder that cannot be written (a read-only
    database) takes no lock: such a store cannot store a turn either, and says so when it tries.
    """
    if fcntl is None or database in (None, "", ":memory:"):
        yield
        return
    folder = lock_folder(database)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(folder / f"person-{person_id}", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock
