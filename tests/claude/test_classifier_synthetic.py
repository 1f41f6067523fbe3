"""The specification's classification cases through the Claude classifier, on synthetic cassettes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from evals.cassettes import StaleCassette, synthetic_answers
from evals.loopback import LoopbackServer, load_answers
from pipeline.config import prompts_dir
from pipeline.domain import HistoryTurn, Role
from pipeline.prompting import PromptLibrary
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.claude.models import THINKING_HEADROOM
from pipeline.providers.registry import Providers
from pipeline.reading import ClassifiedIntent

pytestmark = [pytest.mark.vcr, pytest.mark.block_network]

Claude = Callable[..., Providers]


def classify(
    claude: Claude, message: str, project: str | None = None, history=()
) -> ClassifiedIntent:
    request = ClassifyRequest(message=message, history=tuple(history), project_name=project)
    return claude().classifier.classify(request)


def assert_synthetic(classified: ClassifiedIntent) -> None:
    assert classified.error is None
    assert classified.provider == "claude"
    assert classified.model == "synthetic-fixture"
    assert [(r.family, r.version) for r in classified.prompt_refs] == [("classifier", "v6")]
    assert classified.usage.input_tokens > 0 and classified.usage.output_tokens > 0


def test_synthetic_shellfish_is_remember_about_me(claude: Claude) -> None:
    got = classify(claude, "I'm allergic to shellfish", project="Weeknight cooking")
    assert_synthetic(got)
    assert got.intent == "remember_about_me"
    assert "shellfish" in got.params["personal_fact"].lower()


def test_synthetic_birthday_is_remember_about_me(claude: Claude) -> None:
    got = classify(claude, "My birthday is March 15th")
    assert_synthetic(got)
    assert got.intent == "remember_about_me"
    assert "march 15" in got.params["personal_fact"].lower()


def test_synthetic_forget_miami_is_forget_about_me(claude: Claude) -> None:
    got = classify(claude, "Forget that I live in Miami")
    assert_synthetic(got)
    assert got.intent == "forget_about_me"
    assert "miami" in got.params["forget_description"].lower()


def test_synthetic_stop_remembering_birthday_is_forget_about_me(claude: Claude) -> None:
    got = classify(claude, "Please stop remembering my birthday")
    assert_synthetic(got)
    assert got.intent == "forget_about_me"
    assert "birthday" in got.params["forget_description"].lower()


def test_synthetic_postgresql_for_this_project_is_add_knowledge(claude: Claude) -> None:
    got = classify(claude, "We use PostgreSQL for this project", project="Billing service rewrite")
    assert_synthetic(got)
    assert got.intent == "add_knowledge"
    assert "postgresql" in got.params["knowledge"].lower()


def test_synthetic_mornings_is_remember_about_me(claude: Claude) -> None:
    got = classify(claude, "I prefer working in the mornings", project="Billing service rewrite")
    assert_synthetic(got)
    assert got.intent == "remember_about_me"
    assert "morning" in got.params["personal_fact"].lower()


def test_synthetic_yes_after_an_offer_remembers_the_offered_fact(claude: Claude) -> None:
    history = [
        HistoryTurn(
            role=Role.OPERATOR, content="I'm allergic to shellfish", intent="remember_about_me"
        ),
        HistoryTurn(
            role=Role.COMPANION,
            content="I'll remember that you're allergic to shellfish — is that right?",
            intent="remember_about_me",
            operation_data={"action": "held", "personal_fact": "You're allergic to shellfish"},
        ),
    ]
    got = classify(claude, "yes", project="Weeknight cooking", history=history)
    assert_synthetic(got)
    assert got.intent == "remember_about_me"
    assert "shellfish" in got.params["personal_fact"].lower()


OFFER = [
    HistoryTurn(
        role=Role.OPERATOR, content="I'm allergic to shellfish", intent="remember_about_me"
    ),
    HistoryTurn(
        role=Role.COMPANION,
        content="I'll remember that you're allergic to shellfish — is that right?",
        intent="remember_about_me",
        operation_data={"action": "held", "personal_fact": "You're allergic to shellfish"},
    ),
]


def assert_prompt_and_history(body: dict) -> None:
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert "CONTINUATIONS" in body["system"][0]["text"]
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][1]["content"].endswith(
        '[this turn served remember_about_me — action: "held"; '
        'personal_fact: "You\'re allergic to shellfish"]'
    )
    assert body["messages"][-1]["content"] == "yes"


def test_synthetic_request_carries_taxonomy_history_and_forced_tool(claude: Claude, vcr) -> None:
    """A model that takes a forced tool (Claude Haiku 4.5, legacy): the tool, forced."""
    request = ClassifyRequest(message="yes", history=tuple(OFFER), project_name="Weeknight cooking")
    got = claude(classifier_model="claude-haiku-4-5").classifier.classify(request)
    assert_synthetic(got)
    assert got.intent == "remember_about_me"
    body = json.loads(vcr.requests[0].body)
    assert body["model"] == "claude-haiku-4-5"
    assert body["tool_choice"] == {
        "type": "tool",
        "name": "classify_intent",
        "disable_parallel_tool_use": True,
    }
    assert "thinking" not in body and "output_config" not in body  # off unless asked for
    schema = body["tools"][0]["input_schema"]
    assert schema["properties"]["intent"]["enum"][0] == "general_conversation"
    assert schema["required"] == ["intent"]
    assert_prompt_and_history(body)


def test_synthetic_request_carries_structured_output_where_no_forced_tool(
    claude: Claude, vcr
) -> None:
    """The default, current model (Claude Haiku 5.5): the schema as output_config.format, no
    tool, thinking disabled; the answer comes back as JSON text."""
    request = ClassifyRequest(message="yes", history=tuple(OFFER), project_name="Weeknight cooking")
    got = claude().classifier.classify(request)
    assert_synthetic(got)
    assert got.intent == "remember_about_me"
    assert "shellfish" in got.params["personal_fact"].lower()
    body = json.loads(vcr.requests[0].body)
    assert body["model"] == "claude-haiku-5-5"
    assert "tools" not in body and "tool_choice" not in body
    assert body["thinking"] == {"type": "disabled"}
    schema = body["output_config"]["format"]["schema"]
    assert body["output_config"]["format"]["type"] == "json_schema"
    assert schema["properties"]["intent"]["enum"][0] == "general_conversation"
    assert schema["additionalProperties"] is False
    assert_prompt_and_history(body)
    reply = vcr.responses[0]["body"]["string"]
    content = json.loads(reply)["content"]
    assert [b["type"] for b in content] == ["text"]
    assert json.loads(content[0]["text"])["intent"] == "remember_about_me"


def test_synthetic_always_on_thinking_gets_headroom_and_low_effort(claude: Claude, vcr) -> None:
    """A model whose thinking cannot be turned off (Claude Opus 5.5): structured output, no
    thinking setting, effort low, max_tokens raised by the headroom; a thinking block comes
    first in the answer and is skipped."""
    got = claude(classifier_model="claude-opus-5-5").classifier.classify(
        ClassifyRequest(message="My birthday is March 15th")
    )
    assert_synthetic(got)
    assert got.intent == "remember_about_me"
    body = json.loads(vcr.requests[0].body)
    assert "thinking" not in body
    assert body["output_config"]["effort"] == "low"
    assert body["max_tokens"] == 512 + THINKING_HEADROOM
    content = json.loads(vcr.responses[0]["body"]["string"])["content"]
    assert [b["type"] for b in content] == ["thinking", "text"]


def test_synthetic_classifier_prefix_is_cached_only_where_it_meets_the_minimum(
    claude: Claude,
) -> None:
    """Tools and system (~2,300 tokens) are under Haiku 4.5's 4,096 but over Sonnet 4.6's 1,024."""
    request = ClassifyRequest(message="I'm allergic to shellfish", project_name="Weeknight cooking")
    haiku = claude(classifier_model="claude-haiku-4-5").classifier
    for _ in range(2):
        usage = haiku.classify(request).usage
        assert usage.cache_creation_input_tokens == usage.cache_read_input_tokens == 0
        assert usage.input_tokens > 2000
    sonnet = claude(classifier_model="claude-sonnet-4-6").classifier
    first, second = sonnet.classify(request).usage, sonnet.classify(request).usage
    assert first.cache_creation_input_tokens > 2000 and first.cache_read_input_tokens == 0
    assert second.cache_read_input_tokens == first.cache_creation_input_tokens
    assert second.input_tokens < 100


def test_synthetic_one_cached_classifier_prefix_serves_every_project(claude: Claude) -> None:
    """The taxonomy, rules and examples are the cached block; the project line comes after it,
    so a turn in another project, or in none, reads the same cache entry."""
    sonnet = claude(classifier_model="claude-sonnet-4-6").classifier
    written = sonnet.classify(
        ClassifyRequest(message="I'm allergic to shellfish", project_name="Weeknight cooking")
    ).usage.cache_creation_input_tokens
    assert written > 1_024
    for project in ("Backyard garden", None):
        usage = sonnet.classify(
            ClassifyRequest(message="My birthday is March 15th", project_name=project)
        ).usage
        assert usage.cache_read_input_tokens == written
        assert usage.cache_creation_input_tokens == 0


# --- interception: a replayed call that misses never reaches the network -----------------------

SHELLFISH = "test_synthetic_shellfish_is_remember_about_me.yaml"


def edited_library(tmp_path: Path) -> PromptLibrary:
    root = tmp_path / "prompts"
    shutil.copytree(prompts_dir(), root)
    template = root / "classifier" / "v6.j2"
    template.write_text(template.read_text() + "\nBe brief.\n", encoding="utf-8")
    return PromptLibrary(root)


@pytest.mark.default_cassette(SHELLFISH)
@pytest.mark.vcr(record_mode="none")
def test_synthetic_changed_prompt_misses_its_cassette(claude: Claude, tmp_path: Path) -> None:
    request = ClassifyRequest(message="I'm allergic to shellfish", project_name="Weeknight cooking")
    assert claude().classifier.classify(request).intent == "remember_about_me"

    with pytest.raises(StaleCassette) as caught:
        claude(library=edited_library(tmp_path)).classifier.classify(request)

    recorded = PromptLibrary(prompts_dir()).source("classifier")[1].sha256
    message = str(caught.value)
    assert message.startswith(
        "cassette fixtures/cassettes/synthetic/test_classifier_synthetic/"
        f"{SHELLFISH} is stale: prompt classifier/v6 (sha256 {recorded[:12]}… when recorded, now "
    )
    assert message.endswith(
        "changed since it was recorded — re-record it with: pytest "
        "'tests/claude/test_classifier_synthetic.py::test_synthetic_shellfish_is_remember_about_me'"
        " --record-mode=rewrite"
    )


@pytest.mark.default_cassette(SHELLFISH)
@pytest.mark.vcr(record_mode="none")
def test_synthetic_other_request_with_same_prompts_names_no_template(claude: Claude) -> None:
    request = ClassifyRequest(message="I'm allergic to peanuts", project_name="Weeknight cooking")
    with pytest.raises(StaleCassette, match="though no prompt template changed"):
        claude().classifier.classify(request)


@pytest.mark.default_cassette("test_synthetic_no_such_cassette.yaml")
@pytest.mark.vcr(record_mode="none")
def test_synthetic_missing_cassette_never_reaches_the_network(claude: Claude) -> None:
    with LoopbackServer(load_answers(synthetic_answers())) as server:
        providers = claude(base_url=server.url)  # a live server that would answer
        with pytest.raises(StaleCassette) as caught:
            providers.classifier.classify(ClassifyRequest(message="I'm allergic to shellfish"))
        assert server.seen == []
    assert str(caught.value) == (
        "no cassette at fixtures/cassettes/synthetic/test_classifier_synthetic/"
        "test_synthetic_no_such_cassette.yaml to replay this call from — re-record it with: "
        "pytest 'tests/claude/test_classifier_synthetic.py::"
        "test_synthetic_missing_cassette_never_reaches_the_network' --record-mode=rewrite"
    )


@pytest.mark.default_cassette(SHELLFISH)
@pytest.mark.vcr(record_mode="none")
def test_synthetic_cassette_replays_for_the_real_api_host(claude: Claude) -> None:
    """Host and port are not matched: a loopback recording serves a client aimed at the API."""
    providers = claude(base_url="https://api.anthropic.com")
    got = providers.classifier.classify(
        ClassifyRequest(message="I'm allergic to shellfish", project_name="Weeknight cooking")
    )
    assert (got.intent, got.model) == ("remember_about_me", "synthetic-fixture")
