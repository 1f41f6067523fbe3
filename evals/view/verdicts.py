"""The Review page's three verdicts, saved through `converse review`'s own code and file.

A verdict is one of: the model was wrong (the failure stands), the expected label was wrong
(the answer was right), or the answer is accepted as good enough. The reviews file keeps
pass or fail, which is what reports and the release gate read; the kind leads the note, so
`converse report` shows it and nothing downstream has to learn a new field.
"""

from __future__ import annotations

from dataclasses import dataclass

from evals.report.reviews import MAX_NOTE, Review, Verdict, add_review, current_reviewer
from evals.runner.results import RunDir, RunError
from evals.settings import eval_settings
from evals.view.errors import ViewError
from pipeline.errors import InvalidMessage
from pipeline.text import check_text


@dataclass(frozen=True)
class Kind:
    """One verdict a reviewer can give, and the key that gives it."""

    name: str
    key: str
    verdict: Verdict
    meaning: str


KINDS = {
    k.name: k
    for k in (
        Kind("model error", "m", "fail", "the model answered wrongly: the failure stands"),
        Kind("label error", "l", "pass", "the expected answer was wrong: this answer is right"),
        Kind("accepted", "a", "pass", "the answer is acceptable: counted as a pass"),
    )
}


def reviewer() -> str:
    """Who reviews: $CONVERSE_REVIEWER, as for `converse review`, else the login name."""
    return eval_settings().reviewer or current_reviewer()


def kind_of(review_note: str) -> str:
    """The verdict kind a note starts with ("" for a verdict given on the command line)."""
    head = review_note.split(":", 1)[0].strip()
    return head if head in KINDS else ""


def save(run: RunDir, key: tuple[str, str, str], kind_name: str, note: str) -> Review:
    """Append the verdict to the run's reviews.jsonl (as `converse review` does)."""
    kind = KINDS.get(kind_name)
    if kind is None:
        raise ViewError(400, f"{kind_name!r} is not a verdict", "use " + ", ".join(KINDS))
    note = note.strip()
    if len(note) > MAX_NOTE:
        raise ViewError(400, f"the note is {len(note):,} characters", f"keep it to {MAX_NOTE:,}")
    try:
        check_text(note, "the note")
        who = reviewer()
        check_text(who, "the reviewer")
    except InvalidMessage as exc:
        raise ViewError(400, exc.message, exc.hint) from None
    suite, case, provider = key
    text = f"{kind.name}: {note}" if note else kind.name
    try:
        return add_review(
            run, case, kind.verdict, text, suite=suite, provider=provider, reviewer=who
        )
    except RunError as exc:
        raise ViewError(409, exc.message, exc.hint) from None
