"""Deterministic replies written from the operation result, in the voice of the instructions.

Not a language model: the local and scripted responders use these so the pipeline runs
offline with replies that say exactly what happened. An intent declared since the release
gives its reply on its spec (`IntentSpec.reply`), read here before the released intents'.
"""

from __future__ import annotations

import shlex
from typing import Any

from pipeline.actions import Action
from pipeline.domain import RouteResult
from pipeline.intents.taxonomy import INTENTS


def as_clause(fact: str) -> str:
    """'You're allergic to shellfish' -> "that you're allergic to shellfish"."""
    fact = fact.strip().rstrip(".")
    first = fact.split(" ", 1)[0].lower() if fact else ""
    if first in {"you", "you're", "youre", "your", "you've", "you'd", "you'll"}:
        return "that " + fact[0].lower() + fact[1:]
    return f"“{fact}”"


# As the README promises: #N is always a personal fact, notes#N a project's note, in replies
# as in every command, so a number in a reply names one thing inside a project too.
PERSONAL = "#"
NOTE = "notes#"


def _numbered(items: list[dict[str, Any]], tag: str = PERSONAL) -> str:
    return "; ".join(f"{tag}{i['display_number']} {i['content']}" for i in items)


def _facts_list(items: list[dict[str, Any]]) -> str:
    return "; ".join(f"{n}. {i['content']}" for n, i in enumerate(items, start=1))


def _clauses(items: list[dict[str, Any]]) -> str:
    """Facts as one clause list: "that you ..., that you ... and that your ..."."""
    clauses = [as_clause(str(i["content"])) for i in items]
    return " and ".join([", ".join(clauses[:-1]), clauses[-1]] if len(clauses) > 1 else clauses)


def _several(data: dict[str, Any]) -> str:
    """Replies to an offer of several facts at once (pipeline/intents/multi.py)."""
    action = data.get("action")
    committed = list(data.get("committed", []))
    declined = list(data.get("declined", []))
    if action == Action.COMMITTED_ALL:
        return (
            "Got it, I'll remember both."
            if len(committed) == 2
            else "Got it, I'll remember all of them."
        )
    if action == Action.DECLINED_ALL:
        return "Okay — I won't keep any of them."
    if action == Action.COMMITTED_SOME:
        return f"Got it, I'll remember {_clauses(committed)}, and leave out {_clauses(declined)}."
    facts = list(data.get("facts", []))
    text = f"I'd like to remember these {len(facts)}: {_facts_list(facts)}."
    if data.get("already_known"):
        text += f" (I already had {len(data['already_known'])} more.)"
    if data.get("left_out"):
        text += f" I keep at most {len(facts)} at a time; tell me the rest again later."
    return text + " Keep all of them? You can also name the ones to keep or leave out."


def _remember(data: dict[str, Any]) -> str:
    if data.get("action") in (
        Action.HELD_MANY,
        Action.COMMITTED_ALL,
        Action.COMMITTED_SOME,
        Action.DECLINED_ALL,
    ):
        return _several(data)
    fact = str(data.get("personal_fact", ""))
    if data.get("action") == Action.COMMITTED:
        if data.get("cross_promoted"):
            return f"Done — I'll remember {as_clause(fact)} across all your projects."
        return "Got it, I'll remember that."
    if data.get("action") == Action.ALREADY_KNOWN:
        return f"I already have {as_clause(fact)} — nothing new to keep."
    if data.get("action") == Action.REFINED:
        return f"Updated — I'll remember {as_clause(fact)} instead. Is that right?"
    if data.get("correction_unread"):
        held = fact.strip().rstrip(".")
        return f"Sorry, I didn't catch the change. I still have “{held}” — what should it say?"
    return f"I'll remember {as_clause(fact)} — is that right?"


def _forget(data: dict[str, Any]) -> str:
    action = data.get("action")
    if action == Action.CONFIRM_RETRACTION:
        asked = f"You want me to stop using {as_clause(str(data['matched_fact']))}?"
        if data.get("asked_again"):
            return "That's the only one I found. " + asked
        return asked
    if action == Action.RETRACTED:
        number = data.get("assertion_display_number")
        # The command runs as printed once the person's name is in it (the handler may pass
        # it as `person`); otherwise NAME is the one word left to fill in.
        person = shlex.quote(str(data["person"])) if data.get("person") else "NAME"
        return (
            "Done — I've stopped using that. If you want it gone for good, it can be erased "
            f"permanently with `converse memory erase {number} --person {person}`."
        )
    if action == Action.KEPT:
        return "Okay, I'll keep it — nothing was forgotten."
    if action == Action.AMBIGUOUS:
        return (
            "I'm not sure which one you mean. Here's what I have: "
            f"{_numbered(list(data.get('candidates', [])))}. Which one?"
        )
    if data.get("nothing_described"):
        return "Okay — nothing is forgotten."
    offer = " Want me to list what I remember about you?" if data.get("stored_count") else ""
    return "I don't have anything matching that in my personal notes about you." + offer


def _knowledge(route: RouteResult) -> str:
    data = route.operation_data
    action = data.get("action")
    if route.intent == "add_knowledge":
        n = data["assertion_display_number"]
        return (
            f"Noted for this project as {NOTE}{n}: {data['knowledge']}. "
            f"Say “lock in {NOTE}{n}” to settle it."
        )
    if route.intent == "list_knowledge":
        items = list(data.get("items", []))
        if not items:
            return "Nothing is noted for this project yet."
        return (
            "Here's what this project has: "
            + "; ".join(f"{NOTE}{i['display_number']} {i['content']} ({i['force']})" for i in items)
            + "."
        )
    if route.intent == "commit_knowledge":
        if action == Action.COMMITTED:
            numbers = ", ".join(f"{NOTE}{i['display_number']}" for i in data["items"])
            return f"Settled: {numbers}."
        return "Nothing held matches that. Want me to list the project notes?"
    if route.intent == "retract_knowledge":
        if action == Action.CONFIRM_RETRACTION:
            item = data["item"]
            return (
                f"Remove {NOTE}{item['display_number']} “{item['content']}” from the project notes?"
            )
        if action == Action.KEPT:
            return "Okay, the note stays."
        if action == Action.RETRACTED:
            number = data["item"]["display_number"]
            return (
                f"Removed {NOTE}{number} from the project notes. Say “put {NOTE}{number} back” "
                "if you want it restored."
            )
        if action == Action.AMBIGUOUS:
            return f"Several notes match: {_numbered(list(data['candidates']), NOTE)}. Which one?"
        return "No project note matches that. Want me to list them?"
    if action == Action.FOUND:
        return _recalled(data)
    if data.get("everything"):
        return "I don't have anything stored about you yet."
    return "I don't find anything about that in my notes."


def _recalled(data: dict[str, Any]) -> str:
    items = list(data["items"])
    personal = [i for i in items if i.get("where", "personal") == "personal"]
    project = [i for i in items if i.get("where") == "project"]
    parts = []
    if personal:
        parts.append("About you: " + _numbered(personal) + ".")
    if project:
        parts.append("In this project: " + _numbered(project, NOTE) + ".")
    lead = "Here's what I know" if data.get("everything") else "Here's what I have"
    return f"{lead} — " + " ".join(parts)


def _restored(route: RouteResult) -> str:
    data = route.operation_data
    if data.get("action") == Action.RESTORED:
        item = data["item"]
        notes = route.intent == "retract_knowledge"
        where = "the project notes" if notes else "what I remember"
        tag = NOTE if notes else PERSONAL
        return f"Restored {tag}{item['display_number']} “{item['content']}” to {where}."
    if data.get("action") == Action.RESTORE_UNCLEAR:
        tag = NOTE if route.intent == "retract_knowledge" else PERSONAL
        return (
            f"Several things could be put back: {_numbered(list(data['candidates']), tag)}. Which?"
        )
    return "I can't find anything removed that matches that, so nothing was put back."


_ERRORS = {
    "needs_project": "That needs a project — open one and ask me again there.",
    "no_personal_engagement": "Your personal memory isn't set up, so I can't do that right now.",
    "no_personal_fact": "What would you like me to remember about you?",
}


def compose_reply(route: RouteResult) -> str:
    """The reply for a route result: its first act's, then each later act's."""
    return " ".join([_composed(route), *(_later(r) for r in route.also)])


def _later(route: RouteResult) -> str:
    if route.operation_data.get("action") == Action.STATUS_NOTED:
        return f"Noted: {route.operation_data['text']}."
    return _composed(route)


def _which(data: dict[str, Any]) -> str:
    items = " or ".join(
        f"{PERSONAL}{i['display_number']} {as_clause(str(i['content']))}" for i in data["items"]
    )
    return f"Which one do you mean: {items}? I've left both as they were."


def _composed(route: RouteResult) -> str:
    data = route.operation_data
    if "error" in data:
        return _ERRORS.get(str(data["error"]), "Sorry, I couldn't do that — nothing was changed.")
    spec = INTENTS.get(route.intent)
    if spec is not None and spec.reply is not None:
        return spec.reply(route)
    if str(data.get("action", "")).startswith("restore"):
        return _restored(route)
    if route.intent == "remember_about_me":
        return _remember(data)
    if route.intent == "forget_about_me":
        return _forget(data)
    if data.get("action") == Action.NOT_AVAILABLE:
        return f"I can't {data['capability']} yet — that's not available."
    if route.intent == "describe_capabilities":
        return "Here's what I can do: " + "; ".join(data["capabilities"]) + "."
    if route.intent == "general_conversation":
        if data.get("action") == Action.REJECTED:
            return "No problem — I won't remember that."
        if data.get("action") == Action.HEARTBEAT:
            follow = str(data.get("follow_up") or "").rstrip(".")
            return f"Just checking in — last time you said: {follow}. How is it going?"
        if data.get("action") == Action.WHICH_ITEM:
            return _which(data)
        if data.get("action") == Action.STATUS_NOTED:
            return f"Noted: {data['text']}."
        if data.get("action") == Action.KEPT_IN_PROJECT:
            return (
                "Okay — I'll keep that to this project only, as "
                f"{NOTE}{data['assertion_display_number']}."
            )
        return "I'm here. (The offline responder only reports what changed in memory.)"
    return _knowledge(route)
