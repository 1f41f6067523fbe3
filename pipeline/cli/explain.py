"""`converse explain TURN_ID`: which memories a classification was shown, and why."""

from __future__ import annotations

from pipeline.cli.common import DbOption, PersonOption, console, handles_errors, shown, store_for
from pipeline.cli.params import id_argument


@handles_errors
def explain(
    turn_id: int = id_argument(
        "message ",
        "a turn id is printed by `converse conversation show --person NAME`",
        "The id of one of the person's messages.",
    ),
    person: str = PersonOption,
    db_url: str | None = DbOption,
) -> None:
    """Show how a message was classified and which memories the classifier was shown."""
    from pipeline.conversations.recall import explain_classification
    from pipeline.store.people import get_person

    store = store_for(db_url)
    with store.read() as session:
        found = get_person(session, person)
    done = explain_classification(store, found.id, turn_id)
    confidence = f", confidence {done.confidence:.2f}" if done.confidence is not None else ""
    console.print(f"Message {done.turn_id}: {shown(done.message)}", highlight=False)
    console.print(
        f"Classified {done.intent} by {shown(done.provider)}{confidence}.", highlight=False
    )
    if not done.influences:
        console.print("No memory was put before the classifier for this message.")
        return
    console.print("Memories put before the classifier, most relevant first:", highlight=False)
    for i in done.influences:
        console.print(
            f"  memory {i.memory_id} ({shown(i.destination)}), score {i.score:.2f} — "
            f"{shown(i.reason)}\n    {shown(i.narrative)}",
            highlight=False,
        )
    if done.provider == "local":
        console.print(
            "The local classifier (nearest examples) does not read memories; Claude, "
            "local-llm and openai-compatible do."
        )
