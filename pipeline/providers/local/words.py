"""The local model's vocabulary as the English rules use it: which tokens are words, and how
common each is (pipeline/english/spelling.py reads slips by it)."""

from __future__ import annotations

import json
from functools import cache

from pipeline.english.shorthand import SHORTHAND
from pipeline.english.spelling import Vocabulary
from pipeline.providers.local.onnx import TOKENIZER_DIR


@cache
def vocabulary() -> Vocabulary:
    """The whole words of the model's vocabulary, ranked by their ids: the WordPiece
    vocabulary lists words roughly from the commonest, so a lower id is a commoner word."""
    vocab = json.loads((TOKENIZER_DIR / "tokenizer.json").read_text(encoding="utf-8"))
    ranks = vocab["model"]["vocab"]
    return Vocabulary({word: rank for word, rank in ranks.items() if word.isalpha()})


@cache
def known_words() -> frozenset[str]:
    """The words of the model's vocabulary and the texting shorthand read as words: a token
    among them is a word, never a typo ("wht" is "what", not a slip of "why")."""
    return frozenset(vocabulary().ranks) | SHORTHAND.keys()
