"""The tables of a run report, each a DataFrame ready to show (provider labels in every one)."""

from __future__ import annotations

import pandas as pd

from evals.runner.summary import GroupResult
from evals.stats import wilson
from evals.targets import is_transcript
from pipeline.providers.claude import shown_cost

GROUP = ["suite", "provider_label", "prompt"]
GROUP_NAMES = {"suite": "Suite", "provider_label": "Provider", "prompt": "Prompt"}


def pct(value: float | None) -> str:
    """0.9412 -> "94.1%"; None -> "—"."""
    return "—" if value is None else f"{value:.1%}"


def interval(passed: int, n: int) -> str:
    """The 95% Wilson interval as text."""
    if n == 0:
        return "—"
    lo, hi = wilson(passed, n)
    return f"{lo:.1%} – {hi:.1%}"


def summary(groups: list[GroupResult]) -> pd.DataFrame:
    """Suite x provider x prompt: accuracy, interval, errors and gate."""
    records = []
    for g in groups:
        accuracy = g.gate.accuracy if g.gate is not None else None
        first_pass = g.gate.first_pass_rate if g.gate is not None else None
        if accuracy is not None:
            bound = f"≥ {accuracy:.0%}"
        elif first_pass is not None:
            bound = f"first pass ≥ {first_pass:.0%}"
        else:
            bound = "errors only"
        gate = (
            f"pass ({bound})"
            if g.gate_passed
            else "FAIL: " + "; ".join(f.split(": ", 1)[1] for f in g.gate_failures)
        )
        records.append(
            {
                "Suite": g.suite + (f" ({g.sample_label()})" if g.sample else ""),
                "Provider": g.label,
                "Model": g.model or "—",
                "Prompt": ", ".join(f"{k}={v}" for k, v in sorted(g.prompt.items())) or "-",
                "n": g.n,
                "Passed": g.passed,
                "Failed": g.scored - g.passed,
                "Errors": g.errors,
                "Critical failures": g.critical_failures,
                "Accuracy": pct(g.accuracy),
                "95% CI": interval(g.passed, g.scored),
                "Gate": gate,
            }
        )
    return pd.DataFrame.from_records(records)


def _accuracy_frame(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    scored = df[~df["errored"]]
    counts = scored.groupby(by, sort=True).agg(n=("passed", "size"), passed=("passed", "sum"))
    errors = df.groupby(by, sort=True)["errored"].sum().rename("errors")
    out = counts.join(errors, how="outer").fillna(0).reset_index()
    out["n"] = out["n"].astype(int)
    out["passed"] = out["passed"].astype(int)
    out["errors"] = out["errors"].astype(int)
    out["Accuracy"] = [
        pct(p / n if n else None) for p, n in zip(out["passed"], out["n"], strict=True)
    ]
    out["95% CI"] = [interval(p, n) for p, n in zip(out["passed"], out["n"], strict=True)]
    return out


def per_tag(df: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per tag within each suite x provider x prompt."""
    tagged = df.explode("tags").dropna(subset=["tags"])
    if tagged.empty:
        return pd.DataFrame()
    out = _accuracy_frame(tagged, [*GROUP, "tags"])
    out = out.rename(
        columns={
            **GROUP_NAMES,
            "tags": "Tag",
            "n": "Scored",
            "passed": "Passed",
            "errors": "Errors",
        }
    )
    return out[
        ["Suite", "Provider", "Prompt", "Tag", "Scored", "Passed", "Errors", "Accuracy", "95% CI"]
    ]


def agreement(df: pd.DataFrame) -> pd.DataFrame:
    """Across epochs: how often every epoch gave the same answer, and pass in all / any."""
    if df.empty or df["epoch"].max() == 0:
        return pd.DataFrame()
    records = []
    for key, group in df.groupby(GROUP, sort=True):
        per_case = group.groupby("case_id").agg(
            epochs=("epoch", "nunique"),
            answers=("answer", "nunique"),
            all_pass=("passed", "all"),
            any_pass=("passed", "any"),
        )
        scored = group[~group["errored"]].groupby("case_id")["passed"].agg(["sum", "size"])
        flaky = int(((scored["sum"] > 0) & (scored["sum"] < scored["size"])).sum())
        per_case = per_case[per_case["epochs"] > 1]
        if per_case.empty:
            continue
        n = len(per_case)
        records.append(
            {
                "Suite": key[0],
                "Provider": key[1],
                "Prompt": key[2],
                "Cases": n,
                "Epochs": int(per_case["epochs"].max()),
                "Same answer every epoch": pct(float((per_case["answers"] == 1).mean())),
                "Pass in every epoch": pct(float(per_case["all_pass"].mean())),
                "Pass in some epoch": pct(float(per_case["any_pass"].mean())),
                "Flaky cases": flaky,
            }
        )
    return pd.DataFrame.from_records(records)


def latency_tokens(df: pd.DataFrame) -> pd.DataFrame:
    """Latency (fresh answers only: cached ones took no time) and tokens per group."""
    records = []
    for key, group in df.groupby(GROUP, sort=True):
        fresh = group[~group["cached"]]
        lat = fresh["latency_ms"]
        records.append(
            {
                "Suite": key[0],
                "Provider": key[1],
                "Prompt": key[2],
                "Rows": len(group),
                "Cached": int(group["cached"].sum()),
                "Median ms": f"{lat.median():.2f}" if len(lat) else "—",
                "p95 ms": f"{lat.quantile(0.95):.2f}" if len(lat) else "—",
                "Input tokens": int(group["input_tokens"].sum()),
                "Output tokens": int(group["output_tokens"].sum()),
                "Cache read": int(group["cache_read_tokens"].sum()),
                "Cache write": int(group["cache_write_tokens"].sum()),
                "Cost (USD)": _cost(group["cost_usd"]),
                "Cut off": int(group["truncated"].sum()),
            }
        )
    return pd.DataFrame.from_records(records)


def _cost(costs: pd.Series) -> str:
    """The group's cost, "unpriced" when a row has no price (synthetic answers, local
    providers): never 0."""
    return shown_cost(None if costs.isna().any() else float(costs.sum()))


def _review_cell(row: pd.Series) -> str:
    if not row["review"]:
        return "not reviewed"
    earlier = f" (earlier: {row['review_history']})" if row["review_history"] else ""
    return f"{row['review']} by {row['reviewer']}: {row['review_note']}{earlier}"


def failures(df: pd.DataFrame) -> pd.DataFrame:
    """Failed cases: expected vs got, why, and any reviewer verdict (conversations apart)."""
    failed = df[(df["status"] == "fail") & ~df["target"].map(is_transcript).astype(bool)]
    if failed.empty:
        return pd.DataFrame()
    causes = {}
    if "failed_by" in failed and (failed["failed_by"] != "").any():
        causes = {"Failed on": failed.apply(failed_on, axis=1)}
    return pd.DataFrame(
        {
            "Suite": failed["suite"],
            "Provider": failed["provider_label"],
            "Prompt": failed["prompt"],
            "Case": failed["case_id"],
            "Epoch": failed["epoch"],
            "Input": failed["input_text"],
            "Expected": failed["expected_text"],
            "Got": failed["got_text"],
            "Why": failed["why"],
            **causes,
            "Reviewer": failed.apply(_review_cell, axis=1),
        }
    )


def failed_on(row: pd.Series) -> str:
    """Whether a failed case (a frame row) failed on its reading (and how) or its decision."""
    return failed_on_text(str(row.get("failed_by") or ""), str(row.get("reading_why") or ""))


def failed_on_text(cause: str, why: str) -> str:
    """ "reading: what it got wrong", "decision", or "unknown"."""
    cause = cause or "unknown"
    return f"{cause}: {why}" if cause == "reading" and why else cause


def errors(df: pd.DataFrame) -> pd.DataFrame:
    """Errored cases (not counted as wrong answers)."""
    errored = df[df["errored"]]
    if errored.empty:
        return pd.DataFrame()
    return pd.DataFrame(
        {
            "Suite": errored["suite"],
            "Provider": errored["provider_label"],
            "Prompt": errored["prompt"],
            "Case": errored["case_id"],
            "Epoch": errored["epoch"],
            "Error": errored["error"],
        }
    )


def reviews(df: pd.DataFrame) -> pd.DataFrame:
    """Every reviewed case: the automatic verdict next to the reviewer's."""
    reviewed = df[df["review"] != ""]
    if reviewed.empty:
        return pd.DataFrame()
    records = []
    for (suite, provider, case), group in reviewed.groupby(
        ["suite", "provider_label", "case_id"], sort=True
    ):
        statuses = group["status"].tolist()
        auto = (
            statuses[0]
            if len(set(statuses)) == 1
            else f"{statuses.count('pass')}/{len(statuses)} pass"
        )
        first = group.iloc[0]
        records.append(
            {
                "Suite": suite,
                "Provider": provider,
                "Case": case,
                "Automatic": auto,
                "Reviewer verdict": first["review"],
                "Note": first["review_note"],
                "By": first["reviewer"],
                "When": first["reviewed_at"],
                "Earlier verdicts (newest first)": first["review_history"] or "—",
            }
        )
    return pd.DataFrame.from_records(records)


def reviewed_accuracy(df: pd.DataFrame) -> pd.DataFrame:
    """Accuracy once reviewer verdicts replace automatic ones (errors stay errors)."""
    adjusted = df.copy()
    mask = (adjusted["review"] != "") & ~adjusted["errored"]
    adjusted.loc[mask, "passed"] = adjusted.loc[mask, "review"] == "pass"
    out = _accuracy_frame(adjusted, GROUP)
    automatic = _accuracy_frame(df, GROUP)
    out["Automatic"] = automatic["Accuracy"]
    out["Reviewed cases"] = (
        df[df["review"] != ""]
        .groupby(GROUP)["case_id"]
        .nunique()
        .reindex(pd.MultiIndex.from_frame(out[GROUP]), fill_value=0)
        .to_numpy()
    )
    out = out.rename(
        columns={**GROUP_NAMES, "n": "Scored", "errors": "Errors", "Accuracy": "After review"}
    )
    return out[
        [
            "Suite",
            "Provider",
            "Prompt",
            "Scored",
            "Errors",
            "Automatic",
            "After review",
            "95% CI",
            "Reviewed cases",
        ]
    ]
