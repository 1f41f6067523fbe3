"""The generator's word lists are its own: no entry is one of the evaluation's or the rules'."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from training.words import COMMON_WORDS

ROOT = Path(__file__).resolve().parents[2]
THEIRS = [ROOT / "evals" / "perturb", ROOT / "pipeline" / "english"]
GENERATOR = (
    "words",
    "values",
    "templates",
    "notes",
    "vocab",
    "facts",
    "scenes",
    "answers",
    "replies_words",
    "styles",
    "asks",
    "talk",
)
OURS = [ROOT / "training" / f"{name}.py" for name in GENERATOR]
_REGEX_NOISE = re.compile(r"\(\?[:=!<]+|\\[bsSwWd]\+?\*?|[\^$()\[\]{}+*]|\?(?=[|)]|$)")


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _entries(text: str) -> set[str]:
    """A string constant's entries: itself, its regex alternatives, its whitespace words."""
    found = {text}
    found.update(_REGEX_NOISE.sub("", part).replace("\\", "") for part in text.split("|"))
    if "\n" in text:  # a word block split on whitespace (the rule reader's cue sets)
        found.update(text.split())
    return {" ".join(entry.casefold().split()) for entry in found} - {""}


def _their_entries() -> set[str]:
    entries: set[str] = set()
    for folder in THEIRS:
        for path in folder.glob("*.py"):
            for text in _strings(path):
                entries |= _entries(text)
    return entries


def _phrases(node: ast.AST) -> list[str]:
    items = (node.keys + node.values) if isinstance(node, ast.Dict) else getattr(node, "elts", [])
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]


def _our_list_entries(path: Path) -> list[str]:
    """Entries of the generator's text lists: every module-level constant collection, and any
    collection inside a function that holds a phrase (code identifiers are not text)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            out += [e for sub in ast.walk(node) for e in _phrases(sub)]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for sub in ast.walk(node):
                entries = _phrases(sub)
                if any(" " in e.strip() for e in entries):
                    out += entries
    return [e for e in out if any(ch.isalpha() for ch in e)]


def test_no_word_list_entry_is_shared() -> None:
    theirs = _their_entries()
    assert len(theirs) > 500  # the extraction found the rule reader's and perturbation's lists
    shared = {
        " ".join(entry.casefold().split())
        for path in OURS
        for entry in _our_list_entries(path)
        if " ".join(entry.casefold().split()) in theirs
    }
    assert sorted(shared - COMMON_WORDS) == []
    assert all(len(word.split()) == 1 for word in COMMON_WORDS)


def test_a_shared_entry_is_caught() -> None:
    theirs = _their_entries()
    assert "tbh" in theirs and "yes" in theirs  # an entry of each kind of list is seen


def test_training_imports_neither_package() -> None:
    for path in (ROOT / "training").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                assert not name.startswith(("evals.perturb", "pipeline.english")), (path, name)
