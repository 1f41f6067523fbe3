"""Hostile arguments to the MCP tools: ids past 64 bits and NUL in text are refused by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from pipeline.english import ENGLISH
from pipeline.mcp.server import build_server
from pipeline.mcp.tools import Person
from pipeline.prompting import default_library
from pipeline.store import open_store, upgrade
from pipeline.store.people import create_person

HUGE = 2**63


@pytest.fixture
def ana(tmp_path: Path) -> Person:
    url = f"sqlite:///{tmp_path / 'mcp.db'}"
    upgrade(url)
    store = open_store(url)
    with store.write() as session:
        person_id = create_person(session, "ana").id
    return Person(store, person_id, default_library(), None, None, "ana", lexicon=ENGLISH)


def _call(me: Person, tool: str, arguments: dict[str, Any]) -> str:
    async def call() -> str:
        async with Client(build_server(me, "ana")) as client:
            result = await client.call_tool(tool, arguments)
        assert result.is_error, result.content
        return " ".join(getattr(c, "text", "") for c in result.content)

    return anyio.run(call)


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("close_conversation", {"conversation_id": HUGE}),
        ("get_conversation_archive", {"conversation_id": HUGE}),
        ("get_memory_preview", {"conversation_id": HUGE}),
        ("resume_conversation", {"conversation_id": HUGE}),
        ("explain_classification", {"turn_id": HUGE}),
        ("edit_memory", {"memory_id": HUGE, "narrative": "x"}),
        ("confirm_memory", {"memory_id": HUGE}),
    ],
)
def test_an_id_past_64_bits_is_refused_by_name(ana: Person, tool: str, arguments: dict) -> None:
    said = _call(ana, tool, arguments)
    (name,) = arguments.keys() - {"narrative"}
    assert name in said and "less than or equal to" in said, said


@pytest.mark.parametrize(
    ("tool", "arguments", "what"),
    [
        ("edit_memory", {"memory_id": 1, "narrative": "a\x00b"}, "the narrative"),
        ("search_memories", {"query": "a\x00b"}, "the query"),
        ("get_reasoning_context", {"query": "a\x00b"}, "the query"),
        ("confirm_memory", {"memory_id": 1, "edited_narrative": "a\x00b"}, "the narrative"),
        ("get_open_threads", {"destination": "a\x00b"}, "the destination"),
    ],
)
def test_nul_in_text_is_refused_as_the_cli_refuses_it(
    ana: Person, tool: str, arguments: dict, what: str
) -> None:
    assert f"{what} contains a NUL character" in _call(ana, tool, arguments)
