"""Everything stored about one person, with its history: `converse memory export`.

Personal facts and every project's notes, each with every field the store keeps (soft-deleted
and retracted ones included) and its history oldest first; an erased or purged assertion
appears by its number with its history, whose text erasure removed. Then the memories closed
conversations left (Your Story's and each project's, drafts and confirmed, with their
entities, deltas and the narrative as extracted beside an edited one).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.domain import Assertion, Engagement, HistoryEntry, Person
from pipeline.memory.who import who
from pipeline.store import assertions as repo
from pipeline.store.history import history_of_engagement
from pipeline.store.memories import memories_of
from pipeline.store.people import list_projects

FORMAT_VERSION = 1


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _change(entry: HistoryEntry) -> dict[str, Any]:
    return {
        "op": entry.op.value,
        "actor": entry.actor.value,
        "at": entry.created_at.isoformat(),
        "old_content": entry.old_content,
        "new_content": entry.new_content,
        "old_force": entry.old_force.value if entry.old_force else None,
        "new_force": entry.new_force.value if entry.new_force else None,
        "detail": entry.detail,
    }


def _assertion(a: Assertion, history: list[HistoryEntry]) -> dict[str, Any]:
    return {
        "number": a.display_number,
        "content": a.content,
        "force": a.force.value,
        "actor": a.actor.value,
        "retraction_rationale": a.retraction_rationale,
        "created_at": _when(a.created_at),
        "updated_at": _when(a.updated_at),
        "last_accessed_at": _when(a.last_accessed_at),
        "importance": a.importance,
        "pinned": a.pinned,
        "category": a.category,
        "soft_deleted_at": _when(a.deleted_at),
        "history": [_change(h) for h in history],
    }


def _shelf(session: Session, engagement_id: int) -> list[dict[str, Any]]:
    """Every assertion of the engagement, and every erased one known from its history,
    by number."""
    stored = {
        a.display_number: a
        for a in repo.list_assertions(session, engagement_id, include_deleted=True)
    }
    history = history_of_engagement(session, engagement_id)
    out: list[dict[str, Any]] = []
    for number in sorted({*stored, *history}):
        changes = history.get(number, [])
        if number in stored:
            out.append(_assertion(stored[number], changes))
        else:
            out.append({"number": number, "erased": True, "history": [_change(h) for h in changes]})
    return out


def _project(session: Session, project: Engagement) -> dict[str, Any]:
    return {"name": project.name, "seed": project.seed, "notes": _shelf(session, project.id)}


def export_person(session: Session, person: Person) -> dict[str, Any]:
    """The person's personal memory, project notes (each with its history) and the memories
    closed conversations left."""
    personal = _shelf(session, person.personal_engagement_id or -1)
    memories = memories_of(session, person.id)
    return {
        "format": FORMAT_VERSION,
        "person": person.name,
        "exported_at": utcnow().isoformat(),
        "personal": personal,
        "projects": [_project(session, p) for p in list_projects(session, person)],
        "conversation_memories": [m.model_dump(mode="json") for m in memories],
    }


def as_json(data: dict[str, Any]) -> str:
    """The export as JSON text (UTF-8, indented, ending with a newline)."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _md_text(text: str | None, erased: bool) -> str:
    if text is None:
        return "(text erased)" if erased else "—"
    return _md(text)


def _md(text: str) -> str:
    """Stored text inside inline code, so Markdown never reads it as markup (runs of spaces
    and line breaks become one space: the JSON export keeps the text exactly)."""
    longest = 0
    run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{' '.join(text.split())}{pad}{fence}"


def _md_change(change: dict[str, Any]) -> str:
    parts = [f"{change['at']} {change['op']} by {who(change['actor'])}"]
    erased = bool(change["detail"].get("erased"))
    # An erased row held content when it was an ADD or a content change (no force change).
    held_content = erased and (change["op"] == "ADD" or not change["old_force"])
    if change["old_content"] is not None or change["new_content"] is not None or held_content:
        before = _md_text(change["old_content"], erased and change["op"] != "ADD")
        parts.append(f"{before} → {_md_text(change['new_content'], erased)}")
    if change["old_force"] or change["new_force"]:
        parts.append(f"{change['old_force'] or '—'} → {change['new_force'] or '—'}")
    detail = change["detail"]
    if detail:
        parts.append(_md(json.dumps(detail, ensure_ascii=False, sort_keys=True)))
    return "; ".join(parts)


def _md_shelf(items: list[dict[str, Any]], tag: str) -> list[str]:
    lines: list[str] = []
    if not items:
        return ["Nothing stored.", ""]
    for item in items:
        if item.get("erased"):
            lines.append(f"- **{tag}{item['number']}** (erased)")
        else:
            state = item["force"]
            if item["soft_deleted_at"]:
                state += f", set aside {item['soft_deleted_at']}"
            if item["pinned"]:
                state += ", pinned"
            lines.append(
                f"- **{tag}{item['number']}** {_md(item['content'])} ({state}; "
                f"{item['category']}; importance "
                f"{item['importance']}; last used {item['last_accessed_at']})"
            )
        lines.extend(f"  - {_md_change(c)}" for c in item["history"])
    lines.append("")
    return lines


def as_markdown(data: dict[str, Any]) -> str:
    """The export as a Markdown document."""
    lines = [
        f"# Memory of {_md(data['person'])}",
        "",
        f"Exported {data['exported_at']} (format {data['format']}).",
        "",
        "## Personal memory",
        "",
        *_md_shelf(data["personal"], "#"),
    ]
    for project in data["projects"]:
        lines += [f"## Project {_md(project['name'])}", "", *_md_shelf(project["notes"], "notes#")]
    lines += ["## Conversation memories", "", *_md_memories(data["conversation_memories"])]
    return "\n".join(lines).rstrip("\n") + "\n"


def _md_memories(memories: list[dict[str, Any]]) -> list[str]:
    if not memories:
        return ["Nothing stored.", ""]
    lines: list[str] = []
    for m in memories:
        when = m["confirmed_at"] or m["created_at"]
        lines.append(
            f"- **memory {m['id']}** in {_md(m['destination']['name'])} ({m['status']}, {when}, "
            f"conversation {m['conversation_id']}): {_md(m['narrative'])}"
        )
        if m["narrative"] != m["original_narrative"]:
            lines.append(f"  - as extracted: {_md(m['original_narrative'])}")
        lines.extend(f"  - {e['kind']} ({e['status']}): {_md(e['text'])}" for e in m["entities"])
    lines.append("")
    return lines
