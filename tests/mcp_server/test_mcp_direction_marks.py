"""Text an MCP client writes into memory is cleaned as chat cleans a message: direction
overrides (U+202E and the rest) and zero-width characters are removed before it is stored
(docs/reliability.md, "Bad bytes in text"), for edit_memory and confirm_memory's edit alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from pipeline.mcp.server import build_server
from tests.mcp_server.test_mcp_server import _data, _me, _seeded

HOSTILE = "Ana chose \u202eskao\u202c cabinets\u2066 from\u200b Dana\u2069"
CLEAN = "Ana chose skao cabinets from Dana"


@pytest.mark.parametrize(
    ("tool", "argument"), [("edit_memory", "narrative"), ("confirm_memory", "edited_narrative")]
)
def test_direction_overrides_are_stripped_from_narratives(tmp_path: Path, tool, argument):
    store = _seeded(f"sqlite:///{tmp_path / 'mcp.db'}")
    ana = _me(store, "ana", None)

    async def scenario() -> Any:
        async with Client(build_server(ana, "ana")) as client:
            active = _data(await client.call_tool("get_active_conversation", {}))
            preview = _data(
                await client.call_tool("close_conversation", {"conversation_id": active["id"]})
            )
            (draft,) = preview["memories"]
            said = await client.call_tool(tool, {"memory_id": draft["id"], argument: HOSTILE})
            return _data(said)

    done = anyio.run(scenario)
    memory = done[0] if isinstance(done, list) else done
    assert memory["narrative"] == CLEAN
    with store.read() as session:
        from pipeline.store.memories import memory_row

        assert memory_row(session, ana.person_id, memory["id"]).narrative == CLEAN
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("mcp.db*"))
    assert "\u202e".encode() not in raw and "\u2066".encode() not in raw
    store.dispose()
