"""The classifier's system prompt as the template-reading providers send it: the classifier
template, then — only when the turn has any — the relevant memories section. A turn without
memories sends exactly the classifier template, so its cached prefix is unchanged."""

from __future__ import annotations

from pipeline.assemble import classifier_prompt
from pipeline.domain import PromptRef
from pipeline.prompting import PromptLibrary
from pipeline.providers.base import ClassifyRequest

MEMORY_FAMILY = "classifier_memory"


def classifier_system_prompt(
    library: PromptLibrary, request: ClassifyRequest
) -> tuple[str, tuple[PromptRef, ...]]:
    """The system text and the references of every template in it."""
    base = classifier_prompt(library, project_name=request.project_name)
    if not request.memories:
        return base.text, (base.ref,)
    extra = library.render(MEMORY_FAMILY, memories=list(request.memories))
    return f"{base.text.rstrip()}\n\n{extra.text}", (base.ref, extra.ref)
