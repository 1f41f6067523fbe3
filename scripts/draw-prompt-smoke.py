"""Draw evals/suites/prompt_smoke.yaml from intent_boundaries and continuations: a stratified,
seeded sample small enough for the 1.5B local model to score in minutes on 2 cores.

Strata: every intent of intent_boundaries with a fixed quota (first-person project facts are
half of add_knowledge's, the boundary prompt work is about), and every continuation rule of
continuations (three cases each). Within a stratum the cases are a seeded random sample, so
the draw is repeatable: `python scripts/draw-prompt-smoke.py` rewrites the same file.
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SUITES = ROOT / "evals" / "suites"
SEED = 9
# intent -> how many cases of intent_boundaries to draw.
INTENT_QUOTA = {
    "remember_about_me": 6,
    "add_knowledge": 6,
    "general_conversation": 5,
    "forget_about_me": 3,
    "ask_about_past_input": 3,
    "retract_knowledge": 2,
    "list_knowledge": 1,
    "commit_knowledge": 1,
    "describe_capabilities": 1,
    "set_reminder": 1,
    "web_search": 1,
    "share_project": 1,
    "export_project": 1,
}
FIRST_PERSON = "first-person-project-fact"
RULES = (
    "confirm-remember",
    "refine-remember",
    "confirm-retraction",
    "confirm-cross-promotion",
    "decline-cross-promotion",
    "reject",
)
PER_RULE = 3

HEADER = """\
# Drawn by scripts/draw-prompt-smoke.py (seed {seed}) from intent_boundaries.yaml and
# continuations.yaml: every intent and every continuation rule, small enough for
# `converse eval --provider local-llm --suite prompt_smoke` with the 1.5B model in minutes.
# Each case keeps its source id, prefixed by the source suite. Edit the sources, then redraw.
"""


def _load(name: str) -> list[dict[str, object]]:
    data = yaml.safe_load((SUITES / f"{name}.yaml").read_text(encoding="utf-8"))
    return list(data["cases"])


def _sample(rng: random.Random, cases: list[dict[str, object]], k: int) -> list[dict[str, object]]:
    ordered = sorted(cases, key=lambda c: str(c["id"]))
    return rng.sample(ordered, min(k, len(ordered)))


def draw() -> dict[str, object]:
    """The suite, as a mapping ready to dump."""
    rng = random.Random(SEED)
    chosen: list[dict[str, object]] = []
    boundaries = _load("intent_boundaries")
    for intent, quota in INTENT_QUOTA.items():
        pool = [c for c in boundaries if c["expect"]["intent"] == intent]  # type: ignore[index]
        if intent == "add_knowledge":
            first = [c for c in pool if FIRST_PERSON in c.get("tags", [])]  # type: ignore[operator]
            rest = [c for c in pool if c not in first]
            picked = _sample(rng, first, quota // 2) + _sample(rng, rest, quota - quota // 2)
        else:
            picked = _sample(rng, pool, quota)
        chosen += [{**c, "id": f"boundaries-{c['id']}"} for c in picked]
    continuations = _load("continuations")
    for rule in RULES:
        pool = [c for c in continuations if rule in c.get("tags", [])]  # type: ignore[operator]
        chosen += [{**c, "id": f"continuations-{c['id']}"} for c in _sample(rng, pool, PER_RULE)]
    return {
        "name": "prompt_smoke",
        "target": "classify",
        "description": (
            "A stratified sample of intent_boundaries and continuations (every intent, every "
            "continuation rule) for scoring prompt versions on the local generative model."
        ),
        # The sources' gate: the sample is held to the same bar.
        "gate": {"accuracy": 0.85},
        "cases": chosen,
    }


def main() -> None:
    """Write the suite file."""
    text = yaml.safe_dump(draw(), sort_keys=False, allow_unicode=True, width=100)
    (SUITES / "prompt_smoke.yaml").write_text(HEADER.format(seed=SEED) + text, encoding="utf-8")


if __name__ == "__main__":
    main()
