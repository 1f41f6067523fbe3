"""`converse bench cli`: how long a fresh `converse` process takes, as a person meets it.

Each command is run in `runs` fresh interpreters (after one unmeasured run that warms the file
cache), and the median wall time taken: `converse --help`, every command's own `--help`,
`converse memory list` for a person with 100 committed facts in a temporary SQLite database,
and one `converse chat -m` turn on the local provider (model load included). `python -c pass`
is measured in the same run, so the figures can be read against the interpreter's own start.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pipeline.config import PROJECT_ROOT
from pipeline.errors import ConverseError

# What the console script does: import the app and call it.
_CONVERSE = "import sys; from evals.cli import main; sys.argv[0] = 'converse'; main()"
PERSON = "bench"
FACTS = 100
# Each figure and the `converse` arguments it times (none: the bare interpreter).
COMMANDS: dict[str, list[str]] = {
    "python_ms": [],
    "help_ms": ["--help"],
    "list_ms": ["memory", "list", "--person", PERSON],
    "chat_turn_ms": ["chat", "--person", PERSON, "-m", "I prefer working in the mornings"],
}


def _seed(db_url: str) -> None:
    from evals.bench.turn import seed_memory
    from pipeline.store import create_person, open_store

    store = open_store(db_url)
    with store.write() as session:
        person = create_person(session, PERSON)
    assert person.personal_engagement_id is not None
    seed_memory(store, person.personal_engagement_id, FACTS)
    store.dispose()


def _median_ms(argv: list[str], env: dict[str, str], runs: int, label: str) -> float:
    timings = []
    for i in range(runs + 1):
        started = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        elapsed = (time.perf_counter() - started) * 1000
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise ConverseError(
                f"`{label}` exited {done.returncode}: {last}",
                "run that command by hand to see why",
            )
        if i > 0:  # the first run only warms the file cache
            timings.append(elapsed)
    return statistics.median(timings)


def _command_names() -> list[str]:
    from evals.cli import HARNESS_COMMANDS
    from pipeline.cli import COMMANDS

    return [*COMMANDS, *HARNESS_COMMANDS]


def run(runs: int = 5) -> dict[str, Any]:
    """Measure; figures keyed as the issue names them. `subcommand_help_ms` is the slowest
    command's `--help` (each command's median in `subcommand_helps_ms`)."""
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'cli.db'}"
        _seed(db_url)
        # the timed child's environment, not a setting read here
        env = {
            **os.environ,
            "CONVERSE_DB_URL": db_url,
            "CONVERSE_PROVIDER": "local",
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(PROJECT_ROOT), os.environ.get("PYTHONPATH")) if p
            ),
            "COLUMNS": "120",
        }
        env.pop("ANTHROPIC_API_KEY", None)
        converse = [python, "-c", _CONVERSE]
        figures = {
            name: _median_ms(
                [python, "-c", "pass"] if name == "python_ms" else [*converse, *args],
                env,
                runs,
                " ".join(["converse", *args]) if args else "python -c pass",
            )
            for name, args in COMMANDS.items()
        }
        helps = {
            name: _median_ms([*converse, name, "--help"], env, runs, f"converse {name} --help")
            for name in _command_names()
        }
    slowest = max(helps, key=lambda name: helps[name])
    return {
        "help_ms": round(figures["help_ms"], 1),
        "subcommand_help_ms": round(helps[slowest], 1),
        "slowest_subcommand": slowest,
        "subcommand_help_median_ms": round(statistics.median(helps.values()), 1),
        "list_ms": round(figures["list_ms"], 1),
        "chat_turn_ms": round(figures["chat_turn_ms"], 1),
        "python_ms": round(figures["python_ms"], 1),
        "n": runs,
        "facts": FACTS,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "subcommand_helps_ms": {name: round(ms, 1) for name, ms in helps.items()},
    }
