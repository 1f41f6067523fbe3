"""A provider's reading against the gold reading, field by field (docs/evals.md, "Reading
accuracy").

For each message with a gold reading, the provider's acts (`ClassifiedIntent.all_acts()`) are
aligned with the gold acts in order: the first with the first, and so on. Where one side has
fewer acts, each act it lacks is compared with an empty act, so a missing act counts against
every field its partner sets, and an extra act against the intent and whatever it sets. Per
message, each field is one verdict: right when every aligned pair agrees on it.

- `intent` is scored on every message: right when both sides have as many acts, with the same
  intents in the same order.
- `relation`, `answers`, `chosen`, `project_only`, `question`, `restore` and `status` (the
  topic, keyed as the store keys it) are scored on a message where either side sets them;
  `unrelated` and no relation are the same reading (nothing pending is answered).
- `profile_field` and `spans` are scored where the gold reading sets them: a gold reading
  leaves them out where they do not matter (a plain "yes" needs no fact, and a provider that
  repeats the offered fact there is not wrong).
- `spans` are the act's parameters and its `corrected` text. Two spans agree by containment:
  the content words of one all appear in the other (either way round), case-insensitively.
  Content words are the runs of letters, digits and apostrophes, each without a trailing
  "'s", "'re", "'ve", "'d", "'ll" or "'m" ("birthday's" is "birthday"; "doesn't" stays), less
  the English words that name nothing (pipeline/english/lexicon.py, `stop_words`) and the
  person's pronouns ("you", "your", "I'm", ...), since gold facts are addressed to the person
  and a provider may keep the first person. A span with no content word agrees only with
  another such span.

A field that neither side sets on a message (or, for `profile_field` and `spans`, that the gold
reading does not set) is not scored there, so a rarely used field's accuracy is not inflated
by the messages where nobody used it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.english import ENGLISH
from pipeline.memory.status import topic_key
from pipeline.reading import Act, Relation

FIELDS = (
    "intent",
    "relation",
    "answers",
    "chosen",
    "project_only",
    "question",
    "restore",
    "profile_field",
    "status",
    "spans",
)
GOLD_SET_ONLY = frozenset({"profile_field", "spans"})
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# The person's pronouns: gold facts are addressed to the person, a provider may keep "I".
_PERSON = frozenset(
    {
        *("i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself"),
        *("you", "you're", "you've", "you'd", "you'll", "your", "yours", "yourself"),
    }
)
_CLITIC = re.compile(r"'(?:s|re|ve|d|ll|m)$")
_EMPTY = Act(intent="")


def content_words(text: str) -> frozenset[str]:
    """The words of a span that carry its content (see the module's docstring)."""
    words = [w.replace("’", "'") for w in _WORD.findall(text.casefold())]
    # "birthday's" is "birthday" (is, or whose); a negation ("doesn't") stays a word of its own
    words = [w if w in _PERSON else _CLITIC.sub("", w) for w in words]
    return frozenset(w for w in words if w not in ENGLISH.stop_words and w not in _PERSON)


def spans_agree(gold: str, got: str) -> bool:
    """Whether two spans agree by containment of their content words, either way round."""
    a, b = content_words(gold), content_words(got)
    if not a or not b:
        return not a and not b
    return a <= b or b <= a


def _spans(act: Act) -> dict[str, str]:
    found = {k: v for k, v in act.params.items() if v.strip()}
    if act.reading is not None and act.reading.corrected.strip():
        found["corrected"] = act.reading.corrected
    return found


def _value(act: Act, field: str) -> Any:
    """The act's value of a field (None, False or () when it does not set it)."""
    reading = act.reading
    if field == "relation":
        relation = reading.relation if reading is not None else None
        return None if relation in (None, Relation.UNRELATED) else relation.value
    if field == "answers":
        return reading.answers if reading is not None else None
    if field == "chosen":
        return tuple(reading.chosen) if reading is not None else ()
    if field == "project_only":
        return reading.project_only if reading is not None else False
    if field == "profile_field":
        return act.profile_field.value if act.profile_field is not None else None
    if field == "status":
        return topic_key(act.status.topic, ENGLISH.topic_openers) if act.status else None
    return getattr(act, field)


def _spans_verdict(gold: Act, got: Act, why: list[str], at: str) -> bool | None:
    wanted = _spans(gold)
    if not wanted:
        return None
    have = _spans(got)
    ok = True
    for name, text in wanted.items():
        found = have.get(name)
        if found is None or not spans_agree(text, found):
            ok = False
            why.append(f"{at}{name}: {found!r}, gold {text!r}")
    return ok


def _field_verdict(field: str, pairs: Sequence[tuple[Act, Act]], why: list[str]) -> bool | None:
    verdict: bool | None = None
    for k, (gold, got) in enumerate(pairs):
        at = f"act {k + 1} " if len(pairs) > 1 else ""
        if field == "spans":
            one = _spans_verdict(gold, got, why, at)
        else:
            want, have = _value(gold, field), _value(got, field)
            if not want and (field in GOLD_SET_ONLY or not have):
                continue
            one = want == have
            if not one:
                why.append(f"{at}{field}: {have!r}, gold {want!r}")
        if one is not None:
            verdict = one if verdict is None else verdict and one
    return verdict


def message_verdicts(gold: Sequence[Act], got: Sequence[Act]) -> tuple[dict[str, bool], list[str]]:
    """Per field, whether the provider's acts read the message as the gold acts do (fields not
    scored on this message are absent), and what differed, one line per difference."""
    size = max(len(gold), len(got))
    pairs = [
        (gold[k] if k < len(gold) else _EMPTY, got[k] if k < len(got) else _EMPTY)
        for k in range(size)
    ]
    why: list[str] = []
    intents_ok = [g.intent for g in gold] == [a.intent for a in got]
    if not intents_ok:
        why.append(f"intent: {[a.intent for a in got]}, gold {[g.intent for g in gold]}")
    verdicts: dict[str, bool] = {"intent": intents_ok}
    for field in FIELDS[1:]:
        verdict = _field_verdict(field, pairs, why)
        if verdict is not None:
            verdicts[field] = verdict
    return verdicts, why


def acts_of(record: Mapping[str, Any]) -> tuple[Act, ...]:
    """The provider's acts a transcript turn or a classify answer keeps (`acts`), else the one
    act its intent and parameters describe (rows written before acts were kept)."""
    raw = record.get("acts")
    if isinstance(raw, list) and raw:
        return tuple(Act.model_validate(a) for a in raw)
    intent = record.get("classified") or record.get("intent") or ""
    return (Act(intent=str(intent), params=dict(record.get("params") or {})),)
