"""Corpus rows to encoder inputs, targets, and (for the frozen encoder) hidden states."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from tokenizers import Tokenizer

from pipeline.providers.reader.encode import Encoded, ReaderContext, encode, prepared
from training.schema import INTENT_NAMES, MAX_ITEMS, PROFILE_FIELDS, RELATIONS, SPAN_KINDS

TOKENIZER = (
    Path(__file__).resolve().parents[1] / "pipeline/providers/local/tokenizer/tokenizer.json"
)
TAGS = ("O", *(f"{p}-{k}" for k in SPAN_KINDS for p in ("B", "I")))
CHOICES = ("none", "all", "some")
FLAGS = ("question", "restore", "status")
IGNORE = -100


@dataclass
class Example:
    """One row as the encoder sees it, with every head's target."""

    row: dict[str, Any]
    encoded: Encoded
    tags: npt.NDArray[np.int64]
    seq: dict[str, int]
    items: npt.NDArray[np.float32]
    flags: npt.NDArray[np.float32]


def tokenizer() -> Tokenizer:
    """The shipped tokenizer, set up as the reader uses it."""
    loaded: Tokenizer = prepared(Tokenizer.from_file(str(TOKENIZER)))
    return loaded


def context_of(row: dict[str, Any]) -> ReaderContext:
    """A row's context as the runtime takes it."""
    c = row["context"]
    return ReaderContext(c["pending"], c["prev"], bool(c["project"]), int(c["items"]))


def tag_targets(encoded: Encoded, spans: list[dict[str, Any]]) -> npt.NDArray[np.int64]:
    """BIO targets for the message's tokens; context and special tokens are ignored."""
    tags = np.full(len(encoded.ids), IGNORE, dtype=np.int64)
    for i, offset in enumerate(encoded.offsets):
        if offset is not None:
            tags[i] = 0
    for span in spans:
        inside = [
            i
            for i, o in enumerate(encoded.offsets)
            if o is not None and o[0] < span["end"] and o[1] > span["start"]
        ]
        for n, i in enumerate(inside):
            tags[i] = TAGS.index(f"{'B' if n == 0 else 'I'}-{span['kind']}")
    return tags


def example(row: dict[str, Any], tok: Tokenizer) -> Example:
    """A row's inputs and targets."""
    labels = row["labels"]
    encoded = encode(tok, context_of(row), row["message"])
    chosen = labels["chosen"]
    items = np.zeros(MAX_ITEMS, dtype=np.float32)
    if isinstance(chosen, list):
        for n in chosen:
            if 1 <= n <= MAX_ITEMS:
                items[n - 1] = 1.0
    choice = "all" if chosen == "all" else "some" if chosen else "none"
    seq = {
        "relation": RELATIONS.index(labels["relation"]),
        "intent": INTENT_NAMES.index(labels["intent"]),
        "profile": PROFILE_FIELDS.index(labels["profile_field"]),
        "choice": CHOICES.index(choice),
    }
    flags = np.array([float(labels[f]) for f in FLAGS], dtype=np.float32)
    return Example(row, encoded, tag_targets(encoded, labels["spans"]), seq, items, flags)


def frozen_hidden(
    examples: list[Example], session: Any, batch: int = 64
) -> list[npt.NDArray[np.float16]]:
    """The shipped encoder's last hidden states for each example (float16 to halve memory)."""
    out: list[npt.NDArray[np.float16] | None] = [None] * len(examples)
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].encoded.ids))
    for start in range(0, len(order), batch):
        rows = order[start : start + batch]
        width = max(len(examples[i].encoded.ids) for i in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        types = np.zeros_like(ids)
        mask = np.zeros_like(ids)
        for r, i in enumerate(rows):
            e = examples[i].encoded
            ids[r, : len(e.ids)], types[r, : len(e.ids)], mask[r, : len(e.ids)] = e.ids, e.types, 1
        (hidden,) = session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": types},
        )
        for r, i in enumerate(rows):
            out[i] = hidden[r, : len(examples[i].encoded.ids)].astype(np.float16)
    return [h for h in out if h is not None]
