"""`converse view`: serve the run folders to a browser on this machine.

Only this module loads when the command starts; Starlette, uvicorn and pandas load when the
server does, so the first page is up in well under a second.
"""

from __future__ import annotations

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
) -> None:
    """Review eval runs in the browser: failures, verdicts, comparisons, releases."""
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
    # Behind a loopback address only loopback names are served (a rebinding page's own
    # name is refused); --allow-remote serves whatever name reaches it.
    hosts = None if allow_remote else (*LOOPBACK_NAMES, "127.0.0.1", "::1", host)
    app = create_app(root, allowed_hosts=hosts)
    shown_host = f"[{host}]" if ":" in host else host
    typer.echo(f"converse view: http://{shown_host}:{port}/ (runs under {root / 'runs'})", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="none")
