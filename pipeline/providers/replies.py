"""Deterministic replies written from the operation result, in the voice of the instructions.

Not a language model: the local and scripted responders use these so the pipeline runs
offline with replies that say exactly what happened.
"""

from __future__ import annotations

from typing import Any

from pipeline.domain import RouteResult


def as_clause(fact: str) -> str:
    """'You're allergic to shellfish' -> "that you're allergic to shellfish"."""
    fact = fact.strip().rstrip(".")
    first = fact.split(" ", 1)[0].lower() if fact else ""
    if first in {"you", "you're", "youre", "your", "you've", "you'd", "you'll"}:
        return "that " + fact[0].lower() + fact[1:]
    return f"“{fact}”"


def _numbered(items: list[dict[str, Any]]) -> str:
    return "; ".join(f"#{i['display_number']} {i['content']}" for i in items)


def _remember(data: dict[str, Any]) -> str:
    fact = str(data.get("personal_fact", ""))
    if data.get("action") == "committed":
        return "Got it, I'll remember that."
    if data.get("action") == "refined":
        return f"Updated — I'll remember {as_clause(fact)} instead. Is that right?"
    return f"I'll remember {as_clause(fact)} — is that right?"


def _forget(data: dict[str, Any]) -> str:
    action = data.get("action")
    if action == "confirm_retraction":
        return f"You want me to stop using {as_clause(str(data['matched_fact']))}?"
    if action == "retracted":
        return (
            "Done — I've stopped using that. If you want it permanently erased, "
            "that option is available in your settings."
        )
    if action == "ambiguous":
        return (
            "I'm not sure which one you mean. Here's what I have: "
            f"{_numbered(list(data.get('candidates', [])))}. Which one?"
        )
    offer = " Want me to list what I remember about you?" if data.get("stored_count") else ""
    return "I don't have anything matching that in my personal notes about you." + offer


def _knowledge(route: RouteResult) -> str:
    data = route.operation_data
    action = data.get("action")
    if route.intent == "add_knowledge":
        n = data["assertion_display_number"]
        return (
            f"Noted for this project as #{n}: {data['knowledge']}. Say “lock in #{n}” to settle it."
        )
    if route.intent == "list_knowledge":
        items = list(data.get("items", []))
        if not items:
            return "Nothing is noted for this project yet."
        return (
            "Here's what this project has: "
            + "; ".join(f"#{i['display_number']} {i['content']} ({i['force']})" for i in items)
            + "."
        )
    if route.intent == "commit_knowledge":
        if action == "committed":
            numbers = ", ".join(f"#{i['display_number']}" for i in data["items"])
            return f"Settled: {numbers}."
        return "Nothing held matches that. Want me to list the project notes?"
    if route.intent == "retract_knowledge":
        if action == "retracted":
            number = data["item"]["display_number"]
            return f"Removed #{number} from the project notes (it can be restored)."
        if action == "ambiguous":
            return f"Several notes match: {_numbered(list(data['candidates']))}. Which one?"
        return "No project note matches that. Want me to list them?"
    if action == "found":
        return "Here's what I have: " + _numbered(list(data["items"])) + "."
    return "I don't find anything about that in my notes."


_ERRORS = {
    "needs_project": "That needs a project — open one and ask me again there.",
    "no_personal_engagement": "Your personal memory isn't set up, so I can't do that right now.",
}


def compose_reply(route: RouteResult) -> str:
    """The reply for a route result."""
    data = route.operation_data
    if "error" in data:
        return _ERRORS.get(str(data["error"]), "Sorry, I couldn't do that — nothing was changed.")
    if route.intent == "remember_about_me":
        return _remember(data)
    if route.intent == "forget_about_me":
        return _forget(data)
    if data.get("action") == "not_available":
        return f"I can't {data['capability']} yet — that's not available."
    if route.intent == "describe_capabilities":
        return "I can: " + "; ".join(data["capabilities"]) + "."
    if route.intent == "general_conversation":
        if data.get("action") == "rejected":
            return "No problem — I won't remember that."
        return "I'm here. (The offline responder only reports what changed in memory.)"
    return _knowledge(route)
