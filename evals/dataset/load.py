"""Reading suite files: every problem is reported with the file, the case id and the field.

A suite file may come from anyone, so reading it is bounded: its size on disk, and the size of
what it expands to (YAML aliases can make a few hundred bytes stand for gigabytes). Messages are
held to the limit chat applies, so a suite cannot put into results what a person could not say.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from evals.dataset.cases import CASE_MODELS, Case
from evals.dataset.gold import gold_problems
from evals.dataset.models import CaseBase, Gate, SuiteHeader, Target
from evals.dataset.sample import SampleInfo
from evals.settings import eval_settings
from pipeline.config import MAX_MESSAGE_CHARS
from pipeline.errors import ConverseError
from pipeline.files import read_bounded, yaml_problem
from pipeline.text import text_problem

_MAX_REPORTED = 20
# The largest suite in the project is ~80 KB and ~5,000 YAML nodes; these leave ample room.
MAX_SUITE_BYTES = 2_000_000
MAX_SUITE_NODES = 200_000  # after alias expansion
MAX_SUITE_CHARS = 10_000_000  # scalar text after alias expansion


class SuiteError(ConverseError):
    """A suite file is missing, unreadable or breaks the suite contract."""


@dataclass(frozen=True)
class Suite:
    """A validated suite file."""

    name: str
    target: Target
    description: str
    gate: Gate | None
    cases: tuple[Case, ...]
    path: Path
    # the suite's own `perturb:` names, checked when the file is read
    perturb: tuple[str, ...] = ()
    # set when the cases are a sample of the file's (`converse eval --sample`)
    sample: SampleInfo | None = None
    # how a case's epochs reduce to one score (the suite's `epochs_reducer:`, or `--reducer`)
    reducer: str = "mean"

    @cached_property
    def case_hashes(self) -> dict[str, str]:
        """Case id -> sha256 of the target and the case's canonical JSON."""
        return {case.id: case_hash(self.target, case) for case in self.cases}

    def case(self, case_id: str) -> Case:
        """The case with this id."""
        for case in self.cases:
            if case.id == case_id:
                return case
        raise SuiteError(f"suite {self.name} has no case {case_id!r}", "check the case id")


def case_hash(target: str, case: CaseBase) -> str:
    """A content hash of a case: the same case in any file or order hashes the same."""
    payload = json.dumps(
        {"target": target, "case": case.model_dump(mode="json")}, sort_keys=True, ensure_ascii=False
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def suites_dir() -> Path:
    """Where the project's suites live (`CONVERSE_SUITES_DIR` overrides)."""
    return eval_settings().suites_dir


def _where(loc: Sequence[int | str]) -> str:
    return ".".join(str(part) for part in loc) or "(the case)"


def _label(index: int, raw: Any) -> str:
    case_id = raw.get("id") if isinstance(raw, dict) else None
    return f"case {case_id!r}" if isinstance(case_id, str) and case_id else f"case #{index + 1}"


def _case_errors(path: Path, index: int, raw: Any, error: ValidationError) -> list[str]:
    label = _label(index, raw)
    return [f"{path}: {label}: field {_where(e['loc'])}: {e['msg']}" for e in error.errors()]


class UniqueKeyLoader(yaml.SafeLoader):
    """yaml.SafeLoader refusing a mapping that names a key twice: PyYAML keeps the last one
    silently, so a case with two `expect:` would be scored on whichever came second."""

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict[Any, Any]:
        """The mapping, or a ConstructorError at the second use of a key."""
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                if isinstance(key, Hashable) and key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"the key {key!r} appears twice", key_node.start_mark
                    )
                seen.add(key)
        return super().construct_mapping(node, deep=deep)  # type: ignore[arg-type]


class _Expansion:
    """Counts what a composed YAML document expands to, each shared node once per use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.memo: dict[int, tuple[int, int] | None] = {}

    def size(self, node: yaml.Node) -> tuple[int, int]:
        """(nodes, scalar characters) of the node with every alias expanded."""
        key = id(node)
        if key in self.memo:
            known = self.memo[key]
            if known is None:
                raise SuiteError(f"{self.path}: an alias refers to itself", "remove the cycle")
            return known
        self.memo[key] = None
        nodes, chars = 1, 0
        if isinstance(node, yaml.ScalarNode):
            chars = len(node.value)
        else:
            children: list[yaml.Node] = (
                [part for pair in node.value for part in pair]
                if isinstance(node, yaml.MappingNode)
                else list(node.value)
            )
            for child in children:
                more_nodes, more_chars = self.size(child)
                nodes += more_nodes
                chars += more_chars
                if nodes > MAX_SUITE_NODES or chars > MAX_SUITE_CHARS:
                    raise SuiteError(
                        f"{self.path} expands to more than {MAX_SUITE_NODES:,} YAML nodes or "
                        f"{MAX_SUITE_CHARS:,} characters (aliases repeat what they name)",
                        "write the cases out without nested aliases, or split the suite",
                    )
        self.memo[key] = (nodes, chars)
        return nodes, chars


def _bounded_yaml(path: Path, text: str) -> Any:
    """safe_load, refusing documents whose alias expansion exceeds the limits."""
    loader = UniqueKeyLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _Expansion(path).size(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _read(path: Path) -> Any:
    try:
        text = read_bounded(
            path, MAX_SUITE_BYTES, "suite file", SuiteError, "split it into several suites"
        )
        return _bounded_yaml(path, text)
    except RecursionError as exc:
        raise SuiteError(f"{path} is nested too deeply", "flatten the YAML") from exc
    except FileNotFoundError as exc:
        raise SuiteError(f"suite file {path} not found", "pass an existing .yaml file") from exc
    except OSError as exc:
        raise SuiteError(f"suite file {path} cannot be read: {exc.strerror}", "") from exc
    except yaml.YAMLError as exc:
        where = yaml_problem(exc)
        raise SuiteError(f"{path} is not valid YAML at {where}", "fix the file") from exc


def _messages(raw: Any) -> list[tuple[str, Any]]:
    """(field, value) of every text the pipeline would take as something a person said."""
    if not isinstance(raw, dict):
        return []
    found = [("message", raw.get("message"))]
    for name, key in (("history", "operator"), ("turns", "message"), ("turns", "operator")):
        entries = raw.get(name)
        if isinstance(entries, list):
            found += [
                (f"{name}.{i}.{key}", entry.get(key))
                for i, entry in enumerate(entries)
                if isinstance(entry, dict)
            ]
    return [(field, value) for field, value in found if isinstance(value, str)]


def _message_problems(path: Path, index: int, raw: Any) -> list[str]:
    label = _label(index, raw)
    problems = []
    for field, text in _messages(raw):
        if len(text) > MAX_MESSAGE_CHARS:
            problems.append(
                f"{path}: {label}: field {field}: the message is {len(text):,} characters; "
                f"the limit is {MAX_MESSAGE_CHARS:,}"
            )
        elif (problem := text_problem(text)) is not None:
            problems.append(f"{path}: {label}: field {field}: the message {problem}")
    return problems


def load_suite(path: Path) -> Suite:
    """Read and validate one suite file; all its problems are reported at once."""
    data = _read(path)
    if not isinstance(data, dict):
        raise SuiteError(f"{path}: a suite file is a mapping with name, target and cases", "")
    try:
        header = SuiteHeader.model_validate(data)
    except ValidationError as exc:
        lines = [f"{path}: field {_where(e['loc'])}: {e['msg']}" for e in exc.errors()]
        raise SuiteError("\n".join(lines), "see the suite contract in docs/evals.md") from exc
    model = CASE_MODELS[header.target]
    from evals.targets import spec_of  # the specs read the case models of this package

    if header.settings is not None and not spec_of(header.target).settings:
        raise SuiteError(
            f"{path}: field settings: only `conversation` suites run under their own settings",
            "remove `settings:` or use target: conversation",
        )
    perturb = _perturb_names(path, header)
    problems: list[str] = []
    cases: list[Case] = []
    seen: set[str] = set()
    for index, raw in enumerate(header.cases):
        too_long = _message_problems(path, index, raw)
        if too_long:
            problems.extend(too_long)
            continue
        if header.settings and isinstance(raw, dict):
            raw = {**raw, "settings": {**header.settings, **(raw.get("settings") or {})}}
        try:
            case = model.model_validate(raw)
        except ValidationError as exc:
            problems.extend(_case_errors(path, index, raw, exc))
            continue
        problems += [
            f"{path}: case {case.id!r}: field {where}: {what}"
            for where, what in gold_problems(case)
        ]
        if case.id in seen:
            problems.append(f"{path}: case {case.id!r}: field id: duplicate case id")
        seen.add(case.id)
        cases.append(case)  # type: ignore[arg-type]
    if not cases and not problems:
        problems.append(f"{path}: field cases: the suite has no cases")
    if problems:
        more = len(problems) - _MAX_REPORTED
        shown = problems[:_MAX_REPORTED] + ([f"... and {more} more"] if more > 0 else [])
        raise SuiteError("\n".join(shown), "see the suite contract in docs/evals.md")
    return Suite(
        name=header.name,
        target=header.target,
        description=header.description,
        gate=header.gate,
        cases=tuple(cases),
        path=path,
        perturb=perturb,
        reducer=header.epochs_reducer or "mean",
    )


def _perturb_names(path: Path, header: SuiteHeader) -> tuple[str, ...]:
    """The suite's `perturb:` names, or a SuiteError naming the file and what is wrong."""
    # the submodules, not the package: evals.perturb imports this package's case models
    from evals.perturb.cases import PERTURBED_TARGETS
    from evals.perturb.spec import PerturbError, parse_perturbations

    if header.perturb is None:
        return ()
    if header.target not in PERTURBED_TARGETS:
        raise SuiteError(
            f"{path}: field perturb: {header.target} suites have no messages to perturb",
            f"remove `perturb:`; it applies to {', '.join(sorted(PERTURBED_TARGETS))} suites",
        )
    try:
        parse_perturbations(header.perturb)
    except PerturbError as exc:
        raise SuiteError(f"{path}: field perturb: {exc.message}", exc.hint) from None
    return tuple(header.perturb)


def resolve_suite(spec: str) -> list[Path]:
    """A suite given as a path (file or folder of .yaml files) or a name under suites_dir()."""
    path = Path(spec)
    if path.is_dir():
        found = sorted([*path.glob("*.yaml"), *path.glob("*.yml")])
        if not found:
            raise SuiteError(f"no .yaml suite files in {path}", "pass a folder with suite files")
        return found
    if path.suffix in (".yaml", ".yml") or path.exists():
        return [path]
    named = suites_dir() / f"{spec}.yaml"
    if named.exists():
        return [named]
    known = sorted(p.stem for p in suites_dir().glob("*.yaml"))
    raise SuiteError(
        f"no suite called {spec!r}",
        f"pass a path, or one of: {', '.join(known)}" if known else "pass a path to a suite file",
    )


def load_suites(specs: Iterable[str] | None = None) -> list[Suite]:
    """The suites named or given by path (default: every suite in suites_dir())."""
    wanted = list(specs or [])
    paths = (
        [p for spec in wanted for p in resolve_suite(spec)]
        if wanted
        else resolve_suite(str(suites_dir()))
    )
    suites = [load_suite(p) for p in dict.fromkeys(p.resolve() for p in paths)]
    names: dict[str, Path] = {}
    for suite in suites:
        if suite.name in names:
            raise SuiteError(
                f"two suites are named {suite.name!r}: {names[suite.name]} and {suite.path}",
                "suite names must be unique within a run",
            )
        names[suite.name] = suite.path
    return suites
