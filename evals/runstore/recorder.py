"""Feeding a run into the run store while it runs, without ever stopping the run.

The run folder is written first and stays the local copy; the store gets each row as the
runner finishes it (buffered), the run's metadata when its first row arrives and again at the
end, and at the end every row of the folder it does not hold yet. When every row of the folder
came through this recorder (a run started and finished in this process, the store never
failing), the folder's rows are only counted, not read back: the store holds them all, and the
run's summary columns come from a small tally kept as the rows went by. A store that fails is named
in one warning and left alone for the rest of the run; the next `--resume`, or
`converse runs push RUN`, brings it up to date.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from pathlib import Path
from typing import Any

from evals.runner.results import RunDir, RunError
from evals.runstore.store import RunStore, runs_url
from pipeline.redact import redact


class RunRecorder:
    """The store side of one `converse eval`."""

    def __init__(self, store: RunStore, root: Path | None = None) -> None:
        self.store = store
        self.root = root
        self.failed: str | None = None
        self._started: set[str] = set()
        self._lock = threading.Lock()

    def on_row(self, row: dict[str, Any], text: str | None = None) -> None:
        """The runner's callback: one finished row (already in the run folder) and, when
        given, its JSON text as the folder holds it."""
        if self.failed:
            return
        try:
            run_id = str(row["run_id"])
            if run_id not in self._started:
                with self._lock:
                    if run_id not in self._started:
                        self.store.record_run(RunDir(run_id, self.root).read_meta())
                        self._started.add(run_id)
            if self.store.error:
                raise RuntimeError(self.store.error)
            self.store.add_row(row, text)
        except Exception as exc:  # the run folder has the row; the store can catch up later
            self._fail(exc)

    def finish(self, run_id: str) -> None:
        """Bring the store level with the run folder, and close it."""
        try:
            if not self.failed:
                run = RunDir(run_id, self.root)
                try:
                    meta = run.read_meta()
                except RunError:  # no run, or an unreadable one: the command says so itself
                    return
                if not self._finish_from_tally(run, meta):
                    self.store.sync(meta, run.latest_rows())
        except Exception as exc:
            self._fail(exc)
        finally:
            with contextlib.suppress(Exception):  # closing must not mask the run's outcome
                self.store.close()

    def _finish_from_tally(self, run: RunDir, meta: dict[str, Any]) -> bool:
        """Level the store without reading the folder's rows, when every one of them came
        through this recorder; False when the full comparison is needed."""
        run_id = run.run_id
        if run_id not in self._started or meta.get("shard") or self.store.error:
            return False  # a shard's summary needs every shard's stored rows
        self.store.stop_writer()
        tally = self.store.tally(run_id)
        if self.store.error or tally is None or _lines(run.results_path) != tally.rows_seen:
            return False
        self.store.record_run(meta, tally=tally)
        return True

    def _fail(self, exc: Exception) -> None:
        if self.failed is None:
            self.failed = redact(f"{type(exc).__name__}: {exc}".splitlines()[0])
            print(
                f"warning: the run store stopped receiving this run ({self.failed}); the run "
                "folder has every row — `converse runs push RUN` copies it later",
                file=sys.stderr,
            )


def _lines(path: Path) -> int:
    """Complete rows in a results file, counted without parsing them."""
    if not path.is_file():
        return 0
    count = 0
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            count += block.count(b"\n")
    return count


def open_recorder(root: Path | None = None) -> RunRecorder | None:
    """A recorder for CONVERSE_RUNS_URL, or None when recording is off."""
    url = runs_url()
    if url is None:
        return None
    return RunRecorder(RunStore(url), root)
