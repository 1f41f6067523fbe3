"""What a single-message case's model was sent: the classifier's system prompt, rendered again
from the template version the row records, when that file still has the recorded hash (a
template edited since the run is named, never shown as if it had been sent)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evals.prompt_refs import prompt_refs
from pipeline.assemble import CLASSIFIER_FAMILY, classifier_prompt
from pipeline.errors import ConverseError
from pipeline.prompting import default_library


def sent_prompt(row: Mapping[str, Any]) -> tuple[str, str] | None:
    """(what it is, its text), or None when the row's provider read no classifier template."""
    refs = prompt_refs(row)
    ref = next((p for p in refs if p.get("family") == CLASSIFIER_FAMILY), None)
    if ref is None:
        return None
    version, sha = ref["version"], ref["sha256"]
    where = f"{CLASSIFIER_FAMILY}/{version}"
    try:
        library = default_library({CLASSIFIER_FAMILY: version})
        now = library.source(CLASSIFIER_FAMILY, version)[1]
    except ConverseError:
        return where, f"{where} is no longer in prompts/: the text sent cannot be shown again."
    if now.sha256 != sha:
        return where, (
            f"{where} has changed since the run (sha256 {sha[:12]}… then, {now.sha256[:12]}… "
            "now): the text sent cannot be shown again; `git show` the run's commit for it."
        )
    given = row.get("input")
    project = given.get("project") if isinstance(given, Mapping) else None
    project = project if isinstance(project, str) else None
    text = classifier_prompt(library, project_name=project).text
    return f"{where} ({sha[:12]}…), rendered again for this case", text
