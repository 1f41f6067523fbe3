"""`converse chat --provider openai-compatible`: settings from the command line, and a missing
server or model as one usage line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.loopback.openai_server import OpenAILoopback, completion, intent
from pipeline.cli.exits import EXIT_USAGE
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.people import get_person

runner = CliRunner()


@pytest.fixture
def env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.setenv("COLUMNS", "200")
    for var in ("CONVERSE_OPENAI_BASE_URL", "CONVERSE_OPENAI_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    return url


@pytest.mark.parametrize(
    ("given", "named"),
    [
        (["--openai-model", "m"], "CONVERSE_OPENAI_BASE_URL, --openai-base-url"),
        (["--openai-base-url", "http://127.0.0.1:9/v1"], "CONVERSE_OPENAI_MODEL, --openai-model"),
    ],
)
def test_a_missing_setting_is_one_usage_line_naming_it(env, given, named) -> None:
    args = [*given, "chat", "--person", "Ana", "--provider", "openai-compatible", "-m", "hi"]
    result = runner.invoke(app, args)
    assert result.exit_code == EXIT_USAGE
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and named in lines[0]


def test_chat_remembers_through_a_compatible_server(env) -> None:
    script = [
        intent("remember_about_me", personal_fact="You're allergic to shellfish"),
        completion("I'll remember that — is that right?"),
    ]
    with OpenAILoopback(script, lifetime=20.0) as server:
        args = ["--openai-base-url", server.url, "--openai-model", "llama-test"]
        args += ["chat", "--person", "Ana", "--provider", "openai-compatible"]
        result = runner.invoke(app, [*args, "-m", "I'm allergic to shellfish"])
    assert result.exit_code == 0, result.output
    assert "I'll remember that" in result.output
    assert [r["model"] for r in server.requests] == ["llama-test", "llama-test"]
    store = open_store(env)
    try:
        with store.read() as session:
            person = get_person(session, "Ana")
            assert person.personal_engagement_id is not None
            facts = repo.list_assertions(session, person.personal_engagement_id)
            assert [(a.content, a.force.value) for a in facts] == [
                ("You're allergic to shellfish", "held")
            ]
    finally:
        store.dispose()


def test_a_closed_port_is_a_warning_and_exit_3_not_a_silent_offline_answer(env, monkeypatch):
    """`chat -m` against a server that is not there: the turn is answered and stored offline
    as before, and one warning line says the model did not answer; exit 3 (a provider failed),
    so a script never takes the offline reply for the model's."""
    import socket

    from pipeline.cli.exits import EXIT_PROVIDER

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends: nothing listens there
    monkeypatch.setenv("CONVERSE_OPENAI_MAX_RETRIES", "0")
    args = ["--openai-base-url", f"http://127.0.0.1:{port}/v1", "--openai-model", "m"]
    result = runner.invoke(app, [*args, "chat", "--person", "Ana", "--provider",
                                 "openai-compatible", "-m", "hello there"])  # fmt: skip
    assert result.exit_code == EXIT_PROVIDER, result.output
    warning = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1
    assert "the model did not answer" in warning[0] and "could not reach" in warning[0]
