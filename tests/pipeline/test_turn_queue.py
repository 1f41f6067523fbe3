"""The turn queue: one conversation per person across channels, messages coalesced while a
turn is in flight, and nothing lost when a real process is killed at any point."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.domain import Engagement, Person, Reply, Role
from pipeline.errors import InvalidMessage, NotFound
from pipeline.providers.answers import validated
from pipeline.providers.base import ClassifyRequest, Providers, RespondRequest
from pipeline.reading import ClassifiedIntent
from pipeline.store import Store, inbox, open_store
from pipeline.store.inbox import Received
from pipeline.store.turns import recent_history
from pipeline.turn_queue import TurnQueue, batch

ROOT = Path(__file__).resolve().parents[2]


class Recorder:
    """Classifies everything as conversation, remembers what it was asked, and can hold the
    first reply until released (a turn in flight)."""

    def __init__(self, hold_first: bool = False) -> None:
        self.requests: list[ClassifyRequest] = []
        self.in_flight = threading.Event()
        self.release = threading.Event()
        if not hold_first:
            self.release.set()

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        self.requests.append(request)
        return validated("general_conversation", {}, provider="test", model="test")

    def respond(self, request: RespondRequest) -> Reply:
        self.in_flight.set()
        assert self.release.wait(30)
        return Reply(text=f"heard: {request.message}", provider="test", model="test")


def _queue(store: Store, provider: Recorder, window_s: float = 0) -> TurnQueue:
    return TurnQueue(store, window_s=window_s, providers=Providers.of(provider, provider))


def _operator_turns(store: Store, person: Person, project: Engagement | None = None) -> list[str]:
    with store.read() as session:
        history = recent_history(session, person.id, project.id if project else None, 50)
    return [t.content for t in history if t.role is Role.OPERATOR]


def test_a_message_is_answered_and_leaves_the_inbox(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    _person, _ = make_person(store)
    queue = _queue(store, Recorder())
    outcome = queue.submit("ana", "hello there", channel="sms").result(timeout=30)
    assert outcome.operator_turn.content == "hello there"
    assert outcome.operator_turn.channel == "sms"
    assert outcome.companion_turn.content == "heard: hello there"
    assert queue.join(timeout=30)
    with store.read() as session:
        assert inbox.waiting(session) == []


def test_channels_share_one_conversation(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    _person, _ = make_person(store)
    provider = Recorder()
    queue = _queue(store, provider)
    queue.submit("ana", "I'm at the garage", channel="telegram").result(timeout=30)
    queue.submit("ana", "still waiting here", channel="sms").result(timeout=30)
    seen = provider.requests[-1].history
    assert [(t.role, t.content) for t in seen] == [
        (Role.OPERATOR, "I'm at the garage"),
        (Role.COMPANION, "heard: I'm at the garage"),
    ]


def test_messages_sent_during_a_turn_are_answered_as_one(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    person, _ = make_person(store)
    provider = Recorder(hold_first=True)
    queue = _queue(store, provider)
    first = queue.submit("ana", "one", channel="telegram")
    assert provider.in_flight.wait(30)
    second = queue.submit("ana", "two", channel="telegram")
    third = queue.submit("ana", "three", channel="sms")
    provider.release.set()
    assert first.result(timeout=30).operator_turn.content == "one"
    joined = second.result(timeout=30)
    assert third.result(timeout=30) is joined
    assert joined.operator_turn.content == "two\nthree"
    assert joined.operator_turn.channel == "sms"
    assert _operator_turns(store, person) == ["one", "two\nthree"]


def test_quick_messages_within_the_window_are_one_turn(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    person, _ = make_person(store)
    queue = _queue(store, Recorder(), window_s=2.0)
    futures = [queue.submit("ana", text) for text in ("so", "about the", "trip")]
    outcomes = {id(f.result(timeout=30)) for f in futures}
    assert len(outcomes) == 1
    assert _operator_turns(store, person) == ["so\nabout the\ntrip"]


def test_projects_are_separate_conversations(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    person, garden = make_person(store)
    provider = Recorder(hold_first=True)
    queue = _queue(store, provider)
    queue.submit("ana", "first")
    assert provider.in_flight.wait(30)
    in_garden = queue.submit("ana", "the soil is clay", project="Garden")
    outside = queue.submit("ana", "and how are you")
    provider.release.set()
    assert in_garden.result(timeout=30).operator_turn.content == "the soil is clay"
    assert outside.result(timeout=30).operator_turn.content == "and how are you"
    assert _operator_turns(store, person, garden) == ["the soil is clay"]
    assert _operator_turns(store, person) == ["first", "and how are you"]


def test_a_batch_stops_at_another_project_and_at_the_length_limit() -> None:
    def received(i: int, text: str, engagement: int | None = None) -> Received:
        return Received(i, 1, engagement, "cli", text, None)  # type: ignore[arg-type]

    waiting = [received(1, "a" * 6), received(2, "b" * 3), received(3, "c"), received(4, "d", 7)]
    assert [m.id for m in batch(waiting, limit=10)] == [1, 2]
    assert [m.id for m in batch(waiting, limit=100)] == [1, 2, 3]
    assert [m.id for m in batch(waiting[3:], limit=100)] == [4]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("ana", "   "), InvalidMessage),
        (("ana", "x" * 9_000), InvalidMessage),
        (("nobody", "hello"), NotFound),
    ],
)
def test_bad_input_is_refused_before_anything_is_stored(
    store: Store,
    make_person: Callable[..., tuple[Person, Engagement]],
    args: tuple[str, str],
    error: type[Exception],
) -> None:
    make_person(store)
    with pytest.raises(error):
        _queue(store, Recorder()).submit(*args)
    with pytest.raises(NotFound):
        _queue(store, Recorder()).submit("ana", "hello", project="No such project")
    with store.read() as session:
        assert inbox.waiting(session) == []


def test_a_second_worker_leaves_a_message_to_the_queue_that_holds_it(
    sqlite_url: str, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    first_store, second_store = open_store(sqlite_url), open_store(sqlite_url)
    person, _ = make_person(first_store)
    provider = Recorder(hold_first=True)
    first = _queue(first_store, provider)
    future = first.submit("ana", "only once")
    assert provider.in_flight.wait(30)
    second = _queue(second_store, Recorder())
    assert second.waiting("ana") == 0  # the message is the first queue's while it runs
    assert second.resume() == 0
    provider.release.set()
    assert future.result(timeout=30).reply.text == "heard: only once"
    assert _operator_turns(first_store, person) == ["only once"]
    first_store.dispose()
    second_store.dispose()


def test_a_closed_queue_leaves_its_messages_to_another(
    sqlite_url: str, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    first_store, second_store = open_store(sqlite_url), open_store(sqlite_url)
    person, _ = make_person(first_store)
    first = _queue(first_store, Recorder(), window_s=600)  # received, no turn started yet
    first.submit("ana", "left behind")
    second = _queue(second_store, Recorder())
    assert second.waiting("ana") == 0
    assert first.close(timeout=30)  # it stops waiting out its window
    assert second.resume("ana") == 1
    assert second.join(timeout=30)
    assert _operator_turns(second_store, person) == ["left behind"]
    first_store.dispose()
    second_store.dispose()


def _child(url: str, markers: Path, mode: str, message: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "tests/pipeline/queue_child.py"),
            url,
            str(markers),
            mode,
            message,
        ],
        env=env,
        cwd=ROOT,
    )


def _killed_at(child: subprocess.Popen[bytes], marker: Path) -> None:
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert child.poll() is None, "the child process ended early"
        assert time.monotonic() < deadline, f"no {marker.name} marker within 60 s"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(30)


@pytest.mark.parametrize(("mode", "marker"), [("mid-turn", "in-flight"), ("received", "received")])
def test_a_message_survives_a_process_killed_before_its_turn_is_stored(
    tmp_path: Path,
    sqlite_url: str,
    sqlite_store: Store,
    make_person: Callable[..., tuple[Person, Engagement]],
    mode: str,
    marker: str,
) -> None:
    person, _ = make_person(sqlite_store)
    _killed_at(_child(sqlite_url, tmp_path, mode, "my car is at the shop"), tmp_path / marker)
    assert _operator_turns(sqlite_store, person) == []
    restarted = _queue(sqlite_store, Recorder())
    assert restarted.resume() == 1
    assert restarted.join(timeout=30)
    assert _operator_turns(sqlite_store, person) == ["my car is at the shop"]
    with sqlite_store.read() as session:
        assert inbox.waiting(session) == []
        turn = recent_history(session, person.id, None, 5)[0]
    assert turn.content == "my car is at the shop"


def test_a_process_killed_between_turns_continues_the_conversation(
    tmp_path: Path,
    sqlite_url: str,
    sqlite_store: Store,
    make_person: Callable[..., tuple[Person, Engagement]],
) -> None:
    _person, _ = make_person(sqlite_store)
    child = _child(sqlite_url, tmp_path, "between-turns", "the plumber comes Friday")
    _killed_at(child, tmp_path / "answered")
    provider = Recorder()
    restarted = _queue(sqlite_store, provider)
    assert restarted.resume() == 0
    restarted.submit("ana", "did I mention the plumber?").result(timeout=30)
    assert [t.content for t in provider.requests[-1].history] == [
        "the plumber comes Friday",
        "heard: the plumber comes Friday",
    ]


def test_a_resend_of_a_waiting_message_is_answered_once(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    person, _ = make_person(store)
    provider = Recorder(hold_first=True)
    queue = _queue(store, provider)
    queue.submit("ana", "first")
    assert provider.in_flight.wait(30)
    once = queue.submit("ana", "Did you get my note?")
    again = queue.submit("ana", "did you get  my note?")  # the same words, resent
    provider.release.set()
    assert again.result(timeout=30) is once.result(timeout=30)
    assert _operator_turns(store, person) == ["first", "Did you get my note?"]
