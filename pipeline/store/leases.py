"""Who holds an inbox message: a lessee token per turn queue, and whether its holder still lives.

A message is leased to the queue that received it, so that the process a person sent it
through answers it, and another process on the same person's inbox leaves it alone. A lease
stops counting when its holder is gone: at once when the holder was a process on this machine
that has ended (or a queue of this process that was closed), else when its time runs out (a
holder on another machine, sharing a PostgreSQL database).
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import timedelta
from pathlib import Path

# A lease held by a process on another machine lapses after this long without renewal; the
# queue renews its leases each time it looks at the inbox.
LEASE_TIME = timedelta(minutes=10)
_HOST = socket.gethostname()
# Tokens of the queues of this process that are open.
_OPEN: set[str] = set()


def new_lessee() -> str:
    """A token for one queue: this machine, this process, and a queue of its own."""
    token = f"{_HOST}:{os.getpid()}:{uuid.uuid4().hex}"
    _OPEN.add(token)
    return token


def closed(lessee: str) -> None:
    """The queue holding `lessee` is closed: its leases no longer count in this process."""
    _OPEN.discard(lessee)


def holder_alive(lessee: str) -> bool | None:
    """Whether the lease's holder still runs: True or False when this machine can tell, None
    for a holder on another machine (its lease then lasts until its time runs out)."""
    parts = lessee.rsplit(":", 2)
    if len(parts) != 3:
        return False  # not a token this code wrote: nobody holds it
    host, pid_text, _token = parts
    if host != _HOST or not pid_text.isdigit():
        return None
    pid = int(pid_text)
    if pid == os.getpid():
        return lessee in _OPEN
    return _process_runs(pid)


def _process_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: it exists
    # A killed process its parent has not waited for yet is a zombie: it runs no more.
    stat = Path(f"/proc/{pid}/stat")
    try:
        state = stat.read_text(encoding="ascii").rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")
