"""`converse export promptfoo`: a suite as a promptfoo config with a Python provider.

The provider calls our pipeline (evals.export.bridge), so promptfoo scores the same code our
runner does; the assertions are the suite's expectations written as promptfoo assertions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from evals.dataset.cases import Case
from evals.dataset.load import Suite
from evals.dataset.models import (
    ClassifyCase,
    ForgetCase,
    MemoryBlockCase,
    TextCheck,
)
from evals.runner.providers import variant_label
from evals.targets import spec_of
from pipeline.errors import ConverseError
from pipeline.files import write_output
from pipeline.prompting import default_library

PROVIDER_FILE = "converse_provider.py"
CONFIG_FILE = "promptfooconfig.yaml"

SCRIPT_FILE = "converse_script.yaml"

PROVIDER_SOURCE = '''"""From `converse export promptfoo --suite SUITE --out DIR`: runs each test
through converse.

When the Python promptfoo runs this file with (PROMPTFOO_PYTHON, the config's pythonExecutable,
or `python` on PATH) can import converse-harness, the pipeline is called in this process.
Otherwise the `converse` command found on PATH answers through `converse export
promptfoo-worker`, one process kept for the whole eval. CONVERSE_HARNESS_ROOT, when set, names
a checkout to import from.
"""

import json
import os
import shutil
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))

if os.environ.get("CONVERSE_HARNESS_ROOT"):
    sys.path.insert(0, os.environ["CONVERSE_HARNESS_ROOT"])

try:
    from evals.export.bridge import call as _in_process
except ImportError:
    _in_process = None

_lock = threading.Lock()
_worker = None


def _config(options):
    config = dict((options or {}).get("config") or {})
    if config.get("script"):  # the scripted provider's fixture, exported beside this file
        config["script"] = os.path.join(HERE, config["script"])
    return config


def _start():
    converse = shutil.which("converse")
    if converse is None:
        return None
    return subprocess.Popen(
        [converse, "export", "promptfoo-worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )


def _ask(request):
    global _worker
    with _lock:
        if _worker is None or _worker.poll() is not None:
            _worker = _start()
        if _worker is None:
            return {
                "error": f"{sys.executable} cannot import converse-harness and `converse` is "
                "not on PATH — put converse on PATH, or export again with --python PATH"
            }
        _worker.stdin.write(json.dumps(request, ensure_ascii=False) + "\\n")
        _worker.stdin.flush()
        answer = _worker.stdout.readline()
    if not answer:
        return {"error": "`converse export promptfoo-worker` stopped; its error went to stderr"}
    return json.loads(answer)


def call_api(prompt, options, context):
    """promptfoo's entry point: one test's vars -> our pipeline's answer."""
    config = _config(options)
    variables = (context or {}).get("vars") or {}
    if _in_process is not None:
        return _in_process(config, variables)
    return _ask({"config": config, "vars": variables})
'''


def _js(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _param_asserts(name: str, check: TextCheck, source: str) -> list[dict[str, Any]]:
    value = f"String(({source}.params || {{}})[{_js(name)}] || '').toLowerCase()"
    out = [
        {
            "type": "javascript",
            "value": f"{value}.includes({_js(n.casefold())})",
            "metric": f"params.{name}",
        }
        for n in check.contains
    ]
    out += [
        {
            "type": "javascript",
            "value": f"!{value}.includes({_js(n.casefold())})",
            "metric": f"params.{name}",
        }
        for n in check.excludes
    ]
    return out


def _intent_asserts(intent: str | None, params: dict[str, TextCheck]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"type": "is-json"}]
    if intent is not None:
        out.append(
            {
                "type": "javascript",
                "value": f"JSON.parse(output).intent === {_js(intent)}",
                "metric": "intent",
            }
        )
    for name, check in params.items():
        out += _param_asserts(name, check, "JSON.parse(output)")
    return out


def assertions(case: Case) -> list[dict[str, Any]]:
    """The case's expectations as promptfoo assertions."""
    if isinstance(case, ClassifyCase):
        return _intent_asserts(case.expect.intent, case.expect.params)
    if isinstance(case, MemoryBlockCase):
        e = case.expect
        out: list[dict[str, Any]] = [{"type": "contains", "value": s} for s in e.includes]
        out += [{"type": "not-contains", "value": s} for s in e.excludes]
        if e.order:
            needles = json.dumps(e.order, ensure_ascii=False)
            out.append(
                {
                    "type": "javascript",
                    "value": f"(() => {{ const at = {needles}.map(s => output.indexOf(s)); "
                    "return at.every((v, i) => v >= 0 && (i === 0 || at[i - 1] < v)); })()",
                    "metric": "order",
                }
            )
        if e.max_chars is not None:
            out.append(
                {
                    "type": "javascript",
                    "value": f"[...output].length <= {e.max_chars}",
                    "metric": "max_chars",
                }
            )
        if e.exact_chars is not None:
            out.append(
                {
                    "type": "javascript",
                    "value": f"[...output].length === {e.exact_chars}",
                    "metric": "exact_chars",
                }
            )
        if e.empty is not None:
            out.append(
                {
                    "type": "javascript",
                    "value": "output === ''" if e.empty else "output !== ''",
                    "metric": "empty",
                }
            )
        return out
    if isinstance(case, ForgetCase):
        want = json.dumps(sorted(case.expect.matched), ensure_ascii=False)
        return [
            {"type": "is-json"},
            {
                "type": "javascript",
                "value": f"JSON.parse(output).action === {_js(case.expect.action)}",
                "metric": "action",
            },
            {
                "type": "javascript",
                "value": "JSON.stringify([...JSON.parse(output).matched].sort()) === "
                f"JSON.stringify({want})",
                "metric": "matched",
            },
        ]
    raise TypeError(f"a {type(case).__name__} has no promptfoo assertions")


def _has_message(target: str) -> bool:
    """Whether the target's cases carry a message (a test's `message` var, which promptfoo's
    table shows)."""
    return "message" in spec_of(target).case_model.model_fields


def _test(suite: Suite, case: Case) -> dict[str, Any]:
    variables: dict[str, Any] = {"case_id": case.id}
    message = getattr(case, "message", None)
    if message is not None:
        variables["message"] = message
    variables["case"] = json.dumps(
        case.model_dump(mode="json", exclude_defaults=True), ensure_ascii=False
    )
    return {
        "description": f"{suite.name}/{case.id}",
        "vars": variables,
        "metadata": {"suite": suite.name, "tags": ",".join(case.tags)},
        "assert": assertions(case),
    }


def _provider_entry(
    suite: Suite,
    provider: str,
    variant: dict[str, str],
    script: Path | None,
    python: str | None,
    options: dict[str, str],
) -> dict[str, Any]:
    spec = spec_of(suite.target)
    library = default_library(variant)
    refs = {f: library.source(f)[1] for f in library.active() if f.startswith(spec.cache_families)}
    config: dict[str, Any] = {
        "target": suite.target,
        "provider": provider,
        "prompt_versions": variant,
    }
    if options:  # e.g. local-llm's model: the bridge builds the provider with them
        config["options"] = dict(options)
    # No interpreter path unless asked for: the config must run on another machine, where
    # promptfoo's own Python or the `converse` on PATH stands in (see PROVIDER_SOURCE).
    if python is not None:
        config["pythonExecutable"] = python
    if script is not None:
        config["script"] = SCRIPT_FILE
    name = "pipeline" if spec.runs_on == "pipeline" else provider
    label = f"converse {name}" + (f" [{variant_label(variant)}]" if variant else "")
    entry: dict[str, Any] = {"id": f"file://{PROVIDER_FILE}", "label": label, "config": config}
    if refs:
        config["prompt_hashes"] = {f: f"{r.version} {r.sha256[:12]}" for f, r in refs.items()}
    return entry


def export_promptfoo(
    suite: Suite,
    out: Path,
    *,
    provider: str = "local",
    variants: list[dict[str, str]] | None = None,
    script: Path | None = None,
    python: str | None = None,
    options: dict[str, str] | None = None,
) -> Path:
    """Write promptfooconfig.yaml and the provider file into `out`; returns the config path.

    The scripted provider's fixture is copied beside them, so the folder runs anywhere;
    `python` pins the interpreter promptfoo starts (default: promptfoo's choice).
    """
    refusal = spec_of(suite.target).not_exportable
    if refusal is not None:
        raise ConverseError(
            f"suite {suite.name} is a {suite.target} suite; {refusal}",
            f"run it with `converse eval --suite {suite.path}`",
        )
    if script is not None and not script.is_file():
        raise ConverseError(f"no script file at {script}", "check the --script path")
    if out.exists() and not out.is_dir():
        raise ConverseError(
            f"--out {out} is a file; promptfoo's config and provider go into a folder",
            "name a folder (it is created when missing)",
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConverseError(
            f"cannot create the folder {out}: {exc.strerror}", "name a writable folder"
        ) from exc
    chosen = variants or [{}]
    if not spec_of(suite.target).cache_families:  # no prompt makes its answer
        chosen = [{}]
    config = {
        "description": f"converse suite {suite.name} ({suite.target}): {suite.description}".strip(),
        # The pipeline renders its own versioned prompts (see each provider's prompt_hashes);
        # promptfoo's prompt only carries the message, so promptfoo's table shows it.
        "prompts": [
            {
                "id": "message",
                "label": "message",
                "raw": "{{message}}" if _has_message(suite.target) else "{{case_id}}",
            }
        ],
        "providers": [
            _provider_entry(suite, provider, v, script, python, options or {}) for v in chosen
        ],
        "tests": [_test(suite, case) for case in suite.cases],
        "evaluateOptions": {"maxConcurrency": 1},
    }
    write_output(out / PROVIDER_FILE, PROVIDER_SOURCE, "promptfoo provider")
    if script is not None:
        write_output(out / SCRIPT_FILE, script.read_bytes(), "scripted fixture")
    path = out / CONFIG_FILE
    header = (
        f"# Exported by converse export promptfoo from suite {suite.name}\n"
        f"# Run: npx promptfoo@0.121.20 eval -c {CONFIG_FILE}   (Node 20; see docs/evals.md)\n"
        "# with converse-harness importable by promptfoo's Python, or `converse` on PATH\n"
    )
    text = yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=100)
    return write_output(path, header + text, "promptfoo config")
