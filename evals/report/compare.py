"""A run against a baseline: case-by-case regressions and fixes, and paired tests.

Each case collapses to one verdict per run (pass when most of its scored epochs passed); cases
that errored in either run are left out of the pairing and counted apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from evals.report.document import Section, Table, Text
from evals.report.tables import pct
from evals.stats import mcnemar_exact, wilcoxon

KEY = ["suite", "provider", "case_id"]
ALPHA = 0.05


def _per_case(df: pd.DataFrame) -> pd.DataFrame:
    scored = df[~df["errored"]]
    cases = scored.groupby([*KEY, "variant"], sort=True).agg(
        rate=("passed", "mean"),
        latency=("latency_ms", "median"),
        tokens=("input_tokens", "mean"),
        out_tokens=("output_tokens", "mean"),
        label=("provider_label", "first"),
        prompt=("prompt", "first"),
        expected=("expected_text", "first"),
        got=("got_text", "last"),
        why=("why", "last"),
        tags=("tags", "first"),
    )
    cases["passed"] = cases["rate"] > 0.5
    cases["tokens"] = cases["tokens"] + cases["out_tokens"]
    return cases.reset_index()


def _pair_variants(
    current: pd.DataFrame, baseline: pd.DataFrame
) -> list[tuple[str, str, str, str]]:
    """(suite, provider, current variant, baseline variant): same variant, else the only one."""
    pairs = []
    base_variants = baseline.groupby(["suite", "provider"])["variant"].unique()
    for (suite, provider), variants in (
        current.groupby(["suite", "provider"])["variant"].unique().items()
    ):
        if (suite, provider) not in base_variants.index:
            continue
        have = list(base_variants.loc[(suite, provider)])
        for variant in variants:
            if variant in have:
                pairs.append((suite, provider, variant, variant))
            elif len(have) == 1:
                pairs.append((suite, provider, variant, have[0]))
    return pairs


def _wilcoxon(a: pd.Series, b: pd.Series) -> float | None:
    diffs = (a.to_numpy() - b.to_numpy()).astype(float)
    if len(diffs) < 6 or not diffs.any():
        return None if len(diffs) < 6 else 1.0
    p = wilcoxon(a.to_numpy(dtype=float).tolist(), b.to_numpy(dtype=float).tolist())
    return None if math.isnan(p) else p


def _p(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def _arrow(before: float, after: float, digits: int = 2) -> str:
    return f"{before:.{digits}f} → {after:.{digits}f}"


def _verdict(p: float | None, delta: float) -> str:
    if p is None:
        return "too few pairs"
    if p < ALPHA:
        return "better, more than noise" if delta > 0 else "worse, more than noise"
    return "within noise"


@dataclass(frozen=True)
class Comparison:
    """A run against a baseline: per suite × provider, per tag, and case by case."""

    baseline_id: str
    changes: pd.DataFrame
    metrics: pd.DataFrame
    per_tag: pd.DataFrame
    regressions: pd.DataFrame
    fixes: pd.DataFrame


def _tag_changes(joined: pd.DataFrame, suite: str, label: str) -> list[dict[str, object]]:
    """Per tag: accuracy on the shared cases before and after, only where a case changed."""
    records: list[dict[str, object]] = []
    tagged = joined.explode("tags").dropna(subset=["tags"])
    for tag, group in tagged.groupby("tags", sort=True):
        worse = int((group["passed_base"] & ~group["passed"]).sum())
        better = int((~group["passed_base"] & group["passed"]).sum())
        if not worse and not better:
            continue
        before, after = float(group["passed_base"].mean()), float(group["passed"].mean())
        records.append(
            {
                "Suite": suite,
                "Provider": label,
                "Tag": tag,
                "Shared cases": len(group),
                "Baseline": pct(before),
                "This run": pct(after),
                "Change": f"{after - before:+.1%}",
                "Regressions": worse,
                "Fixes": better,
                "_delta": after - before,
            }
        )
    return records


def compare(current: pd.DataFrame, baseline: pd.DataFrame, baseline_id: str) -> Comparison:
    """Compare `current` with `baseline` (both from report.frame.frame)."""
    cur, base = _per_case(current), _per_case(baseline)
    changes: list[dict[str, object]] = []
    metrics: list[dict[str, object]] = []
    tags: list[dict[str, object]] = []
    regressions: list[dict[str, object]] = []
    fixes: list[dict[str, object]] = []
    for suite, provider, cv, bv in _pair_variants(cur, base):
        a = cur[(cur.suite == suite) & (cur.provider == provider) & (cur.variant == cv)]
        b = base[(base.suite == suite) & (base.provider == provider) & (base.variant == bv)]
        joined = a.merge(b, on=KEY, suffixes=("", "_base"))
        if joined.empty:
            continue
        worse = joined[joined["passed_base"] & ~joined["passed"]]
        better = joined[~joined["passed_base"] & joined["passed"]]
        p = mcnemar_exact(len(worse), len(better))
        acc_now, acc_base = joined["passed"].mean(), joined["passed_base"].mean()
        delta = float(acc_now - acc_base)
        label = joined["label"].iloc[0]
        before, after = joined["prompt_base"].iloc[0], joined["prompt"].iloc[0]
        prompt = after if before == after else f"{before} → {after}"
        changes.append(
            {
                "Suite": suite,
                "Provider": label,
                "Prompt": prompt,
                "Shared cases": len(joined),
                "Baseline": pct(float(acc_base)),
                "This run": pct(float(acc_now)),
                "Change": f"{delta:+.1%}",
                "Regressions": len(worse),
                "Fixes": len(better),
                "McNemar exact p": _p(p) if len(worse) + len(better) else "—",
                "Verdict": _verdict(p, delta)
                if len(worse) + len(better)
                else "no discordant cases",
            }
        )
        tags += _tag_changes(joined, suite, label)
        lat_p = _wilcoxon(joined["latency"], joined["latency_base"])
        tok_p = _wilcoxon(joined["tokens"], joined["tokens_base"])
        metrics.append(
            {
                "Suite": suite,
                "Provider": label,
                "Prompt": prompt,
                "Median latency ms": _arrow(
                    joined["latency_base"].median(), joined["latency"].median()
                ),
                "Latency Wilcoxon p": _p(lat_p),
                "Mean tokens": _arrow(joined["tokens_base"].mean(), joined["tokens"].mean(), 1),
                "Tokens Wilcoxon p": _p(tok_p),
            }
        )
        for frame, bucket in ((worse, regressions), (better, fixes)):
            for row in frame.itertuples(index=False):
                bucket.append(
                    {
                        "Suite": suite,
                        "Provider": label,
                        "Case": row.case_id,
                        "Expected": row.expected,
                        "Baseline got": row.got_base,
                        "This run got": row.got,
                        "Why": row.why if bucket is regressions else row.why_base,
                    }
                )
    per_tag = pd.DataFrame.from_records(tags)
    if not per_tag.empty:
        per_tag = per_tag.sort_values(["_delta", "Suite", "Tag"], kind="stable")
        per_tag = per_tag.drop(columns=["_delta"]).reset_index(drop=True)
    return Comparison(
        baseline_id,
        pd.DataFrame.from_records(changes),
        pd.DataFrame.from_records(metrics),
        per_tag,
        pd.DataFrame.from_records(regressions),
        pd.DataFrame.from_records(fixes),
    )


_SHORT = ("Provider", "Prompt")


def compare_sections(comparison: Comparison, *, remembered: bool = False) -> list[Section]:
    """The comparison as report sections: per suite, per tag, regressions and fixes."""
    how = (
        " (remembered from an earlier `converse report RUN --compare OTHER`; "
        "`--no-compare` drops it)"
        if remembered
        else ""
    )
    intro = Text(
        f"Compared with baseline run `{comparison.baseline_id}`{how} on the cases both runs "
        "scored. Each case is one verdict per run (the majority of its epochs); cases that "
        f"errored in either run are left out. McNemar's exact test on the discordant cases: "
        f"p < {ALPHA} is more than noise. Latency and tokens: Wilcoxon signed-rank test on the "
        "paired cases."
    )
    tag_note = Text(
        "Tags where at least one shared case changed verdict, largest drop first; every other "
        "tag has the same verdicts in both runs."
    )
    return [
        Section("Comparison with the baseline", [intro, Table(comparison.changes, short=_SHORT)]),
        Section(
            "Per tag against the baseline",
            [tag_note, Table(comparison.per_tag, short=_SHORT)],
            3,
        ),
        Section(
            "Latency and tokens against the baseline",
            [Table(comparison.metrics, short=_SHORT)],
            3,
        ),
        Section(
            "Regressions (passed in the baseline, fail now)",
            [Table(comparison.regressions, short=_SHORT)],
            3,
        ),
        Section(
            "Fixes (failed in the baseline, pass now)",
            [Table(comparison.fixes, short=_SHORT)],
            3,
        ),
    ]
