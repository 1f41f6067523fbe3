"""memory.query as an MCP tool: the server's person only, the reader's allowlist enforced, a
bad argument refused in the CLI's words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from pipeline.domain import ActorKind, NormativeForce
from pipeline.english import ENGLISH
from pipeline.mcp.server import build_server
from pipeline.mcp.tools import Person
from pipeline.prompting import default_library
from pipeline.providers.local.model import MiniLMEmbedder
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.people import create_person
from tests.mcp_server.test_mcp_server import _data, _error


def _seeded(tmp_path: Path, embedder: MiniLMEmbedder) -> Person:
    store = open_store(f"sqlite:///{tmp_path / 'q.db'}")
    with store.write() as session:
        ana = create_person(session, "ana")
        bo = create_person(session, "bo")
        assert ana.personal_engagement_id and bo.personal_engagement_id
        for content, category in (
            ("Ana drinks green tea every morning", "preferences"),
            ("Ana ran the city marathon in May", "events"),
        ):
            repo.add_assertion(
                session,
                ana.personal_engagement_id,
                content,
                ActorKind.OPERATOR,
                NormativeForce.COMMITTED,
                category=category,
            )
        repo.add_assertion(
            session,
            bo.personal_engagement_id,
            "Bo drinks oolong tea daily",
            ActorKind.OPERATOR,
            NormativeForce.COMMITTED,
            category="preferences",
        )
    return Person(store, ana.id, default_library(), None, embedder, "ana", lexicon=ENGLISH)


def test_query_memory_answers_for_the_servers_person_only(
    tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    ana = _seeded(tmp_path, embedder)

    async def scenario() -> None:
        async with Client(build_server(ana, "ana")) as client:
            found: Any = _data(
                await client.call_tool("query_memory", {"query": "what tea do I drink"})
            )
            texts = [i["text"] for i in found["items"]]
            assert any("green tea" in t for t in texts)
            assert not any("oolong" in t for t in texts)  # bo's fact never reaches ana
            only_events = _data(await client.call_tool("query_memory", {"categories": ["events"]}))
            assert [i["text"] for i in only_events["items"]] == [
                "[events] Ana ran the city marathon in May"
            ]
            refused = await client.call_tool(
                "query_memory", {"agent": "stylist", "categories": ["events"]}
            )
            assert "events" in _error(refused)
            bad = await client.call_tool(
                "query_memory", {"importance_min": 0.9, "importance_max": 0.1}
            )
            assert "importance" in _error(bad)

    anyio.run(scenario)
