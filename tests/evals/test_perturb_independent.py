"""The perturbations share no word list or table with the reader, so a robustness figure
measures the reader on text written by other rules, not the reader undoing its own.

A collection is every set, tuple, list or dict literal of strings (a dict's keys and values
apart), every string split into words (`"a b c".split()`, `re.findall(r"\\S+", "...")`) and,
on the reader's side, every regular expression's alternatives ("tbh|lol|ok so"). A collection
of three or more word-like strings in evals/perturb/ (English grammar words such as "the" and
"my" not counted) is shared when half or more of its members occur in one collection of
pipeline/english/ or pipeline/providers/local/, or when a module imports either package.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PERTURB = ROOT / "evals" / "perturb"
READER = [ROOT / "pipeline" / "english", ROOT / "pipeline" / "providers" / "local"]
READER_PACKAGES = ("pipeline.english", "pipeline.providers.local")
MIN_MEMBERS = 3
SHARED = 0.5
# English grammar words: any rule about English sentences names some of them ("the", "my",
# "will"), so they are not counted on either side; the reader's lexicon is its cues, fillers,
# shorthand, values and keyboard table, which these leave whole.
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "i",
        "me",
        "my",
        "we",
        "us",
        "our",
        "you",
        "your",
        "he",
        "him",
        "his",
        "she",
        "her",
        "they",
        "them",
        "their",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "have",
        "has",
        "had",
        "do",
        "does",
        "did",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "all",
        "any",
        "anything",
        "everything",
        "something",
        "nothing",
        "to",
        "of",
        "and",
        "or",
        "but",
        "nor",
        "not",
        # prepositions
        "for",
        "from",
        "with",
        "about",
        "in",
        "on",
        "at",
        "by",
        "after",
        "before",
        "so",
        "if",
        # contraction endings ("I'm", "we've")
        "m",
        "re",
        "ve",
        "ll",
        "d",
        "s",
        "t",
    ]
)
_WORDLIKE = re.compile(r"[^\W\d_][\w'’ &/-]*")
_ALTERNATIVE = re.compile(r"[a-z][a-z' ]*[a-z]|[a-z]")


def _strings(nodes: list[ast.expr | None]) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _words(values: list[str]) -> frozenset[str]:
    return frozenset(v.lower().strip() for v in values if _WORDLIKE.fullmatch(v.strip()))


def _split_words(text: str) -> list[str]:
    """A multi-line string of bare words (no sentence punctuation, so no docstring)."""
    words = text.split()
    if "\n" not in text or len(words) < MIN_MEMBERS or re.search(r"[.,;:!?()\"`]", text):
        return []
    return words


def collections(source: str, *, regex_alternatives: bool = False) -> Iterator[frozenset[str]]:
    """Each collection of word-like strings a module's source writes out."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Set | ast.Tuple | ast.List):
            yield _words(_strings(list(node.elts)))
        elif isinstance(node, ast.Dict):
            yield _words(_strings(list(node.keys)))
            yield _words(_strings(list(node.values)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield _words(_split_words(node.value))
            if regex_alternatives and "|" in node.value:
                pieces = re.split(r"[|()]", node.value.lower())
                yield frozenset(p for p in pieces if _ALTERNATIVE.fullmatch(p))


def reader_collections() -> list[frozenset[str]]:
    found = []
    for folder in READER:
        for path in sorted(folder.glob("*.py")):
            source = path.read_text(encoding="utf-8")
            found += [c for c in collections(source, regex_alternatives=True) if c]
    return found


def shared_lists(source: str, reader: list[frozenset[str]]) -> list[tuple[list[str], float]]:
    """The collections of `source` that half or more of whose members one reader collection
    has, with the share."""
    shared = []
    for collection in collections(source):
        mine = collection - FUNCTION_WORDS
        if len(mine) < MIN_MEMBERS:
            continue
        share = max(len(mine & theirs) / len(mine) for theirs in reader)
        if share >= SHARED:
            shared.append((sorted(mine), share))
    return shared


def reader_imports(source: str) -> list[str]:
    """The reader's modules a source imports."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return [n for n in names if n.startswith(READER_PACKAGES)]


@pytest.fixture(scope="module")
def reader() -> list[frozenset[str]]:
    return reader_collections()


@pytest.mark.parametrize("path", sorted(PERTURB.glob("*.py")), ids=lambda p: p.name)
def test_no_perturbation_module_shares_a_word_list_with_the_reader(path, reader):
    source = path.read_text(encoding="utf-8")
    assert shared_lists(source, reader) == []
    assert reader_imports(source) == []


def test_the_check_finds_a_table_copied_from_the_reader(reader):
    """A copy of the reader's keyboard table, its filler, or an import of it is caught."""
    copied = """
from pipeline.english.surface import NEIGHBOURS
KEYS = {"q": "wa", "w": "qeas", "e": "wrsd", "r": "etdf"}
FILLERS = ("tbh", "lol", "ok so")
OWN = ("marmalade", "lighthouse", "quarry")
"""
    shared = [members for members, _ in shared_lists(copied, reader)]
    assert ["lol", "ok so", "tbh"] in shared
    assert ["etdf", "qeas", "wa", "wrsd"] in shared
    assert ["lighthouse", "marmalade", "quarry"] not in shared
    assert reader_imports(copied) == ["pipeline.english.surface"]
