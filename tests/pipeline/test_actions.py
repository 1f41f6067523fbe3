"""Actions are an enumeration, not strings: no handler writes an action as a literal, and every
action an instruction template compares against is one of them."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline.actions import Action
from pipeline.intents.taxonomy import INTENTS

ROOT = Path(__file__).resolve().parents[2]
_LITERAL = re.compile(r"""["']action["']\s*:\s*["']|get\(["']action["']\)\s*(?:==|!=)\s*["']""")
# an action read into a variable and compared with a string: `action in ("found", ...)`
_COMPARED = re.compile(r"""(?<![\w.)])action\s*(?:==|!=|in)\s*\(?\s*["']""")


def test_no_module_writes_or_compares_an_action_as_a_string() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "pipeline").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _LITERAL.search(line) or _COMPARED.search(line)
    ]
    assert found == []


def test_every_action_a_template_compares_against_is_an_action() -> None:
    named = {
        value
        for path in (ROOT / "prompts").rglob("*.j2")
        for value in re.findall(
            r"""action\s*(?:==|!=)\s*["']([a-z_]+)["']""", path.read_text("utf-8")
        )
    }
    assert named and named <= {a.value for a in Action}


def test_pending_actions_are_typed() -> None:
    assert all(isinstance(a, Action) for spec in INTENTS.values() for a in spec.pending)
    assert Action.HELD == "held" and f"{Action.HELD}" == "held"
