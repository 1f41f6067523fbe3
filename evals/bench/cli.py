"""`converse bench cli`: how long a fresh `converse` process takes, as a person meets it.

Each command is run in `runs` fresh interpreters (after one unmeasured run that warms the file
cache and writes bytecode), and the median wall time taken: `converse --help`, the `--help` of
every group and command below it (every page a person can ask for), `converse memory list`
for a person with 100 committed facts in a temporary SQLite database, and one `converse chat
-m` turn on the local provider (model load included). `python -c pass` is measured in the same
run, so the figures can be read against the interpreter's own start. `--baseline TREE` times
every help page in another checkout too, the two taking turns run by run, so a change is
measured against what it changes under the same load.
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


def _timed_ms(argv: list[str], env: dict[str, str], label: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ConverseError(
            f"`{label}` exited {done.returncode}: {last}", "run that command by hand to see why"
        )
    return elapsed


def _median_ms(argv: list[str], envs: list[dict[str, str]], runs: int, label: str) -> list[float]:
    """The median of `runs` runs in each environment, the environments taking turns run by run
    (after one unmeasured round that warms the file cache and writes bytecode)."""
    timings: list[list[float]] = [[] for _ in envs]
    for i in range(runs + 1):
        for each, env in zip(timings, envs, strict=True):
            elapsed = _timed_ms(argv, env, label)
            if i > 0:
                each.append(elapsed)
    return [statistics.median(each) for each in timings]


def help_pages() -> list[str]:
    """Every help page of `converse` but the root: each group and command, as the words after
    `converse` (every command is imported to list them, in this process only)."""
    from typer.core import TyperGroup

    from evals.cli import HARNESS_COMMANDS
    from pipeline.cli import COMMANDS

    pages: list[str] = []
    stack = [(name, entry.load(name)) for name, entry in {**COMMANDS, **HARNESS_COMMANDS}.items()]
    while stack:
        page, command = stack.pop(0)
        pages.append(page)
        if isinstance(command, TyperGroup):
            for name, child in command.commands.items():
                if not child.hidden:
                    stack.append((f"{page} {name}", child))
    return pages


def _env(db_url: str, root: Path) -> dict[str, str]:
    """The timed child's environment (not a setting read here): this tree or a baseline's on
    the path; bytecode written, as an installed package has it."""
    env = {
        **os.environ,
        "CONVERSE_DB_URL": db_url,
        "CONVERSE_PROVIDER": "local",
        "PYTHONPATH": os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH")) if p),
        "COLUMNS": "120",
    }
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run(runs: int = 5, baseline: Path | None = None) -> dict[str, Any]:
    """Measure; figures keyed as the issue names them. `subcommand_help_ms` is the slowest
    page's `--help` but the root's (each page's median in `subcommand_helps_ms`). With a
    `baseline` tree, every help page is timed there too, run by run in turn with this one."""
    if baseline is not None and not (baseline / "evals" / "cli.py").is_file():
        raise ConverseError(
            f"{baseline} is not a converse-harness checkout", "name the folder holding evals/"
        )
    python = sys.executable
    # -P: the current folder is not put first on the path, so the tree named by PYTHONPATH is
    # the one timed, wherever the bench is started
    converse = [python, "-P", "-c", _CONVERSE]
    with tempfile.TemporaryDirectory() as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'cli.db'}"
        _seed(db_url)
        envs = [_env(db_url, PROJECT_ROOT)]
        if baseline is not None:
            envs.append(_env(db_url, baseline))
        figures = {
            name: _median_ms(
                [python, "-c", "pass"] if name == "python_ms" else [*converse, *args],
                envs[: 2 if name == "help_ms" else 1],
                runs,
                " ".join(["converse", *args]) if args else "python -c pass",
            )
            for name, args in COMMANDS.items()
        }
        helps = {
            page: _median_ms([*converse, *page.split(), "--help"], envs, runs, f"converse {page}")
            for page in help_pages()
        }
    return _figures(figures, helps, runs, baseline)


def _figures(
    figures: dict[str, list[float]],
    helps: dict[str, list[float]],
    runs: int,
    baseline: Path | None,
) -> dict[str, Any]:
    mine = {page: round(ms[0], 1) for page, ms in helps.items()}
    slowest = max(mine, key=lambda page: mine[page])
    found: dict[str, Any] = {
        "help_ms": round(figures["help_ms"][0], 1),
        "subcommand_help_ms": mine[slowest],
        "slowest_subcommand": slowest,
        "subcommand_help_median_ms": round(statistics.median(mine.values()), 1),
        "help_pages": len(mine) + 1,
        "list_ms": round(figures["list_ms"][0], 1),
        "chat_turn_ms": round(figures["chat_turn_ms"][0], 1),
        "python_ms": round(figures["python_ms"][0], 1),
        "n": runs,
        "facts": FACTS,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "subcommand_helps_ms": mine,
    }
    if baseline is not None:
        before = {page: round(ms[1], 1) for page, ms in helps.items()}
        worst = max(before, key=lambda page: before[page])
        found |= {
            "baseline": str(baseline),
            "baseline_help_ms": round(figures["help_ms"][1], 1),
            "baseline_subcommand_help_ms": before[worst],
            "baseline_slowest_subcommand": worst,
            "baseline_subcommand_help_median_ms": round(statistics.median(before.values()), 1),
            "baseline_subcommand_helps_ms": before,
        }
    return found
