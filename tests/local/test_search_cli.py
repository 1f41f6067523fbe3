"""`converse search`: ranked results from a person's memory, as a table or JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import build_app
from pipeline.domain import ActorKind, NormativeForce
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.people import create_person, create_project

pytestmark = pytest.mark.slow


def test_search_finds_by_meaning_across_personal_memory_and_projects(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    store = open_store(url)
    with store.write() as session:
        person = create_person(session, "ana")
        garden = create_project(session, person, "Garden")
        assert person.personal_engagement_id is not None
        for engagement, content in [
            (person.personal_engagement_id, "You're allergic to all shellfish"),
            (person.personal_engagement_id, "You live in Miami"),
            (garden.id, "The tomatoes go in the south bed"),
        ]:
            repo.add_assertion(
                session, engagement, content, ActorKind.OPERATOR, NormativeForce.COMMITTED
            )
    store.dispose()
    runner = CliRunner()
    result = runner.invoke(
        build_app(), ["search", "--person", "ana", "--db-url", url, "--json", "seafood"]
    )
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["results"]
    assert found[0]["content"] == "You're allergic to all shellfish"
    assert found[0]["where"] == "personal"
    table = runner.invoke(
        build_app(), ["search", "-p", "ana", "--db-url", url, "--k", "1", "tomato planting"]
    )
    assert table.exit_code == 0 and "Garden" in table.output


def test_search_refuses_a_bad_k(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        build_app(),
        ["search", "-p", "ana", "--db-url", f"sqlite:///{tmp_path / 'c.db'}", "--k", "0", "x"],
    )
    assert result.exit_code == 2
    assert "--k must be at least 1" in result.output
