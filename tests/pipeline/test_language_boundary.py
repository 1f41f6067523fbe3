"""The core never reads English: it imports neither the English rules nor the local provider
that uses them (docs/intents.md, "Readings"). Only the local provider, the English package
itself, the command line and MCP edges and the labelled deterministic fallbacks may. Nor does
the core hold English word lists of its own: the words keyword matching skips are lent to it
as data (pipeline/lexicon.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PIPELINE = Path(__file__).resolve().parents[2] / "pipeline"
FORBIDDEN = ("pipeline.english", "pipeline.providers.local")
# Outside the core: provider packages, the English package, the edges that build providers,
# and the labelled deterministic fallbacks: the one that splits sentences when no model
# extracts facts, the one that compresses a conversation when no model does, and the one that
# tells a restated fact when no model answers consolidation's same-fact stage, and the
# migration that reads, once, the profile field of each fact held before the field was stored.
OUTSIDE_CORE = ("english", "providers", "cli", "mcp")
LABELLED_FALLBACKS = {
    "extraction/extract.py",
    "extraction/__init__.py",
    "conversations/fallback.py",
    "jobs/restatement.py",
    "store/migrations/versions/0017_profile_field.py",
}
# Words any English list of function words holds some of.
_PROBE = frozenset(
    re.findall(
        r"\S+",
        "the a an my your you i me is are and of to what when where which who all those these "
        "it that this",
    )
)
_WORD = re.compile(r"[a-z][a-z']*")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _core_modules() -> list[Path]:
    core = []
    for path in sorted(PIPELINE.rglob("*.py")):
        relative = path.relative_to(PIPELINE).as_posix()
        if relative.split("/")[0] in OUTSIDE_CORE or relative in LABELLED_FALLBACKS:
            continue
        core.append(path)
    return core


def test_no_core_module_imports_the_english_rules_or_the_local_provider() -> None:
    offending = {
        path.relative_to(PIPELINE).as_posix(): sorted(
            name for name in _imports(path) if name.startswith(FORBIDDEN)
        )
        for path in _core_modules()
    }
    assert {k: v for k, v in offending.items() if v} == {}


def test_the_check_sees_the_router_and_the_turn_path() -> None:
    names = {path.relative_to(PIPELINE).as_posix() for path in _core_modules()}
    assert {"intents/router.py", "intents/remember.py", "converse.py"} <= names
    assert not any(name.startswith(("english/", "providers/")) for name in names)


def test_an_import_of_the_english_rules_is_seen(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from pipeline.english.cues import is_rejection\n")
    assert "pipeline.english.cues" in _imports(module)


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def _word_lists(source: str) -> list[int]:
    """The lines holding an English word list: a collection of three or more single words, a
    multi-line string of words only, or a regular expression's alternation, with at least
    two (a string: three) common English function words among them."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Set | ast.List | ast.Tuple):
            words = [e.value for e in node.elts if isinstance(e, ast.Constant)]
            if (
                len(words) >= 3
                and len(words) == len(node.elts)
                and all(isinstance(w, str) and _WORD.fullmatch(w) for w in words)
                and len(_PROBE.intersection(words)) >= 2
            ):
                found.append(node.lineno)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            text = node.value
            tokens = text.split()
            if (
                "\n" in text
                and tokens
                and all(_WORD.fullmatch(t) for t in tokens)
                and len(_PROBE.intersection(tokens)) >= 3
            ):
                found.append(node.lineno)
            alternatives = set(re.findall(r"[(|:]([a-z']+)(?=[|)])", text.lower()))
            if "|" in text and len(_PROBE & alternatives) >= 2:
                found.append(node.lineno)
    return found


def test_no_core_module_holds_an_english_word_list() -> None:
    holding = {
        path.relative_to(PIPELINE).as_posix()
        for path in _core_modules()
        if _word_lists(path.read_text(encoding="utf-8"))
    }
    assert holding == set()


def test_the_word_list_check_sees_each_form_the_core_used_to_hold() -> None:
    stop_words = 'STOP_WORDS = frozenset(["forget", "about", "my", "that", "the"])'
    question_words = 'Q = frozenset(["what", "when", "where", "did"])'
    framing = 'F = frozenset(re.findall(r"\\S+", """\n  i me my mine you your am are is\n"""))'
    every_item = 'found = re.search(r"\\b(all|everything|those|these|them)\\b", text)'
    for source in (stop_words, question_words, framing, every_item):
        assert _word_lists(source) == [1], source


def test_the_word_list_check_passes_prose_and_data_that_name_no_words() -> None:
    source = (
        '"""A docstring with the words a, the, my and you."""\n'
        'ERROR = "the store is not there: create it with converse init"\n'
        'KINDS = frozenset(["held", "committed", "retracted"])\n'
        'NUMBER = re.compile(r"#?\\b(\\d{1,6})\\b")\n'
    )
    assert _word_lists(source) == []


# Modules that read English through pipeline/english/ but hold none of it themselves: the local
# rule reader and its template responder, and the heartbeat, which the core runs.
ENGLISH_FREE = (*sorted((PIPELINE / "providers" / "local").glob("*.py")), PIPELINE / "heartbeat.py")
_PATTERN_CALLS = frozenset(["compile", "search", "match", "fullmatch", "sub", "findall", "split"])


def _english_patterns(source: str) -> list[int]:
    """The lines that hold an English word list, or a regular expression literal with a word
    of three letters or more in it (a pattern of English lives in pipeline/english/)."""
    found = _word_lists(source)
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _PATTERN_CALLS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and re.search(r"[a-z]{3,}", node.args[0].value.replace("\\b", " "), re.I)
        ):
            found.append(node.lineno)
    return found


def test_the_local_reader_and_the_heartbeat_hold_no_english() -> None:
    holding = {
        path.relative_to(PIPELINE).as_posix(): _english_patterns(path.read_text("utf-8"))
        for path in ENGLISH_FREE
    }
    assert {k: v for k, v in holding.items() if v} == {}


def test_the_pattern_check_sees_an_english_pattern_and_passes_a_neutral_one() -> None:
    assert _english_patterns('X = re.compile(r"\\b(?:also|too)$")') == [1]
    assert _english_patterns('X = re.compile(r"#?\\b(\\d{1,6})\\b")') == []
