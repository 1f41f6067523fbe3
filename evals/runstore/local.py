"""A stored run brought into the local reports folder, so `converse report` (and `--compare`)
work on a run recorded from another machine."""

from __future__ import annotations

import json
from pathlib import Path

from evals.runner.results import RUN_META, RunDir
from evals.runstore.store import RunStore, runs_url


def ensure_local(run_id: str, root: Path | None = None) -> bool:
    """Write the run's folder from the run store when it is not here; True when written.
    Nothing happens when the folder exists, the store is off, or it does not hold the run."""
    run = RunDir(run_id, root)
    if (run.path / RUN_META).is_file():
        return False
    url = runs_url()
    if url is None:
        return False
    store = RunStore(url)
    try:
        stored = store.get_run(run_id)
        if stored is None:
            return False
        rows = store.rows_of([run_id])[run_id]
    finally:
        store.close()
    run.path.mkdir(parents=True, exist_ok=True)
    with run.results_path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    run.write_meta(dict(stored["meta"]) | {"from_run_store": True})
    return True
