"""One queue of turns per person, across channels, that survives a crash.

A message is stored in the inbox (pipeline/store/inbox.py) as it arrives, before any model is
called, and the turn that answers it deletes it in the transaction that stores the turn. One
worker thread per person answers the inbox oldest first, so turns of one person never
overlap whatever channel they come from. Messages that pile up while a turn is in flight, or
arrive within `window_s` of each other, are answered as one turn: the person typed three quick
messages, that is one thing said. A process killed at any point leaves every message either
answered or in the inbox; `resume()` answers what a previous process left.

Each message is leased to the queue that received it (pipeline/store/leases.py): when several
processes serve one person's inbox at once (concurrent `converse chat -m`), each answers the
messages sent through it, and takes another's only when that one has ended or closed.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field

from pipeline.clock import utcnow
from pipeline.config import MAX_MESSAGE_CHARS
from pipeline.converse import TurnOutcome, check_message, converse
from pipeline.errors import AlreadyAnswered
from pipeline.prompting import PromptLibrary
from pipeline.providers.base import Providers
from pipeline.settings import settings
from pipeline.settings_check import check_turn_settings
from pipeline.store import Store, inbox, leases
from pipeline.store.inbox import Received
from pipeline.store.people import get_engagement, get_person, get_person_by_id, get_project


@dataclass(frozen=True)
class Answered:
    """A turn the queue ran, and the inbox messages it answered."""

    outcome: TurnOutcome
    messages: tuple[Received, ...]


def batch(waiting: Iterable[Received], limit: int = MAX_MESSAGE_CHARS) -> list[Received]:
    """The oldest message and those after it that one turn can answer: the same project (a
    project is its own conversation), and together within the message length limit."""
    taken: list[Received] = []
    size = 0
    for message in waiting:
        if taken and message.engagement_id != taken[0].engagement_id:
            break
        size += len(message.content) + (1 if taken else 0)
        if taken and size > limit:
            break
        taken.append(message)
    return taken


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


@dataclass
class _Person:
    worker: threading.Thread | None = None
    last_arrival: float = 0.0  # monotonic time of the newest message this process received
    wake: threading.Event = field(default_factory=threading.Event)


# Every queue of this process, stopped at exit (see `_stop_at_exit`).
_LIVE: weakref.WeakSet[TurnQueue] = weakref.WeakSet()
# How long exit waits for a turn in progress to end (a local-llm turn can take a minute).
EXIT_WAIT_S = 300.0


@atexit.register
def _stop_at_exit() -> None:
    """Let every worker finish the turn it is in, take no other, and end, before the
    interpreter does. Workers are daemon threads (a stuck store must not keep a process
    alive), but a daemon thread still inside onnxruntime or llama.cpp when the process
    exits is destroyed with the runtime's thread pool under it, and the C++ runtime aborts:
    "terminate called without an active exception", exit 134. This happened when a chat
    ended early (another process answered its message) while its worker was answering
    the next message in the inbox."""
    for queue in list(_LIVE):
        queue.close(EXIT_WAIT_S)


class TurnQueue:
    """Answers every person's inbox, one turn at a time per person."""

    def __init__(
        self,
        store: Store,
        *,
        providers: Providers,
        library: PromptLibrary | None = None,
        window_s: float | None = None,
        on_answered: Callable[[Answered], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.providers = providers  # every turn runs the one declared bundle (converse())
        self.library = library
        self.window_s = settings().coalesce_window_s if window_s is None else window_s
        self.on_answered = on_answered
        self._clock = clock
        self._guard = threading.Lock()
        self._people: dict[int, _Person] = {}
        # Inbox message id -> (person id, the future submit() returned).
        self._futures: dict[int, tuple[int, Future[TurnOutcome]]] = {}
        self._closing = threading.Event()
        self._lessee = leases.new_lessee()  # the inbox messages this queue answers
        _LIVE.add(self)

    def submit(
        self, person: str, message: str, *, project: str | None = None, channel: str = "cli"
    ) -> Future[TurnOutcome]:
        """Store the message in the inbox and return the future of the turn that answers it.

        Bad input (an empty or over-long message, an unknown person or project, a bad CONVERSE_*
        setting) raises here, before anything is stored. A message identical to one still
        waiting (a resend after a crash) is not stored again: its future is the waiting
        message's turn.
        """
        text = check_message(message)
        check_turn_settings()  # a message a bad setting would refuse is never stored
        with self.store.write() as session:
            found = get_person(session, person)
            engagement = get_project(session, found, project) if project else None
            engagement_id = engagement.id if engagement else None
            same = [
                m.id
                for m in inbox.claim(session, self._lessee, found.id)
                if m.engagement_id == engagement_id and _same_text(m.content, text)
            ]
            message_id = (
                same[0]
                if same
                else inbox.receive(
                    session,
                    person_id=found.id,
                    engagement_id=engagement_id,
                    channel=channel,
                    content=text,
                    received_at=utcnow(),
                    lessee=self._lessee,
                )
            )
        future: Future[TurnOutcome] = Future()
        with self._guard:
            if message_id in self._futures:  # sent twice to this process: one turn, one future
                return self._futures[message_id][1]
            self._futures[message_id] = (found.id, future)
            state = self._people.setdefault(found.id, _Person())
            state.last_arrival = self._clock()
        self._start(found.id)
        return future

    def waiting(self, person: str | None = None) -> int:
        """How many messages wait in the inbox for this queue (of one person, or of
        everyone): its own, and those no running queue holds."""
        with self.store.read() as session:
            person_id = get_person(session, person).id if person is not None else None
            return len(inbox.answerable(session, self._lessee, person_id))

    def resume(self, person: str | None = None) -> int:
        """Answer the messages a previous process left in the inbox (of one person, or of
        everyone); returns how many. Messages another running queue holds are its own."""
        with self.store.read() as session:
            person_id = get_person(session, person).id if person is not None else None
            left = inbox.answerable(session, self._lessee, person_id)
        for person_id in dict.fromkeys(m.person_id for m in left):
            self._start(person_id)
        return len(left)

    def join(self, timeout: float | None = None) -> bool:
        """Wait until every worker has emptied its inbox; False if `timeout` passed first."""
        deadline = None if timeout is None else self._clock() + timeout
        while True:
            with self._guard:
                workers = [s.worker for s in self._people.values() if s.worker is not None]
            if not workers:
                return True
            for worker in workers:
                left = None if deadline is None else max(0.0, deadline - self._clock())
                worker.join(left)
                if worker.is_alive():
                    return False

    def close(self, timeout: float | None = None) -> bool:
        """Stop: every worker ends after the turn it is in (messages not yet taken stay in
        the inbox for the next process); False if one was still in a turn after `timeout`."""
        self._closing.set()
        with self._guard:
            for state in self._people.values():
                state.wake.set()
        done = self.join(timeout)
        if done:  # what it did not answer, another queue may (a worker still in a turn
            # keeps its lease until this process ends, which frees it as well)
            leases.closed(self._lessee)
            # a store already gone at exit: the process's end frees the leases
            with contextlib.suppress(Exception), self.store.write() as session:
                inbox.release(session, self._lessee)
        return done

    def _start(self, person_id: int) -> None:
        if self._closing.is_set():
            return  # a closed queue starts no turn; the message waits in the inbox
        with self._guard:
            state = self._people.setdefault(person_id, _Person())
            state.wake.set()
            if state.worker is not None:
                return
            state.worker = threading.Thread(
                target=self._work, args=(person_id, state), name=f"turns-{person_id}", daemon=True
            )
            state.worker.start()

    def _work(self, person_id: int, state: _Person) -> None:
        try:
            while True:
                state.wake.clear()
                if self._closing.is_set():
                    with self._guard:
                        state.worker = None
                    return
                with self.store.write() as session:
                    waiting = inbox.claim(session, self._lessee, person_id)
                if not waiting:
                    with self._guard:
                        if not state.wake.is_set():
                            state.worker = None
                            return
                    continue
                self._settle(state)
                if self._closing.is_set():
                    continue  # ends at the top of the loop, taking no turn
                with self.store.write() as session:
                    taken = batch(inbox.claim(session, self._lessee, person_id))
                if taken:
                    self._answer(taken)
        except BaseException as exc:  # a broken store: the messages stay in the inbox
            with self._guard:
                state.worker = None
                failed = [
                    self._futures.pop(i)[1]
                    for i, (owner, _) in list(self._futures.items())
                    if owner == person_id
                ]
            for future in failed:
                if not future.done():
                    future.set_exception(exc)

    def _settle(self, state: _Person) -> None:
        """Wait until no message of this person arrived for `window_s`."""
        while True:
            with self._guard:
                quiet_for = self._clock() - state.last_arrival
            if quiet_for >= self.window_s:
                return
            if self._closing.wait(self.window_s - quiet_for):
                return  # closing: the message waits in the inbox for the next queue

    def _answer(self, taken: list[Received]) -> None:
        with self.store.read() as session:
            person = get_person_by_id(session, taken[0].person_id)
            engagement_id = taken[0].engagement_id
            project = get_engagement(session, engagement_id).name if engagement_id else None
        ids = [m.id for m in taken]
        try:
            outcome = converse(
                self.store,
                person=person.name,
                project=project,
                message="\n".join(m.content for m in taken),
                library=self.library,
                channel=taken[-1].channel,
                answers=ids,
                providers=self.providers,
            )
        except AlreadyAnswered as exc:  # another process answered them: nothing to redo
            self._settle_futures(ids, error=exc)
            return
        except Exception as exc:
            self._settle_futures(ids, error=exc)
            raise
        if self.on_answered is not None:  # before the futures: a caller waiting on one
            self.on_answered(Answered(outcome, tuple(taken)))  # sees the turn shown first
        self._settle_futures(ids, outcome=outcome)

    def _settle_futures(
        self, ids: list[int], outcome: TurnOutcome | None = None, error: Exception | None = None
    ) -> None:
        with self._guard:
            futures = [self._futures.pop(i)[1] for i in ids if i in self._futures]
        for future in futures:
            if error is not None:
                future.set_exception(error)
            else:
                assert outcome is not None
                future.set_result(outcome)
