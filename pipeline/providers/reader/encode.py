"""The reader's input: "[CLS] context [SEP] message [SEP]", with the message's offsets kept.

Training (training/train.py) encodes with these same functions, so what the heads learn from
is exactly what they are given at run time.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

CLS, SEP = 101, 102
MAX_TOKENS = 128
CONTEXT_TOKENS = 40
PREV_CHARS = 240
PENDING_KINDS = ("none", "offer", "offers", "retraction", "candidates", "cross_promotion")


@dataclass(frozen=True)
class ReaderContext:
    """What the reader is told besides the message."""

    pending: str = "none"
    prev: str = ""
    project: bool = False
    items: int = 0


@dataclass(frozen=True)
class Encoded:
    """Token ids and types, and for each token its character span in the message (or None)."""

    ids: npt.NDArray[np.int64]
    types: npt.NDArray[np.int64]
    offsets: list[tuple[int, int] | None]


def context_text(context: ReaderContext) -> str:
    """The context as the encoder reads it: pending kind, item count, project, previous turn."""
    items = f" {context.items} items" if context.items else ""
    where = "project" if context.project else "personal"
    return f"{context.pending.replace('_', ' ')}{items} {where} : {context.prev[:PREV_CHARS]}"


def readable(message: str) -> tuple[str, list[int]]:
    """The message with each symbol (emoji, ticks, crosses) spelled by its Unicode name, which
    the encoder's vocabulary has words for (it reads every emoji as one unknown token), and
    for each character of the result the index of the character of `message` it stands for."""
    out: list[str] = []
    origin: list[int] = []
    for i, char in enumerate(message):
        category = unicodedata.category(char)
        if 0xFE00 <= ord(char) <= 0xFE0F or 0x1F3FB <= ord(char) <= 0x1F3FF:
            continue  # variation selectors and skin tones say nothing of the answer
        if category == "So":
            name = f" {unicodedata.name(char, '').lower()} "
            out.append(name)
            origin += [i] * len(name)
        else:
            out.append(char)
            origin.append(i)
    return "".join(out), origin


def prepared(tokenizer: Any) -> Any:
    """The tokenizer with the padding and truncation its file sets turned off (we assemble)."""
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def encode(tokenizer: Any, context: ReaderContext, message: str) -> Encoded:
    """One (context, message) pair as the encoder's input."""
    text, origin = readable(message)
    ctx = tokenizer.encode(context_text(context), add_special_tokens=False)
    msg = tokenizer.encode(text, add_special_tokens=False)
    budget = MAX_TOKENS - 3
    msg_ids, msg_offsets = list(msg.ids)[: budget - 8], list(msg.offsets)[: budget - 8]
    ctx_ids = list(ctx.ids)[: min(CONTEXT_TOKENS, budget - len(msg_ids))]
    ids = [CLS, *ctx_ids, SEP, *msg_ids, SEP]
    types = [0] * (len(ctx_ids) + 2) + [1] * (len(msg_ids) + 1)
    offsets: list[tuple[int, int] | None] = [None] * (len(ctx_ids) + 2)
    for start, end in msg_offsets:
        offsets.append((origin[start], origin[end - 1] + 1) if end > start else None)
    offsets.append(None)
    return Encoded(np.array(ids, dtype=np.int64), np.array(types, dtype=np.int64), offsets)
