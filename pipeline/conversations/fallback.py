"""The compression stages without a model: patterns over what the person said, kept
deliberately conservative. Used by the `local` provider and when a model's answers are
unusable, and always labelled `deterministic (no model)`; a real baseline, never presented
as a model's answer."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from pydantic import BaseModel

from pipeline.conversation_models import (
    ENTITY_KINDS,
    MAX_ITEMS,
    MAX_SENTENCES,
    OPEN_KINDS,
    YOUR_STORY,
    BlockerCleared,
    Decision,
    Entities,
    Insight,
    OpenItem,
    PersonMention,
    QuestionOpened,
    QuestionResolved,
    Resolution,
    RoutingAnswer,
    Task,
    WaitingOn,
)
from pipeline.english import closure as en
from pipeline.english.voice import third_person

MAX_CLAUSE = 140


def clause(text: str) -> str:
    """A captured piece of a sentence as one clean line: no sentence-ending marks inside."""
    text = re.sub(r"[.!?…]+", ",", text).strip(" ,;:-\"'")
    return " ".join(text.split())[:MAX_CLAUSE].rstrip(" ,")


def sentences(turns: Sequence[tuple[str, str]]) -> list[str]:
    """What the person said, sentence by sentence, oldest first."""
    out: list[str] = []
    for role, content in turns:
        if role == "operator":
            out.extend(s.strip() for s in en.SENTENCES.split(content) if s.strip())
    return out


def _first(patterns: Sequence[re.Pattern[str]], sentence: str) -> re.Match[str] | None:
    for pattern in patterns:
        found = pattern.search(sentence)
        if found:
            return found
    return None


def _decision(m: re.Match[str]) -> Decision:
    parts = en.BECAUSE.split(m["x"], maxsplit=1)
    return Decision(what=clause(parts[0]), why=clause(parts[1]) if len(parts) > 1 else "")


# In order: the first kind whose pattern matches a sentence takes it.
_RULES: tuple[tuple[str, Sequence[re.Pattern[str]], Callable[[re.Match[str]], BaseModel]], ...] = (
    ("decisions", en.DECISIONS, _decision),
    ("tasks", (en.DONE,), lambda m: Task(description=clause(m["x"]), status="done", priority="")),
    (
        "waiting_on",
        en.WAITING,
        lambda m: WaitingOn(who=m["who"], what=clause(m["x"]) or "a reply", since=""),
    ),
    ("questions_opened", en.OPEN_QUESTIONS, lambda m: QuestionOpened(question=clause(m["x"]))),
    (
        "questions_resolved",
        (en.RESOLVED,),
        lambda m: QuestionResolved(question=clause(m["x"]), answer=""),
    ),
    ("blockers_cleared", en.BLOCKERS, lambda m: BlockerCleared(what=clause(m["x"]), unblocks="")),
    ("insights", (en.INSIGHTS,), lambda m: Insight(text=clause(m["x"]))),
    ("tasks", en.TASKS, lambda m: Task(description=clause(m["x"]), status="open", priority="")),
)


def entities(turns: Sequence[tuple[str, str]]) -> Entities:
    """Entities from the person's own statements, by pattern; one kind per sentence. A
    question yields at most an open question."""
    found: dict[str, list[BaseModel]] = {kind: [] for kind in ENTITY_KINDS}
    seen: set[tuple[str, str]] = set()

    def keep(kind: str, item: BaseModel) -> None:
        key = (kind, json.dumps(item.model_dump()).casefold())
        if key not in seen and len(found[kind]) < MAX_ITEMS:
            seen.add(key)
            found[kind].append(item)

    for sentence in sentences(turns):
        if en.QUESTION.search(sentence):
            found_open = _first(en.OPEN_QUESTIONS, sentence)
            if found_open is not None and clause(found_open["x"]):
                keep("questions_opened", QuestionOpened(question=clause(found_open["x"])))
            continue
        for mention in en.PEOPLE.finditer(sentence):
            person = PersonMention(
                name=mention["name"].capitalize(), context="", relation=mention["rel"].lower()
            )
            keep("people", person)
        for kind, patterns, build in _RULES:
            match = _first(patterns, sentence)
            if match is None or (not clause(match["x"]) and kind != "waiting_on"):
                continue
            item = build(match)
            keep(kind, item)
            if isinstance(item, WaitingOn) and item.who.casefold() not in en.PRONOUNS:
                keep("people", PersonMention(name=item.who, context="", relation=""))
            break
    return Entities.model_validate({k: [i.model_dump() for i in v] for k, v in found.items()})


def narrative(found: Entities, turns: Sequence[tuple[str, str]], operator_name: str) -> str:
    """Two to four sentences built from the entities; what the person said when there are
    too few of them. The person's words are retold in the third person (voice.py)."""
    name = operator_name.strip() or "The person"
    said: list[str] = []
    if found.decisions:
        whats = " and ".join(d.what for d in found.decisions[:2])
        said.append(f"{name} decided: {whats}.")
    done = [t.description for t in found.tasks if t.status == "done"]
    todo = [t.description for t in found.tasks if t.status != "done"]
    if done:
        said.append(f"Done: {'; '.join(done[:2])}.")
    if todo:
        said.append(f"Still to do: {'; '.join(todo[:2])}.")
    if found.waiting_on:
        w = found.waiting_on[0]
        if w.who.casefold() in en.PRONOUNS:  # a promise: "She'll email me the date"
            said.append(f"{name} is waiting for someone to {w.what}.")
        else:
            said.append(f"{name} is waiting on {w.who} for {w.what}.")
    if found.questions_opened:
        said.append(f"Open question: {found.questions_opened[0].question}.")
    if found.blockers_cleared:
        said.append(f"No longer blocked: {found.blockers_cleared[0].what}.")
    if found.insights:
        said.append(f"{name} realised {found.insights[0].text}.")
    if len(said) < 2:
        words = sentences(turns)
        longest = clause(max(words, key=len)) if words else ""
        if longest:
            said.append(f"{name} said: {longest}.")
    if len(said) < 2:
        said.append("Nothing was decided or left open.")
    return third_person(" ".join(said[:MAX_SENTENCES]))


def _words(text: str) -> set[str]:
    return {
        w for w in re.findall(r"[a-z0-9']+", text.casefold()) if w not in en.STOP and len(w) > 2
    }


RESOLVE_OVERLAP = 0.6


def resolutions(open_items: Sequence[OpenItem], found: Entities) -> list[Resolution]:
    """Open items this conversation plainly settled: most of the item's words recur in an
    answered question, a cleared blocker, a finished task or a decision. Conservative."""
    settling = [
        *(f"{q.question} {q.answer}" for q in found.questions_resolved),
        *(b.what for b in found.blockers_cleared),
        *(t.description for t in found.tasks if t.status == "done"),
        *(d.what for d in found.decisions),
    ]
    out: list[Resolution] = []
    for item in open_items:
        if item.kind not in OPEN_KINDS:
            continue
        words = _words(item.text)
        if len(words) < 2:
            continue
        for text in settling:
            shared = words & _words(text)
            if len(shared) >= 2 and len(shared) / len(words) >= RESOLVE_OVERLAP:
                out.append(Resolution(entity_id=item.id, reason=f"settled: {clause(text)}"))
                break
    return out


def routing(
    destinations: Sequence[str],
    turns_by_project: dict[str, int],
    narrative_text: str,
    *,
    without_project: int = 0,
) -> RoutingAnswer:
    """The project most of the turns were in (of all the turns, those outside any project
    too); else a project the narrative names; else Your Story."""
    total = sum(turns_by_project.values()) + without_project
    projects = [d for d in destinations if d != YOUR_STORY]
    if turns_by_project:
        name, count = max(turns_by_project.items(), key=lambda kv: kv[1])
        if name in projects and count >= 2 and count / total >= 0.5:
            return RoutingAnswer(
                destination=name,
                confidence=round(count / total, 2),
                reasoning=f"{count} of {total} turns were in the project {name}",
            )
    text = narrative_text.casefold()
    named = [p for p in projects if p.casefold() in text]
    if len(named) == 1:
        return RoutingAnswer(
            destination=named[0],
            confidence=0.5,
            reasoning=f"the memory names the project {named[0]}",
        )
    return RoutingAnswer(
        destination=YOUR_STORY,
        confidence=0.6,
        reasoning="no project dominates the conversation",
    )
