"""How well readings match a corpus split's labels: accuracy per head, spans, calibration."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pipeline.providers.reader.decode import ReaderOutput


def _chosen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _acc(hits: list[bool]) -> float | None:
    return round(sum(hits) / len(hits), 4) if hits else None


def expected_calibration_error(
    confidence: Sequence[float], correct: Sequence[bool], bins: int = 10
) -> float:
    """ECE: the mean gap between confidence and accuracy over equal-width confidence bins."""
    conf, hit = np.asarray(confidence), np.asarray(correct, dtype=float)
    total = 0.0
    for low in np.linspace(0, 1, bins, endpoint=False):
        inside = (conf > low) & (conf <= low + 1 / bins)
        if inside.any():
            total += inside.mean() * abs(conf[inside].mean() - hit[inside].mean())
    return round(float(total), 4)


def scores(rows: Sequence[dict[str, Any]], readings: Sequence[ReaderOutput]) -> dict[str, Any]:
    """Per-head accuracy, span exact match and containment, relation calibration."""
    hit: dict[str, list[bool]] = {
        k: []
        for k in (
            "relation",
            "relation_raw",
            "chosen",
            "intent",
            "question",
            "restore",
            "status",
            "profile_field",
            "acts_count",
        )
    }
    span_exact: list[bool] = []
    span_contained: list[bool] = []
    predicted_matched: list[bool] = []
    conf: list[float] = []
    for row, out in zip(rows, readings, strict=True):
        gold = row["labels"]
        if row["context"]["pending"] != "none":
            hit["relation"].append(out.relation == gold["relation"])
            raw = max(out.probs["relation"], key=lambda r: out.probs["relation"][r])
            hit["relation_raw"].append(raw == gold["relation"])
            conf.append(out.probs["relation"][raw])
        if gold["chosen"] is not None or row["context"]["pending"] in ("offers", "candidates"):
            hit["chosen"].append(_chosen(out.chosen) == _chosen(gold["chosen"]))
        for key in ("intent", "question", "restore", "status"):
            hit[key].append(getattr(out, key) == gold[key])
        if gold["intent"] == "remember_about_me":
            hit["profile_field"].append(out.profile_field == gold["profile_field"])
        hit["acts_count"].append(len(out.acts) == len(gold["acts"]))
        for span in gold["spans"]:
            same = [s for s in out.spans if s.kind == span["kind"]]
            span_exact.append(any((s.start, s.end) == (span["start"], span["end"]) for s in same))
            span_contained.append(
                any(s.start <= span["start"] and s.end >= span["end"] for s in same)
            )
        for s in out.spans:
            predicted_matched.append(
                any(
                    g["kind"] == s.kind and g["start"] < s.end and s.start < g["end"]
                    for g in gold["spans"]
                )
            )
    result: dict[str, Any] = {f"{k}_accuracy": _acc(v) for k, v in hit.items()}
    result.update(
        rows=len(rows),
        span_exact=_acc(span_exact),
        span_containment=_acc(span_contained),
        span_precision=_acc(predicted_matched),
        gold_spans=len(span_exact),
        relation_ece=expected_calibration_error(conf, hit["relation_raw"]) if conf else None,
    )
    return result
