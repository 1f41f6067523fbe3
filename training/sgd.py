"""A bounded sample of answers to a system's offer or confirmation from the Schema-Guided
Dialogue dataset (CC BY-SA 4.0, github google-research-datasets/dstc8-schema-guided-dialogue).

A user turn is taken when the system turn before it asks to CONFIRM details or OFFERs
something, and the user's acts are exactly one of the answers below; a NEGATE with INFORM after
CONFIRM is a correction whose values are the dataset's own slot spans. The sample is read from
a git snapshot of the dataset (`git show HEAD:train/...`) and written to training/data/sgd.jsonl,
which is committed: building the rest of the corpus does not need the snapshot.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SOURCE = "sgd"
LICENCE = "CC BY-SA 4.0 (Schema-Guided Dialogue, Google Research)"
ASKS = {"CONFIRM", "OFFER", "OFFER_INTENT"}
# (system act, the user's acts) -> relation
ANSWERS: dict[tuple[str, tuple[str, ...]], str] = {
    ("CONFIRM", ("AFFIRM",)): "confirm",
    ("CONFIRM", ("NEGATE",)): "reject",
    ("CONFIRM", ("INFORM", "NEGATE")): "correct",
    ("OFFER_INTENT", ("AFFIRM_INTENT",)): "confirm",
    ("OFFER_INTENT", ("NEGATE_INTENT",)): "reject",
    ("OFFER", ("AFFIRM",)): "confirm",
    ("OFFER", ("NEGATE",)): "reject",
}
PER_RELATION = {"confirm": 500, "reject": 350, "correct": 500}


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True
    ).stdout


def dialogue_files(git_dir: Path) -> list[str]:
    """The train dialogue files the snapshot holds (files of 4 MiB and more are absent)."""
    rows = [
        line.split() for line in _git(git_dir, "ls-tree", "-r", "-l", "HEAD", "train").splitlines()
    ]
    return sorted(
        r[4] for r in rows if r[3] != "-" and r[4].split("/")[-1].startswith("dialogues_")
    )


def _answers(dialogues: list[dict[str, Any]], name: str) -> Iterator[dict[str, Any]]:
    for dialogue in dialogues:
        turns = dialogue["turns"]
        for i in range(1, len(turns)):
            system, user = turns[i - 1], turns[i]
            if user["speaker"] != "USER":
                continue
            asked = {a["act"] for f in system["frames"] for a in f["actions"]} & ASKS
            acts = tuple(sorted({a["act"] for f in user["frames"] for a in f["actions"]}))
            kind = (
                "CONFIRM"
                if "CONFIRM" in asked
                else "OFFER_INTENT"
                if "OFFER_INTENT" in asked
                else "OFFER"
            )
            relation = ANSWERS.get((kind, acts)) if asked else None
            if relation is None:
                continue
            spans = [
                {"kind": "CORRECTION", "start": s["start"], "end": s["exclusive_end"]}
                for f in user["frames"]
                for s in f.get("slots", [])
            ]
            if relation == "correct" and not spans:
                continue
            yield _row(
                f"{name}:{dialogue['dialogue_id']}:{i}",
                system["utterance"],
                user["utterance"],
                relation,
                spans,
            )


def _row(
    ident: str, prev: str, message: str, relation: str, spans: list[dict[str, Any]]
) -> dict[str, Any]:
    spans = sorted(spans, key=lambda s: s["start"]) if relation == "correct" else []
    for span in spans:
        span["text"] = message[span["start"] : span["end"]]
    intent = "general_conversation" if relation == "reject" else "remember_about_me"
    return {
        "id": f"sgd:{ident}",
        "source": SOURCE,
        "licence": LICENCE,
        "style": "sgd",
        "context": {"pending": "offer", "prev": prev, "project": False, "items": 0},
        "message": message,
        "labels": {
            "relation": relation,
            "chosen": None,
            "intent": intent,
            "question": False,
            "restore": False,
            "status": False,
            "profile_field": "none",
            "spans": spans,
            "acts": [],
        },
    }


def sample(git_dir: Path, seed: int = 34) -> list[dict[str, Any]]:
    """A seeded sample of at most PER_RELATION answers of each relation."""
    found: dict[str, list[dict[str, Any]]] = {r: [] for r in PER_RELATION}
    for path in dialogue_files(git_dir):
        try:
            dialogues = json.loads(_git(git_dir, "show", f"HEAD:{path}"))
        except subprocess.CalledProcessError:  # listed, but not in the snapshot (too large)
            continue
        for row in _answers(dialogues, path.split("/")[-1].removesuffix(".json")):
            found[row["labels"]["relation"]].append(row)
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for relation, limit in PER_RELATION.items():
        pool = found[relation]
        rows += rng.sample(pool, min(limit, len(pool)))
    return sorted(rows, key=lambda r: r["id"])
