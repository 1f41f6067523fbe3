"""The docs speak the code's vocabulary (docs/glossary.md): every glossary row names a module
(and a class, function or constant in it) that exists, every doc links the glossary near its
top, and no doc uses a word the glossary lists under "Words the docs do not use"."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from pipeline.config import PROJECT_ROOT

GLOSSARY = PROJECT_ROOT / "docs" / "glossary.md"
BANNED_HEADING = "## Words the docs do not use"
# The link must come before the first section of a doc, or within its first lines.
LINK_WITHIN_LINES = 12
# Docs whose glossary link waits for the work that owns them now (issue 36 items 3 and 5).
LINK_PENDING: set[str] = set()
# A banned word that is right where it stands, by file and word: the reason says why.
ALLOWED = {
    ("docs/reader.md", "user turn"): "the SGD corpus's own name for its turns, not ours",
}

_CODE_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_REF = re.compile(r"`([^`]+)`")


def _docs() -> list[Path]:
    return [PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]


def _rel(path: Path) -> str:
    return path.relative_to(PROJECT_ROOT).as_posix()


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _term_rows() -> list[tuple[str, str]]:
    """(term, "lives in" cell) of every four-column table row before the banned words."""
    text = GLOSSARY.read_text(encoding="utf-8").split(BANNED_HEADING)[0]
    rows = []
    for line in text.splitlines():
        cells = _cells(line) if line.startswith("|") else []
        if len(cells) == 4 and cells[0] not in ("Term", "---"):
            rows.append((cells[0], cells[2]))
    return rows


def _banned() -> list[str]:
    """The phrases of the glossary's "Not" column."""
    _, _, table = GLOSSARY.read_text(encoding="utf-8").partition(BANNED_HEADING)
    phrases = []
    for line in table.splitlines():
        cells = _cells(line) if line.startswith("|") else []
        if len(cells) == 2 and cells[0] not in ("Not", "---"):
            phrases += [p.strip() for p in cells[0].split(",") if p.strip()]
    return phrases


@cache
def _defined(path: Path) -> frozenset[str]:
    """Names a module defines at its top level or in its classes (enum members, fields)."""
    names: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bodies = [tree.body] + [n.body for n in tree.body if isinstance(n, ast.ClassDef)]
    for body in bodies:
        for node in body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return frozenset(names)


def _prose(text: str) -> str:
    """The text without code blocks and code spans (an API's `user` role is code, not prose);
    line breaks stay, so a phrase split over two lines is still one phrase."""
    text = _CODE_FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return _CODE_SPAN.sub(" ", text)


def test_the_glossary_defines_terms() -> None:
    rows = _term_rows()
    assert len(rows) >= 60, f"docs/glossary.md: only {len(rows)} terms read from its tables"
    assert _banned(), "docs/glossary.md: no words listed under 'Words the docs do not use'"


@pytest.mark.parametrize(("term", "where"), _term_rows() if GLOSSARY.exists() else [])
def test_every_term_names_code_that_exists(term: str, where: str) -> None:
    refs = _REF.findall(where)
    assert refs, f"glossary term {term!r} names no module: put its path in backticks"
    for ref in refs:
        path_text, _, name = ref.partition("::")
        path = PROJECT_ROOT / path_text
        assert path.exists(), f"glossary term {term!r}: {path_text} does not exist"
        if name:
            assert path.suffix == ".py", f"glossary term {term!r}: {ref} names a non-module"
            assert name in _defined(path), f"glossary term {term!r}: {path_text} defines no {name}"


@pytest.mark.parametrize("doc", _docs(), ids=_rel)
def test_every_doc_links_the_glossary_near_its_top(doc: Path) -> None:
    if doc == GLOSSARY or _rel(doc) in LINK_PENDING:
        pytest.skip("the glossary itself, or a doc whose owner adds the link")
    lines = doc.read_text(encoding="utf-8").splitlines()
    first_section = next((i for i, line in enumerate(lines[1:], 1) if line.startswith("#")), 0)
    head = "\n".join(lines[: max(first_section, LINK_WITHIN_LINES)])
    assert "glossary.md" in head, (
        f"{_rel(doc)}: no link to docs/glossary.md before its first section; "
        "add one under the title"
    )


@pytest.mark.parametrize("doc", _docs(), ids=_rel)
def test_no_doc_uses_a_banned_synonym(doc: Path) -> None:
    if doc == GLOSSARY:
        pytest.skip("the glossary lists the banned words")
    text = _prose(doc.read_text(encoding="utf-8"))
    found = []
    for phrase in _banned():
        if (_rel(doc), phrase) in ALLOWED:
            continue
        words = r"\s+".join(map(re.escape, phrase.split()))
        for match in re.finditer(rf"\b{words}s?\b", text, re.I):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{_rel(doc)}:{line}: {match.group(0)!r}")
    assert not found, "the glossary's 'Words the docs do not use' appear:\n" + "\n".join(found)
