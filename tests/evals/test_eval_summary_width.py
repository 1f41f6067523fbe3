"""`converse eval`'s summary fits an 80-column terminal: one line per suite, whatever the
provider's label, model and prompt versions (they are said once each, under the table)."""

from __future__ import annotations

from rich.console import Console

from evals.commands.eval_tables import summary_legend, summary_table
from evals.runner import GroupResult

SUITES = [
    "compaction", "consolidation", "continuations", "conversation_closure", "conversations",
    "dont_ask_again", "forget_matching", "intent_boundaries", "multi_fact", "on_demand_recall",
    "prompt_smoke", "truncation", "working_memory", "writing_constraints", "heldout_intents",
]  # fmt: skip
LABEL = "openai-compatible (qwen2.5-coder-1.5b-instruct-q4_k_m at http://127.0.0.1:8080/v1)"


def _group(suite: str, **changes: object) -> GroupResult:
    fields: dict[str, object] = dict(
        suite=suite, target="classify", provider="openai-compatible", label=LABEL,
        model="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf (sha256:0123456789ab)",
        variant="active", prompt={"classifier": "v3", "persona": "v1"}, n=218, passed=200,
        errors=3, critical_failures=1,
    )  # fmt: skip
    fields.update(changes)
    return GroupResult(**fields)  # type: ignore[arg-type]


def _lines(groups: list[GroupResult]) -> list[str]:
    console = Console(width=80, record=True, emoji=False)
    with console.capture() as captured:
        console.print(summary_table(groups, "converse eval — run 20261128-142504-c03e"))
    return captured.get().splitlines()


def test_fifteen_suites_are_fifteen_lines_in_80_columns() -> None:
    groups = [_group(s) for s in SUITES]
    lines = _lines(groups)
    assert max(len(line.rstrip()) for line in lines) <= 80
    body = [line for line in lines if any(line.lstrip().startswith(s + " ") for s in SUITES)]
    assert len(body) == len(SUITES)  # no row wraps
    assert "200/218" in body[0] and "93.0" in body[0]
    (legend,) = summary_legend(groups)
    assert LABEL in legend and "classifier=v3" in legend and "qwen2.5-coder" in legend


def test_prompt_variants_and_samples_are_told_apart_within_80_columns() -> None:
    groups = [_group("prompt_smoke", prompt={"classifier": v}) for v in ("v2", "v3")]
    groups.append(_group("intent_boundaries", sample={"n": 40, "of": 218, "seed": 1}))
    lines = _lines(groups)
    text = "\n".join(lines)
    assert "classifier=v2" in text and "classifier=v3" in text
    assert "  sample 40 of 218" in text
    assert max(len(line.rstrip()) for line in lines) <= 80
