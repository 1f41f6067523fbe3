"""Scoring one compressed conversation against its annotation (the `closure` target).

Entity matching is by case-insensitive substring on each extracted entity's one-line text
(pipeline's entity_text, what the preview shows): an expected item is found when some
extracted entity of its kind contains one of its alternatives; an extracted entity is correct
when it contains an alternative of some expected item of its kind. The counts go into the row
for pooled precision, recall and F1 per kind (evals/runner/closure_metrics.py); the case's
verdict is on what a person would have to correct by hand:

- no `absent` phrase in any extracted entity of any kind;
- the suggested destination is the annotated one;
- the resolved open items are exactly `resolves` (none of `keeps_open`, none unmentioned);
- the narrative has the pipeline's format: 2-4 sentences, at most the stage's length.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from annotated_types import MaxLen

from evals.dataset.closure import AnyOf, ClosureExpect, PersonItem
from evals.scorers.base import Check, Score, Scorer
from pipeline.conversation_models import (
    ENTITY_KINDS,
    MAX_SENTENCES,
    MIN_SENTENCES,
    NarrativeAnswer,
    sentence_count,
)

NARRATIVE_MAX_CHARS = next(
    m.max_length
    for m in NarrativeAnswer.model_fields["narrative"].metadata
    if isinstance(m, MaxLen)
)


def _contains(text: str, phrases: Sequence[str]) -> bool:
    folded = text.casefold()
    return any(p.casefold() in folded for p in phrases)


def kind_counts(expected: Sequence[AnyOf | PersonItem], extracted: Sequence[str]) -> dict[str, int]:
    """expected / found (expected items some entity contains) / extracted / matching
    (extracted entities containing some expected item's phrase)."""
    found = sum(1 for item in expected if any(_contains(t, item.phrases) for t in extracted))
    matching = sum(
        1 for text in extracted if any(_contains(text, item.phrases) for item in expected)
    )
    return {
        "expected": len(expected),
        "found": found,
        "extracted": len(extracted),
        "matching": matching,
    }


def absent_violations(absent: Sequence[str], entities: dict[str, list[str]]) -> list[str]:
    """Each `absent` phrase some extracted entity contains, with where: 'phrase' in kind: text."""
    out: list[str] = []
    for phrase in absent:
        for kind in ENTITY_KINDS:
            hit = next((t for t in entities.get(kind, []) if _contains(t, [phrase])), None)
            if hit is not None:
                out.append(f"{phrase!r} in {kind}: {hit}")
                break
    return out


def resolution(expect: ClosureExpect, resolved: Sequence[str]) -> dict[str, Any]:
    """Resolved ids against `resolves`; a `keeps_open` or unmentioned id resolved is wrong."""
    want, got = set(expect.resolves), set(resolved)
    return {
        "expected": sorted(want),
        "resolved": sorted(got),
        "correct": len(want & got),
        "wrong": len(got - want),
        "missed": len(want - got),
        "kept_open_resolved": sorted(got & set(expect.keeps_open)),
    }


def narrative_metrics(expect: ClosureExpect, text: str) -> dict[str, Any]:
    """Sentences, length, whether the format holds, and the `narrative_must` points covered."""
    sentences = sentence_count(text)
    ok = MIN_SENTENCES <= sentences <= MAX_SENTENCES and 0 < len(text) <= NARRATIVE_MAX_CHARS
    covered = [p.any[0] for p in expect.narrative_must if _contains(text, p.phrases)]
    missing = [p.any[0] for p in expect.narrative_must if not _contains(text, p.phrases)]
    return {
        "sentences": sentences,
        "chars": len(text),
        "format_ok": ok,
        "points": len(expect.narrative_must),
        "covered": len(covered),
        "missing": missing,
    }


def metrics(expect: ClosureExpect, got: dict[str, Any]) -> dict[str, Any]:
    """Every measured figure of one case (pooled over cases by closure_metrics)."""
    entities: dict[str, list[str]] = got.get("entities") or {}
    return {
        "kinds": {
            kind: kind_counts(expect.items(kind), entities.get(kind, [])) for kind in ENTITY_KINDS
        },
        "absent": absent_violations(expect.absent, entities),
        "routing": {
            "expected": expect.destination,
            "got": got.get("destination"),
            "correct": got.get("destination") == expect.destination,
        },
        "resolution": resolution(expect, got.get("resolved") or []),
        "narrative": narrative_metrics(expect, str(got.get("narrative") or "")),
    }


def _checks(m: dict[str, Any]) -> list[Check]:
    absent = m["absent"]
    routing = m["routing"]
    res = m["resolution"]
    narrative = m["narrative"]
    exact = res["wrong"] == 0 and res["missed"] == 0
    res_why = ""
    if not exact:
        parts = []
        if res["missed"]:
            parts.append(f"missed {sorted(set(res['expected']) - set(res['resolved']))}")
        if res["wrong"]:
            parts.append(f"wrongly resolved {sorted(set(res['resolved']) - set(res['expected']))}")
        res_why = "resolution: " + ", ".join(parts)
    return [
        Check(
            "absent",
            [],
            absent,
            not absent,
            "" if not absent else "extracted what must not be: " + "; ".join(absent),
        ),
        Check(
            "routing",
            routing["expected"],
            routing["got"],
            routing["correct"],
            ""
            if routing["correct"]
            else f"routed to {routing['got']!r}, not {routing['expected']!r}",
        ),
        Check("resolution", res["expected"], res["resolved"], exact, res_why),
        Check(
            "narrative_format",
            f"{MIN_SENTENCES}-{MAX_SENTENCES} sentences, <= {NARRATIVE_MAX_CHARS} chars",
            f"{narrative['sentences']} sentences, {narrative['chars']} chars",
            narrative["format_ok"],
            ""
            if narrative["format_ok"]
            else f"narrative has {narrative['sentences']} sentences, {narrative['chars']} chars",
        ),
    ]


def _score(expect: ClosureExpect, got: dict[str, Any]) -> Score:
    if not got:  # the case errored before anything was extracted
        return Score(CLOSURE.name, CLOSURE.version, expect.model_dump(mode="json"), got, ())
    m = metrics(expect, got)
    return Score(
        scorer=CLOSURE.name,
        version=CLOSURE.version,
        expected=expect.model_dump(mode="json"),
        got={**got, "metrics": m},
        checks=tuple(_checks(m)),
    )


CLOSURE = Scorer("closure_extraction", 1, _score)
