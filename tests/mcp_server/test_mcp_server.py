"""The MCP server, driven by the official SDK's own client: in process, over stdio (a real
subprocess) and over streamable HTTP (a real server on loopback)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from pipeline.conversations import get_active_conversation
from pipeline.english import ENGLISH
from pipeline.mcp.server import build_server
from pipeline.mcp.tools import Person
from pipeline.prompting import default_library
from pipeline.providers.local.model import MiniLMEmbedder
from pipeline.store import Store, open_store, upgrade
from pipeline.store.people import create_person, create_project, get_person
from tests.conversations.helpers import talk

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {
    "get_active_conversation",
    "close_conversation",
    "get_memory_preview",
    "confirm_memory",
    "resume_conversation",
    "search_memories",
    "get_open_threads",
    "get_your_story",
    "get_conversation_archive",
    "edit_memory",
    "get_reasoning_context",
    "explain_classification",
    "query_memory",
}


def _seeded(url: str) -> Store:
    upgrade(url)
    store = open_store(url)
    with store.write() as session:
        create_person(session, "ana")
        create_person(session, "ben")
        create_project(session, get_person(session, "ana"), "Kitchen renovation", "Cabinets")
    talk(
        store,
        "ana",
        "I decided to go with the oak cabinets instead of the white ones.",
        "I'm waiting on Dana for the countertop quote.",
        "I still need to order the sink by Friday.",
    )
    return store


def _me(store: Store, name: str, embedder: MiniLMEmbedder | None) -> Person:
    with store.read() as session:
        person_id = get_person(session, name).id
    return Person(store, person_id, default_library(), None, embedder, name, lexicon=ENGLISH)


def _data(result: Any) -> Any:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        found = result.structured_content
        return found.get("result", found) if isinstance(found, dict) else found
    return json.loads(result.content[0].text)


def _error(result: Any) -> str:
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_the_lifecycle_through_mcp_tools(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    store = _seeded(f"sqlite:///{tmp_path / 'mcp.db'}")
    ana = _me(store, "ana", embedder)
    ben = _me(store, "ben", embedder)

    async def scenario() -> None:
        async with Client(build_server(ana, "ana")) as client:
            listed = await client.list_tools()
            assert {t.name for t in listed.tools} == TOOLS
            active = _data(await client.call_tool("get_active_conversation", {}))
            conversation_id = active["id"]
            assert active["status"] == "active"

            preview = _data(
                await client.call_tool("close_conversation", {"conversation_id": conversation_id})
            )
            (draft,) = preview["memories"]
            assert draft["status"] == "draft"
            assert "oak" in draft["narrative"].lower()
            again = _data(
                await client.call_tool("get_memory_preview", {"conversation_id": conversation_id})
            )
            assert again["memories"][0]["id"] == draft["id"]

            kept = _data(
                await client.call_tool(
                    "confirm_memory",
                    {
                        "memory_id": draft["id"],
                        "destination": "Your Story",
                        "edited_narrative": "Ana chose oak cabinets; the countertop quote "
                        "from Dana is still to come.",
                    },
                )
            )
            assert kept[0]["status"] == "confirmed"
            assert kept[0]["original_narrative"] != kept[0]["narrative"]

            hits = _data(
                await client.call_tool("search_memories", {"query": "which cabinets did I pick"})
            )
            assert hits and hits[0]["memory"]["id"] == draft["id"]
            story = _data(await client.call_tool("get_your_story", {}))
            assert [m["id"] for m in story] == [draft["id"]]
            threads = _data(await client.call_tool("get_open_threads", {}))
            assert any("dana" in t["text"].lower() for t in threads)
            context = _data(
                await client.call_tool("get_reasoning_context", {"query": "countertop quote"})
            )
            assert "Dana" in context["text"]
            archive = _data(
                await client.call_tool(
                    "get_conversation_archive", {"conversation_id": conversation_id}
                )
            )
            assert archive[0]["role"] == "operator" and "oak" in archive[0]["content"]

            first_message = archive[0]["turn_id"]
            explained = _data(
                await client.call_tool("explain_classification", {"turn_id": first_message})
            )
            assert explained["message"] == archive[0]["content"]
            assert explained["influences"] == []  # nothing was remembered before it

            wrong = await client.call_tool("resume_conversation", {"conversation_id": 999})
            assert "999" in _error(wrong)
            bad = await client.call_tool("search_memories", {"query": "x", "limit": 0})
            assert bad.is_error
            bad_kind = await client.call_tool("get_open_threads", {"entity_type": "gossip"})
            assert "not an open kind" in _error(bad_kind)

        # Another person's server sees none of it, and cannot reach it by id.
        async with Client(build_server(ben, "ben")) as client:
            assert _data(await client.call_tool("get_your_story", {})) == []
            assert _data(await client.call_tool("search_memories", {"query": "oak cabinets"})) == []
            theirs = await client.call_tool(
                "edit_memory", {"memory_id": draft["id"], "narrative": "stolen"}
            )
            assert "no memory" in _error(theirs)

    anyio.run(scenario)
    assert get_active_conversation(store, ana.person_id) is None  # archived
    store.dispose()


def _env(url: str) -> dict[str, str]:
    return {**os.environ, "CONVERSE_DB_URL": url, "CONVERSE_PROVIDER": "local"}


def test_stdio_transport_serves_a_real_client(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stdio.db'}"
    _seeded(url).dispose()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "evals.cli", "mcp", "--person", "ana"],
        env=_env(url),
        cwd=str(ROOT),
    )

    async def scenario() -> None:
        async with Client(params) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            active = _data(await client.call_tool("get_active_conversation", {}))
            assert active["message_count"] == 6

    anyio.run(scenario)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'http.db'}"
    _seeded(url).dispose()
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "evals.cli",
            "mcp",
            "--person",
            "ana",
            "--transport",
            "http",
            "--port",
            str(port),
        ],
        env=_env(url),
        cwd=str(ROOT),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_streamable_http_transport_serves_a_real_client(http_server: str) -> None:
    async def scenario() -> None:
        async with Client(http_server) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            story = _data(await client.call_tool("get_your_story", {"limit": 5}))
            assert story == []

    anyio.run(scenario)


def test_a_non_loopback_address_is_refused_without_allow_remote(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'remote.db'}"
    _seeded(url).dispose()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "evals.cli",
            "mcp",
            "--person",
            "ana",
            "--transport",
            "http",
            "--host",
            "0.0.0.0",
        ],
        env=_env(url),
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "not a loopback address" in done.stderr and "--allow-remote" in done.stderr
