"""Train the reader: `python -m training.train` (docs/reader.md).

Default: heads (a token tagger and sequence heads; `--layers N` puts N transformer layers of
their own under them) on the frozen hidden states of the shipped int8 MiniLM encoder,
exported to ONNX (int8 where accuracy holds) beside a manifest with the weights' and the
corpus's sha256. `--mode finetune` trains the whole encoder instead, for comparison only (its
export would add a second 23 MB model to the install).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pipeline.providers.reader.decode import ReaderOutput, reading
from pipeline.providers.reader.model import WEIGHTS
from training.build import corpus_sha256, read_corpus
from training.features import (
    CHOICES,
    FLAGS,
    IGNORE,
    TAGS,
    Example,
    context_of,
    example,
    frozen_hidden,
    tokenizer,
)
from training.metrics import scores
from training.model import OUTPUTS, Ensemble, FineTuned, Heads, finetune_encoder
from training.schema import INTENT_NAMES, PROFILE_FIELDS, RELATIONS

LABELS = {
    "relation": RELATIONS,
    "intent": INTENT_NAMES,
    "profile": PROFILE_FIELDS,
    "choice": CHOICES,
    "flags": FLAGS,
    "tags": TAGS,
}
SEQ_HEADS = ("relation", "intent", "profile", "choice")


def seed_everything(seed: int, threads: int) -> None:
    """Seeds and thread count, so a run on the same machine gives the same weights."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)


def batches(lengths: list[int], size: int, rng: random.Random) -> list[list[int]]:
    """Index batches of similar length (little padding), in a seeded random order."""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    chunks = [order[i : i + size] for i in range(0, len(order), size)]
    rng.shuffle(chunks)
    return chunks


def collate(exs: list[Example], hidden: list[Any] | None) -> dict[str, torch.Tensor]:
    """Padded inputs and targets of one batch."""
    width = max(len(e.encoded.ids) for e in exs)
    n = len(exs)
    out = {
        "ids": torch.zeros(n, width, dtype=torch.long),
        "types": torch.zeros(n, width, dtype=torch.long),
        "mask": torch.zeros(n, width),
        "tags": torch.full((n, width), IGNORE, dtype=torch.long),
        "items": torch.tensor(np.stack([e.items for e in exs])),
        "flags": torch.tensor(np.stack([e.flags for e in exs])),
        **{h: torch.tensor([e.seq[h] for e in exs]) for h in SEQ_HEADS},
    }
    if hidden is not None:
        out["hidden"] = torch.zeros(n, width, 384)
    for r, e in enumerate(exs):
        t = len(e.encoded.ids)
        out["ids"][r, :t] = torch.from_numpy(e.encoded.ids)
        out["types"][r, :t] = torch.from_numpy(e.encoded.types)
        out["mask"][r, :t] = 1.0
        out["tags"][r, :t] = torch.from_numpy(e.tags)
        if hidden is not None:
            out["hidden"][r, :t] = torch.from_numpy(hidden[r].astype(np.float32))
    return out


def forward(model: nn.Module, batch: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Every head's logits for a batch."""
    if isinstance(model, FineTuned):
        outputs = model(batch["ids"], batch["types"], batch["mask"].long())
    else:
        outputs = model(batch["hidden"], batch["mask"], batch["types"].float())
    return dict(zip(OUTPUTS, outputs, strict=True))


def loss_of(logits: dict[str, torch.Tensor], batch: dict[str, torch.Tensor]) -> torch.Tensor:
    """The sum of every head's loss; item targets count only where items were chosen."""
    ce = nn.functional.cross_entropy
    loss = sum(ce(logits[h], batch[h]) for h in SEQ_HEADS)
    loss = loss + ce(
        logits["tags"].reshape(-1, len(TAGS)), batch["tags"].reshape(-1), ignore_index=IGNORE
    )
    loss = loss + nn.functional.binary_cross_entropy_with_logits(logits["flags"], batch["flags"])
    some = batch["choice"] == CHOICES.index("some")
    if some.any():
        loss = loss + nn.functional.binary_cross_entropy_with_logits(
            logits["items"][some], batch["items"][some]
        )
    return loss  # type: ignore[return-value, unused-ignore]


def fit(
    model: nn.Module, exs: list[Example], hidden: list[Any] | None, args: argparse.Namespace
) -> float:
    """Train in place; the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(args.seed)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    plan = [batches([len(e.encoded.ids) for e in exs], args.batch, rng) for _ in range(args.epochs)]
    total = sum(len(p) for p in plan)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, args.lr, total_steps=total, pct_start=0.1
    )
    model.train()
    for epoch, chunks in enumerate(plan):
        running = 0.0
        for idx in chunks:
            batch = collate([exs[i] for i in idx], [hidden[i] for i in idx] if hidden else None)
            loss = loss_of(forward(model, batch), batch)
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call, unused-ignore]
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            running += float(loss.detach())
        took = time.perf_counter() - started
        print(f"epoch {epoch + 1}: loss {running / len(chunks):.4f} ({took:.0f} s)")
    model.eval()
    return time.perf_counter() - started


@torch.no_grad()
def logits_of(
    model: nn.Module, exs: list[Example], hidden: list[Any] | None
) -> list[dict[str, Any]]:
    """Each example's logits as a batch of one (what decode takes)."""
    out: list[dict[str, Any]] = [{} for _ in exs]
    order = sorted(range(len(exs)), key=lambda i: len(exs[i].encoded.ids))
    for start in range(0, len(order), 64):
        idx = order[start : start + 64]
        batch = collate([exs[i] for i in idx], [hidden[i] for i in idx] if hidden else None)
        logits = forward(model, batch)
        for r, i in enumerate(idx):
            t = len(exs[i].encoded.ids)
            out[i] = {
                h: v[r : r + 1].numpy() if h != "tags" else v[r : r + 1, :t].numpy()
                for h, v in logits.items()
            }
    return out


def temperatures(exs: list[Example], logits: list[dict[str, Any]]) -> dict[str, float]:
    """Per-head temperatures that minimise the validation split's negative log-likelihood."""
    grid = np.round(np.arange(0.5, 4.01, 0.05), 2)
    found: dict[str, float] = {}
    for head in (*SEQ_HEADS, "tags"):
        if head == "tags":
            z = np.concatenate([lg["tags"][0] for lg in logits])
            y = np.concatenate([e.tags for e in exs])
            keep = y != IGNORE
            z, y = z[keep], y[keep]
        else:
            z = np.concatenate([lg[head] for lg in logits])
            y = np.array([e.seq[head] for e in exs])
        nll = []
        for t in grid:
            s = z / t
            s = s - s.max(axis=1, keepdims=True)
            logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
            nll.append(-logp[np.arange(len(y)), y].mean())
        found[head] = float(grid[int(np.argmin(nll))])
    return found


def decoded(
    exs: list[Example], logits: list[dict[str, Any]], temps: dict[str, float]
) -> list[ReaderOutput]:
    """The readings the runtime would give for these logits."""
    return [
        reading(lg, e.encoded, e.row["message"], context_of(e.row), LABELS, temps)
        for e, lg in zip(exs, logits, strict=True)
    ]


def by_source(exs: list[Example], outs: list[ReaderOutput]) -> dict[str, Any]:
    """Scores over the whole split and per source."""
    result = {"all": scores([e.row for e in exs], outs)}
    for source in sorted({e.row["source"] for e in exs}):
        keep = [i for i, e in enumerate(exs) if e.row["source"] == source]
        result[source] = scores([exs[i].row for i in keep], [outs[i] for i in keep])
    return result


def cached_hidden(
    name: str, exs: list[Example], session: Any, args: argparse.Namespace
) -> list[Any]:
    """The frozen encoder's hidden states, kept in --cache (by corpus and split) when given."""
    if not args.cache:
        return frozen_hidden(exs, session)
    path = args.cache / f"hidden-{corpus_sha256()[:16]}-{name}.npz"
    if path.is_file():
        with np.load(path) as stored:
            return [stored[f"arr_{i}"] for i in range(len(exs))]
    found = frozen_hidden(exs, session)
    args.cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, *found)
    return found


def main(argv: list[str] | None = None) -> None:
    """Train, calibrate, score and (for the frozen encoder) export the reader."""
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__)
    parser.add_argument("--mode", choices=("frozen", "finetune"), default="frozen")
    parser.add_argument(
        "--layers", type=int, default=0, help="transformer layers over the frozen encoder"
    )
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument(
        "--ensemble", type=int, default=5, help="heads trained from seeds S..S+N-1, averaged"
    )
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="train on the first N rows only")
    parser.add_argument("--no-export", action="store_true", help="score only; write no weights")
    parser.add_argument("--no-int8", action="store_true", help="export float32 heads")
    parser.add_argument("--weights", type=Path, default=WEIGHTS, help="where the heads go")
    parser.add_argument("--cache", type=Path, help="keep the frozen hidden states here")
    parser.add_argument("--report", type=Path, help="write the scores as JSON here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    seed_everything(args.seed, args.threads)
    tok = tokenizer()
    rows = read_corpus()
    split_rows = {
        name: [example(r, tok) for r in rows if r["split"] == name]
        for name in ("train", "validation", "test")
    }
    split = dict(split_rows)
    if args.limit:  # a quick run: the first N training rows (the other splits whole)
        split["train"] = split["train"][: args.limit]
    print({k: len(v) for k, v in split.items()})
    hidden: dict[str, list[Any] | None] = dict.fromkeys(split)
    model: nn.Module
    if args.mode == "frozen":
        from pipeline.providers.local.onnx import load

        session = load(args.threads).session
        for name, exs in split.items():
            hidden[name] = cached_hidden(name, split_rows[name], session, args)[: len(exs)]
        print(f"frozen hidden states: {time.perf_counter() - started:.0f} s")
        members = []
        train_s = 0.0
        for k in range(args.ensemble):  # member k: seed + k for its initial weights and order
            torch.manual_seed(args.seed + k)
            members.append(Heads(args.layers))
            member_args = argparse.Namespace(**{**vars(args), "seed": args.seed + k})
            train_s += fit(members[-1], split["train"], hidden["train"], member_args)
        model = members[0] if args.ensemble == 1 else Ensemble(members)
    else:
        model = FineTuned(finetune_encoder())
        train_s = fit(model, split["train"], hidden["train"], args)
    val_logits = logits_of(model, split["validation"], hidden["validation"])
    temps = temperatures(split["validation"], val_logits)
    test_logits = logits_of(model, split["test"], hidden["test"])
    report: dict[str, Any] = {
        "mode": args.mode,
        "layers": args.layers if args.mode == "frozen" else None,
        "epochs": args.epochs,
        "ensemble": args.ensemble if args.mode == "frozen" else 1,
        "train_rows": len(split["train"]),
        "train_s": round(train_s),
        "temperatures": temps,
        "test_torch": by_source(split["test"], decoded(split["test"], test_logits, temps)),
    }
    if args.mode == "frozen" and not args.no_export:
        from training.export import export

        report.update(export(model, temps, args, LABELS, split["test"]))
    report["total_s"] = round(time.perf_counter() - started)
    print(json.dumps(report, indent=1))
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
