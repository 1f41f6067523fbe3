"""`converse view`: serve the run folders to a browser on this machine.

Only this module loads when the command starts; Starlette, uvicorn and pandas load when the
server does, so the first page is up in well under a second.
"""

from __future__ import annotations

import socket

import typer

from pipeline.cli.common import fail, handles_errors
from pipeline.cli.loopback import LOOPBACK_NAMES, is_loopback


@handles_errors
def view_command(
    port: int = typer.Option(8766, "--port", help="The port to listen on.", min=1, max=65535),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on."),
    allow_remote: bool = typer.Option(
        False, "--allow-remote", help="Listen on a non-loopback address (no authentication!)."
    ),
    allowed_host: list[str] = typer.Option(
        [],
        "--allowed-host",
        help="Also serve requests addressed to this name (repeat it; '*' serves any name).",
    ),
) -> None:
    """Review eval runs in the browser: failures, verdicts, comparisons, releases."""
    host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]  # [::1] as a browser writes it
    if not is_loopback(host) and not allow_remote:
        raise fail(
            f"{host} is not a loopback address, and the viewer has no authentication: anyone "
            "who reaches it reads the runs and records verdicts; add --allow-remote if you mean it"
        )
    try:
        import uvicorn

        from evals.view.app import create_app
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith(("starlette", "uvicorn")):
            raise
        raise fail(
            f"the viewer needs Starlette and uvicorn ({exc.name} is missing): "
            "pip install -e '.[view]' (or bash scripts/setup.sh --dev)"
        ) from exc
    from evals.view.runs import reports_root

    root = reports_root()
    app = create_app(root, allowed_hosts=served_hosts(host, allowed_host))
    shown_host = f"[{host}]" if ":" in host else host
    listening = _listen(host, port, f"{shown_host}:{port}")
    typer.echo(f"converse view: http://{shown_host}:{port}/ (runs under {root / 'runs'})", err=True)
    config = uvicorn.Config(app, log_level="warning", ws="none")
    uvicorn.Server(config).run(sockets=[listening])


def served_hosts(host: str, allowed: list[str]) -> tuple[str, ...] | None:
    """The Host names answered (None: any). Loopback names and the address listened on always;
    others only when named with --allowed-host, also under --allow-remote: a page of another
    site that points its own name at this address (DNS rebinding) is refused."""
    if "*" in allowed:
        return None
    names = [n.strip().lower().strip("[]") for n in allowed if n.strip()]
    return (*LOOPBACK_NAMES, "127.0.0.1", "::1", host.lower(), *names)


def _listen(host: str, port: int, shown: str) -> socket.socket:
    """The listening socket, bound before anything is printed: a busy port is one line."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listening = socket.socket(family, socket.SOCK_STREAM)
    except OSError as exc:
        raise fail(f"cannot listen on {shown}: {exc.strerror or exc}") from None
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except OSError as exc:
        listening.close()
        raise fail(
            f"cannot listen on {shown}: {exc.strerror or exc} (is another `converse view` "
            "running there?); stop it, or pass another --port"
        ) from None
    return listening
