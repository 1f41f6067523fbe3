"""The compaction target: a long conversation stored as turns, then compacted through
`pipeline.compaction.compact_if_due` with the provider's own summarizer, as a real turn does.

The threshold is 150 tokens, below the setting's 500-token floor (which keeps a real
conversation from compacting every few turns), so that a 20-turn case folds wherever it asks
to; the newest two turns stay verbatim. A case's `compact` marks run it mid-conversation too, so
the final summary folds an earlier one. The summary scored is the conversation's
newest compaction, and the row names the summarizer that wrote it.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from evals.dataset.compaction import CompactionCase
from evals.runner.judge import SKIPPED, Item, Rubric, judge_for
from evals.runner.outcome import NOW, Outcome
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from pipeline.compaction import Compacted, compact_if_due
from pipeline.domain import Role, Usage
from pipeline.errors import ConverseError
from pipeline.providers import ExtractiveSummarizer, Summarizer
from pipeline.providers.claude import cost, total_cost
from pipeline.settings import Settings
from pipeline.store import add_turn

THRESHOLD_TOKENS = 150  # under the setting's floor on purpose: see the module docstring
KEEP_TURNS = 2  # the fewest the setting allows: the items to keep are in the folded turns
DEFAULT_VARIANT = "personal_assistant"  # the setting's default


def case_settings(case: CompactionCase) -> Settings:
    """The settings a case compacts under, whatever the environment holds (validated, then
    the threshold lowered past its floor)."""
    checked = Settings(
        compaction_keep_turns=KEEP_TURNS,
        compaction_variant=case.variant or DEFAULT_VARIANT,
        compaction_instructions=case.instructions,
        compaction_instructions_file=None,
    )
    return checked.model_copy(update={"compaction_threshold_tokens": THRESHOLD_TOKENS})


def transcript(case: CompactionCase) -> str:
    """The conversation as the judge reads it."""
    return "\n".join(
        f"{case.person}: {t.operator}" if t.operator is not None else f"Companion: {t.companion}"
        for t in case.turns
        if t.compact is None
    )


def items_of(case: CompactionCase) -> list[Item]:
    """The required items, each named by its first alternative."""
    return [Item(kind, alternatives[0]) for kind, alternatives in case.expect.items()]


class _Played:
    """One case's conversation in the sandbox store, and its compactions as they happen."""

    def __init__(self, case: CompactionCase, bound: Bound, sandbox: Sandbox) -> None:
        self.case = case
        self.store = sandbox.store
        self.person, _ = sandbox.seeded([], [], [], NOW, name=case.person)
        self.summarizer: Summarizer = bound.summarizer or ExtractiveSummarizer()
        self.library = bound.library
        self.lexicon = bound.lexicon
        self.settings = case_settings(case)
        self.now = NOW
        self.last_turn_id = 0
        self.compactions: list[Compacted] = []
        self.where: list[int] = []  # after which turn each compaction ran

    def say(self, role: Role, text: str) -> None:
        """Store one turn a minute after the one before."""
        self.now += timedelta(minutes=1)
        with self.store.write() as session:
            turn = add_turn(
                session,
                person_id=self.person.id,
                engagement_id=None,
                role=role,
                content=text,
                intent="general_conversation",
                channel="eval",
                created_at=self.now,
            )
        self.last_turn_id = turn.id

    def compact(self, after_turn: int) -> None:
        """Compact as the pipeline does after a turn; a compaction that is not due is an error
        of the case (it would score a summary that never changed)."""
        done = compact_if_due(
            self.store,
            person_id=self.person.id,
            engagement_id=None,
            last_turn_id=self.last_turn_id,
            summarizer=self.summarizer,
            library=self.library,
            settings=self.settings,
            now=self.now,
            lexicon=self.lexicon,
        )
        if done is None:
            raise ConverseError(
                f"no compaction after turn {after_turn}: the turns since the last one are under "
                f"{THRESHOLD_TOKENS} tokens",
                "lengthen the conversation before this point, or move the `compact` mark",
            )
        self.compactions.append(done)
        self.where.append(after_turn)


def _record(done: Compacted, after_turn: int) -> dict[str, Any]:
    return {
        "after_turn": after_turn,
        "folded_turns": done.folded_turns,
        "summarizer": done.method,
        "measured_by": done.measured_by,
    }


def run_compaction(case: CompactionCase, bound: Bound, sandbox: Sandbox) -> Outcome:
    """Play the turns, compact at each mark and at the end, then grade the newest summary."""
    played = _Played(case, bound, sandbox)
    started = time.perf_counter()
    said = 0
    try:
        for turn in case.turns:
            if turn.compact is not None:
                played.compact(said)
                continue
            said += 1
            if turn.operator is not None:
                played.say(Role.OPERATOR, turn.operator)
            else:
                played.say(Role.COMPANION, turn.companion or "")
        played.compact(said)
    except ConverseError as exc:
        return _outcome(played, bound, started, error=f"{type(exc).__name__}: {exc.one_line()}")
    final = played.compactions[-1]
    judge = judge_for(played.summarizer, bound.library)
    if judge is None:
        return _outcome(played, bound, started, rubric={"skipped": SKIPPED})
    items = items_of(case)
    try:
        graded = judge.grade(transcript(case), final.summary, items)
    except ConverseError as exc:
        return _outcome(
            played, bound, started, error=f"rubric: {type(exc).__name__}: {exc.one_line()}"
        )
    return _outcome(played, bound, started, rubric=graded.as_dict(items), graded=graded)


def _outcome(
    played: _Played,
    bound: Bound,
    started: float,
    *,
    error: str | None = None,
    rubric: dict[str, Any] | None = None,
    graded: Rubric | None = None,
) -> Outcome:
    done = played.compactions
    summary = done[-1].summary if done else ""
    method = done[-1].method if done else played.summarizer.name
    used = [c.prompt_ref for c in done] + [graded.ref if graded is not None else None]
    refs = {(r.family, r.version, r.sha256): r for r in used if r is not None}
    usage = Usage()
    costs: list[float | None] = []
    for c in done:
        usage = usage + c.usage
        # "claude <model>" is priced; the extractive and embedded summarizers cost nothing
        costs.append(cost(c.method.removeprefix("claude "), c.usage))
    if graded is not None:
        usage = usage + graded.usage
        costs.append(cost(graded.model, graded.usage))
    got: dict[str, Any] = {
        "summary": summary,
        "summarizer": method,
        "variant": played.settings.compaction_variant,
        "custom_instructions": bool(played.case.instructions),
        "compactions": [_record(c, at) for c, at in zip(done, played.where, strict=True)],
        "held_facts": [f for c in done for f in c.held_facts],
    }
    if rubric is not None:
        got["rubric"] = rubric
    return Outcome(
        got=got,
        error=error,
        model=method,
        prompt_refs=tuple(refs.values()),
        usage=usage,
        latency_ms=(time.perf_counter() - started) * 1000,
        cassette=bound.cassette,
        cost_usd=total_cost(costs),
    )
