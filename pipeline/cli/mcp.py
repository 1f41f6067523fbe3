"""`converse mcp`: serve one person's conversation lifecycle and memories over MCP."""

from __future__ import annotations

import typer

from pipeline.cli.common import DbOption, PersonOption, fail, handles_errors, store_for
from pipeline.cli.loopback import is_loopback
from pipeline.providers.command_options import PROVIDER_NAMES


@handles_errors
def mcp(
    person: str = PersonOption,
    transport: str = typer.Option(
        "stdio", "--transport", help="stdio (a desktop client starts it) or http (streamable)."
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="For --transport http."),
    port: int = typer.Option(8765, "--port", help="For --transport http.", min=1, max=65535),
    allow_remote: bool = typer.Option(
        False, "--allow-remote", help="Listen on a non-loopback address (no authentication!)."
    ),
    provider: str | None = typer.Option(
        None, "--provider", help=f"One of {', '.join(PROVIDER_NAMES)}.", envvar="CONVERSE_PROVIDER"
    ),
    db_url: str | None = DbOption,
) -> None:
    """Serve one person's conversations and memories to an MCP client (stdio or HTTP)."""
    from pipeline.cli.common import providers_for

    try:
        from pipeline.mcp.server import build_server
        from pipeline.mcp.tools import Person
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith(("mcp", "starlette", "uvicorn")):
            raise
        raise fail(
            f"the MCP server needs the mcp SDK ({exc.name} is missing): "
            "pip install -e '.[mcp]' (or bash scripts/setup.sh --dev)"
        ) from exc
    from pipeline.prompting import default_library
    from pipeline.store.people import get_person

    if transport not in ("stdio", "http"):
        raise fail(f"--transport is {transport!r}; use stdio or http")
    if transport == "http" and not is_loopback(host) and not allow_remote:
        raise fail(
            f"{host} is not a loopback address, and the server has no authentication: anyone "
            f"who reaches it reads {person}'s memories; add --allow-remote if you mean it"
        )
    store = store_for(db_url)
    with store.read() as session:
        found = get_person(session, person)
    providers = providers_for(provider)
    me = Person(
        store=store,
        person_id=found.id,
        library=default_library(),
        generator=providers.structured,
        embedder=providers.embedder,
        name=found.name,
        lexicon=providers.lexicon,
    )
    server = build_server(me, found.name)
    if transport == "stdio":
        server.run("stdio")  # stdout is the protocol's: nothing else is printed
    else:
        typer.echo(f"MCP (streamable HTTP) for {found.name}: http://{host}:{port}/mcp", err=True)
        server.run("streamable-http", host=host, port=port)
