"""Slot values drawn from the encoder's own vocabulary, so spans are learnt by structure.

With a short list of values the tagger learns the words ("gluten" unseen: the span stopped
before it). Replacing a slot value, now and then, by one or two whole words of the MiniLM
tokenizer's vocabulary, or by a rare word glued from its word-pieces, makes the only clue to
where a span ends the sentence around it. The words are the tokenizer's, not a list written
for (or copied from) any rule or perturbation.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

TOKENIZER = (
    Path(__file__).resolve().parents[1]
    / "pipeline"
    / "providers"
    / "local"
    / "tokenizer"
    / "tokenizer.json"
)
# Ids below this are characters and the commonest function words ("that", "with", "from"),
# which would read as structure, not as a value.
FIRST_CONTENT_ID = 2500


@cache
def _pieces() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Whole words (alphabetic, 4+ letters), short word starts and '##' continuations."""
    vocab = json.loads(TOKENIZER.read_text(encoding="utf-8"))["model"]["vocab"]
    ordered = sorted(vocab.items(), key=lambda item: item[1])
    words: list[str] = []
    starts: list[str] = []
    tails: list[str] = []
    for token, index in ordered:
        if index < FIRST_CONTENT_ID:
            continue
        if token.startswith("##"):
            if token[2:].isascii() and token[2:].isalpha():
                tails.append(token[2:])
        elif token.isascii() and token.isalpha():
            (words if len(token) >= 4 else starts).append(token)
    return tuple(words), tuple(starts), tuple(tails)


def vocab_word(rng: random.Random) -> str:
    """One whole word of the vocabulary."""
    return rng.choice(_pieces()[0])


def glued_word(rng: random.Random) -> str:
    """A rare word made of a word start and one or two continuation pieces ("g" "lu" "ten")."""
    _, starts, tails = _pieces()
    head = rng.choice(starts)
    return head + "".join(rng.choice(tails) for _ in range(rng.choice((1, 1, 2))))


def vocab_value(rng: random.Random, capital: bool = False) -> str:
    """A stand-in slot value: one or two vocabulary words, or a glued rare word."""
    pick = rng.random()
    if pick < 0.55:
        words = [vocab_word(rng)]
    elif pick < 0.8:
        words = [vocab_word(rng), vocab_word(rng)]
    elif pick < 0.9:
        words = [glued_word(rng)]
    else:
        words = [vocab_word(rng), glued_word(rng)]
    if capital:
        words = [word.capitalize() for word in words]
    return " ".join(words)


def maybe_vocab(rng: random.Random, value: str, chance: float) -> str:
    """`value`, or with probability `chance` a vocabulary stand-in written in its case."""
    if not value or rng.random() >= chance:
        return value
    article = next((a for a in ("a ", "an ", "the ") if value.startswith(a)), "")
    return article + vocab_value(rng, capital=value[len(article) : len(article) + 1].isupper())
