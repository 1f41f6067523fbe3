"""`converse report RUN_ID --release VERSION`: the committed release report."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from evals.prompt_refs import prompt_refs
from evals.report import tables
from evals.report.build import LABEL_NOTE, load_run, models_of
from evals.report.document import Section, Table, Text, render_markdown
from evals.report.reviews import current_reviewer
from evals.runner.results import RunError, reports_dir
from evals.runner.summary import GroupResult
from evals.settings import eval_settings
from pipeline.config import PROJECT_ROOT
from pipeline.errors import InvalidMessage
from pipeline.text import check_text

# An override's reason heads the release report: a sentence or a paragraph, not a document.
MAX_REASON = 2_000


def templates_used(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """family, version, sha256 and the number of rows of each template the rows name."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for row in rows:
        for ref in prompt_refs(row):
            counts[(ref["family"], ref["version"], ref["sha256"])] += 1
    found = [
        {"family": f, "version": v, "sha256": h, "rows": n}
        for (f, v, h), n in sorted(counts.items())
    ]
    return pd.DataFrame(found, columns=["family", "version", "sha256", "rows"])


@dataclass
class Blockers:
    """What stands between a run and its release report."""

    unreviewed: list[tuple[str, str, str]] = field(default_factory=list)
    failed_gates: list[str] = field(default_factory=list)
    dirty: bool = False
    untracked_prompts: list[str] = field(default_factory=list)
    stale_cassettes: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def none(self) -> bool:
        """Nothing blocks."""
        return not self.lines()

    def lines(self) -> list[str]:
        """Each kind of blocker in a line."""
        out = []
        if self.unreviewed:
            suite, case, provider = self.unreviewed[0]
            out.append(
                f"{len(self.unreviewed)} failing case(s) have no reviewer verdict "
                f"(first: {suite}/{case} on {provider})"
            )
        out += [f"gate failed: {g}" for g in self.failed_gates]
        if self.dirty:
            out.append("the run was made from a tree with uncommitted changes (dirty)")
        if self.untracked_prompts:
            out.append("untracked prompt file(s): " + ", ".join(self.untracked_prompts))
        out += [f"stale cassette {name}: {'; '.join(why)}" for name, why in self.stale_cassettes]
        return out


def _cassette_path(name: str) -> Path:
    path = Path(name)
    return path if path.is_absolute() else PROJECT_ROOT / path


def _stale(df: pd.DataFrame) -> list[tuple[str, list[str]]]:
    """Cassettes the rows name whose prompts changed since they were recorded (checked now)."""
    used = sorted({str(c) for c in df["cassette"] if c})
    if not used:
        return []
    from evals.cassettes.check import check_file
    from pipeline.prompting import default_library

    library = default_library()
    out: list[tuple[str, list[str]]] = []
    for name in used:
        path = _cassette_path(name)
        if not path.is_file():
            out.append((name, ["the file is gone"]))
            continue
        try:
            status = check_file(path, library)
        except (OSError, UnicodeDecodeError) as exc:
            out.append((name, [f"cannot be read ({exc.__class__.__name__})"]))
            continue
        if not status.ok:
            out.append((name, [*status.stale, *status.problems]))
    return out


def release_blockers(meta: dict[str, Any], df: pd.DataFrame, groups: list[GroupResult]) -> Blockers:
    """Failing cases without a verdict, failed gates, a dirty tree, untracked prompt files and
    stale cassettes: each refuses the release report unless it is overridden with a reason."""
    failed = df[df["status"] == "fail"]
    open_cases = failed[failed["review"] == ""]
    raw = meta.get("git")
    git: dict[str, Any] = raw if isinstance(raw, dict) else {}
    untracked = git.get("untracked_prompts")
    return Blockers(
        unreviewed=sorted(
            {(r.suite, r.case_id, r.provider) for r in open_cases.itertuples(index=False)}
        ),
        failed_gates=[f for g in groups for f in g.gate_failures],
        dirty=git.get("dirty") is True,
        untracked_prompts=[str(p) for p in untracked] if isinstance(untracked, list) else [],
        stale_cassettes=_stale(df),
    )


def check_override(reason: str | None) -> str | None:
    """The override's reason, stripped; a RunError when it is empty or not plain text."""
    if reason is None:
        return None
    reason = reason.strip()
    if not reason:
        raise RunError("--override needs a reason", 'pass --override "WHY THIS SHIPS ANYWAY"')
    if len(reason) > MAX_REASON:
        raise RunError(
            f"the override's reason is {len(reason):,} characters",
            f"keep it to {MAX_REASON:,}; link to a longer write-up",
        )
    try:
        check_text(reason, "the override's reason")
    except InvalidMessage as exc:
        raise RunError(exc.message, exc.hint) from None
    return reason


def _plain(text: str) -> str:
    """Typed text as literal Markdown: no markup, no HTML, one line."""
    text = " ".join(text.split()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|#])", r"\\\1", text)


def _override_section(blockers: Blockers, reason: str) -> Section:
    who = eval_settings().reviewer or current_reviewer()
    when = datetime.now(UTC).isoformat(timespec="seconds")
    listed = "\n".join(f"- {_plain(line)}" for line in blockers.lines())
    return Section(
        "Released over blockers",
        [
            Text(
                f"**This release was written although it was blocked**, by {who} at {when}, "
                f"with the reason: {_plain(reason)}"
            ),
            Text("What blocked it:\n\n" + listed),
        ],
    )


def write_release(
    run_id: str,
    version: str,
    *,
    root: Path | None = None,
    out_dir: Path | None = None,
    override: str | None = None,
) -> Path:
    """Write reports/releases/<VERSION>.md from a run nothing blocks (release_blockers).

    A release report is what a team signs off on, so a failure nobody has looked at, a failed
    gate, a dirty tree or an untracked prompt refuses it (a RunError naming each), unless
    `override` gives a reason, which then heads the report with what it overrode.
    """
    reason = check_override(override)
    run, meta, df, groups = load_run(run_id, root)
    blockers = release_blockers(meta, df, groups)
    if not blockers.none and reason is None:
        raise RunError(
            f"the release of run {run_id} is blocked: " + "; ".join(blockers.lines()),
            f"record each verdict with `converse review {run_id} SUITE/CASE --pass|--fail "
            "--note TEXT [--provider P]`, fix the rest and build it again, or pass --override "
            '"REASON" to write it anyway (the reason heads the release report)',
        )
    git = meta.get("git") or {}
    commit = (git.get("commit") or "unknown")[:12] + (" (dirty)" if git.get("dirty") else "")
    failing = [f for g in groups for f in g.gate_failures]
    head = [] if blockers.none or reason is None else [_override_section(blockers, reason)]
    sections = [
        *head,
        Section(
            "Provenance",
            [
                Text(
                    f"Built {datetime.now(UTC).date().isoformat()} from run `{run.run_id}` "
                    f"(started {meta.get('created_at', '?')}, commit `{commit}`); "
                    f"models: {models_of(df)}."
                ),
                Text(LABEL_NOTE),
            ],
        ),
        Section(
            "Gates",
            [Text("Every gate passed." if not failing else "Failed: " + "; ".join(failing) + ".")],
        ),
        Section(
            "Templates",
            [
                Text(
                    "Every prompt template the run's rows were produced with, by the sha256 of "
                    "its source: a template changed or added after the commit shows here."
                ),
                Table(templates_used(run.latest_rows())),
            ],
        ),
        Section("Results", [Table(tables.summary(groups))]),
        Section(
            "After review",
            [
                Text(
                    "A reviewer's verdict replaces the automatic one for the case it names "
                    "(errors stay errors)."
                ),
                Table(tables.reviewed_accuracy(df)),
            ],
        ),
        Section("Reviewer verdicts", [Table(tables.reviews(df))]),
        Section(
            "Failures not yet reviewed",
            [Text(f"{len(blockers.unreviewed)} failing case(s) have no reviewer verdict: a "
                  "release report is refused while any has none, unless overridden.")],
        ),
    ]  # fmt: skip
    target = (out_dir or reports_dir() / "releases") / f"{version}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        render_markdown(f"Release {version} — eval report", sections), encoding="utf-8"
    )
    return target
