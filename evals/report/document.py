"""A report as sections of text, tables and images, rendered to Markdown and to HTML.

The HTML page is read in a browser before a release: every table sits in a box that scrolls
sideways rather than widening the page, long labels are shortened with the full text on hover,
and long lists can be folded (`Details`).
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pandas as pd


@dataclass(frozen=True)
class Text:
    """A paragraph (Markdown inline syntax is kept as is in both renderings)."""

    text: str


@dataclass(frozen=True)
class Table:
    """A table; every cell is shown as text.

    In HTML the cells of the `short` columns are abbreviated, the full text on hover.
    """

    frame: pd.DataFrame
    caption: str = ""
    short: tuple[str, ...] = ()


@dataclass(frozen=True)
class Image:
    """A PNG beside the report (Markdown links it; HTML embeds it)."""

    path: Path
    alt: str


GateState = Literal["pass", "fail", "none"]
_STATE_TEXT = {"pass": "PASS", "fail": "FAIL", "none": "no bound"}


@dataclass(frozen=True)
class Verdict:
    """One gate's verdict over the whole run, and what it rests on."""

    gate: str
    state: GateState
    detail: str


@dataclass(frozen=True)
class Verdicts:
    """A row of gate verdicts (the head of a report)."""

    items: Sequence[Verdict]


@dataclass(frozen=True)
class Details:
    """Blocks folded under a one-line summary (open in Markdown, collapsed in HTML)."""

    summary: str
    blocks: Sequence[Block]
    open: bool = False


Block = Text | Table | Image | Verdicts | Details


@dataclass
class Section:
    """A titled list of blocks; its anchor is made from the title."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    level: int = 2

    @property
    def anchor(self) -> str:
        """GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens."""
        return re.sub(r"[^\w\- ]", "", self.title.lower()).replace(" ", "-")


def abbreviate(text: str, limit: int = 36) -> str:
    """A label short enough for a table cell: "local (…)" for "local (a long description)"."""
    if len(text) <= limit:
        return text
    head = text.split(" (", 1)[0]
    if len(head) < len(text) and len(head) <= limit:
        return head + " (…)"
    cut = text[: limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"


# What opens raw HTML in Markdown (CommonMark: a tag, a closing tag, a comment, a declaration
# or a processing instruction): "<" before a letter, "/", "!" or "?".
_HTML_OPENER = re.compile(r"<(?=[A-Za-z/!?])")


def md_text(text: str) -> str:
    """Text for Markdown with its HTML made inert, so a case id, a note or a model's answer
    holding `<script>` or `<img onerror>` is shown, never run, where the Markdown is rendered:
    every "<" that could open a tag becomes `&lt;` (code spans too: which backticks open one
    is Markdown's call). A "<" that opens nothing ("50% < 90%") stays as it is."""
    return _HTML_OPENER.sub("&lt;", text)


def _md_cell(value: object) -> str:
    text = md_text("" if value is None else str(value))
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", "<br>")


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table."""
    if frame.empty:
        return "_(none)_"
    head = "| " + " | ".join(_md_cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = [
        "| " + " | ".join(_md_cell(v) for v in row) + " |" for row in frame.itertuples(index=False)
    ]
    return "\n".join([head, rule, *body])


def _contents(sections: Sequence[Section]) -> list[tuple[str, str]]:
    return [(s.anchor, s.title) for s in sections if s.level == 2]


def _md_blocks(blocks: Sequence[Block]) -> list[str]:
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Text):
            out += [md_text(block.text), ""]
        elif isinstance(block, Table):
            if block.caption:
                out += [f"**{md_text(block.caption)}**", ""]
            out += [markdown_table(block.frame), ""]
        elif isinstance(block, Verdicts):
            out += [
                f"- **{md_text(v.gate)}**: {_STATE_TEXT[v.state]} — {md_text(v.detail)}"
                for v in block.items
            ]
            out.append("")
        elif isinstance(block, Details):
            out += [f"**{md_text(block.summary)}**", "", *_md_blocks(block.blocks)]
        else:
            out += [f"![{block.alt}]({block.path.name})", ""]
    return out


def render_markdown(title: str, sections: list[Section]) -> str:
    """The report as Markdown (images linked by file name)."""
    links = " · ".join(f"[{md_text(name)}](#{anchor})" for anchor, name in _contents(sections))
    out = [f"# {md_text(title)}", "", f"Sections: {links}", ""]
    for section in sections:
        out += ["#" * section.level + " " + md_text(section.title), "", *_md_blocks(section.blocks)]
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; padding: 0 1.5rem;
       color: #1d1d1f; max-width: 90rem; }
h1 { font-size: 1.6rem; margin-bottom: .5rem; } h2 { font-size: 1.25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; } h1, h2, h3, p { overflow-wrap: anywhere; }
nav { font-size: .9rem; margin-bottom: 1rem; } nav a { margin-right: .9rem; white-space: nowrap; }
.scroll { overflow-x: auto; max-width: 100%; margin: .5rem 0 1.25rem; }
table { border-collapse: collapse; font-size: .85rem; }
th, td { border: 1px solid #d0d0d5; padding: .25rem .5rem; text-align: left; vertical-align: top; }
td { white-space: pre-line; max-width: 32rem; overflow-wrap: break-word; }
th { background: #f2f2f5; position: sticky; top: 0; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: .25rem 0; }
span[title] { text-decoration: underline dotted; cursor: help; white-space: nowrap; }
img.heatmap { max-width: 100%; border: 1px solid #e0e0e5; }
code { background: #f4f4f6; padding: 0 .2rem; }
details { margin: .4rem 0; } summary { cursor: pointer; font-weight: 600; }
details > :not(summary) { margin-left: 1rem; }
ul.verdicts { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
ul.verdicts li { border: 1px solid #d0d0d5; border-radius: .4rem; padding: .4rem .7rem;
                 max-width: 28rem; }
ul.verdicts b { margin-right: .4rem; }
.pass { background: #e8f5e9; border-color: #9ccc9f !important; }
.fail { background: #fdecea; border-color: #e57373 !important; }
.none { background: #f4f4f6; }
"""


def _inline(text: str) -> str:
    """Escape, then render `code` and **bold** (the only Markdown the report's texts use)."""
    escaped = html.escape(text)
    parts = escaped.split("`")
    for i in range(1, len(parts), 2):
        parts[i] = f"<code>{parts[i]}</code>"
    joined = "".join(parts)
    bold = joined.split("**")
    for i in range(1, len(bold), 2):
        bold[i] = f"<strong>{bold[i]}</strong>"
    return "".join(bold)


def _html_cell(value: object, short: bool) -> str:
    text = str(value)
    brief = abbreviate(text) if short else text
    if brief == text:
        return f"<td>{html.escape(text)}</td>"
    return f'<td><span title="{html.escape(text)}">{html.escape(brief)}</span></td>'


def _html_table(block: Table) -> str:
    if block.frame.empty:
        return "<p><em>(none)</em></p>"
    caption = f"<caption>{html.escape(block.caption)}</caption>" if block.caption else ""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in block.frame.columns)
    short = [str(c) in block.short for c in block.frame.columns]
    rows = "".join(
        "<tr>" + "".join(_html_cell(v, s) for v, s in zip(row, short, strict=True)) + "</tr>"
        for row in block.frame.itertuples(index=False)
    )
    table = f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    return f'<div class="scroll">{table}</div>'


def _html_verdicts(block: Verdicts) -> str:
    items = "".join(
        f'<li class="{v.state}"><b>{html.escape(v.gate)}</b>{_STATE_TEXT[v.state]}'
        f"<br><small>{html.escape(v.detail)}</small></li>"
        for v in block.items
    )
    return f'<ul class="verdicts">{items}</ul>'


def _html_blocks(blocks: Sequence[Block]) -> list[str]:
    body: list[str] = []
    for block in blocks:
        if isinstance(block, Text):
            body.append(f"<p>{_inline(block.text)}</p>")
        elif isinstance(block, Table):
            body.append(_html_table(block))
        elif isinstance(block, Verdicts):
            body.append(_html_verdicts(block))
        elif isinstance(block, Details):
            opened = " open" if block.open else ""
            body += [
                f"<details{opened}><summary>{_inline(block.summary)}</summary>",
                *_html_blocks(block.blocks),
                "</details>",
            ]
        else:
            body.append(_html_image(block))
    return body


def _html_image(block: Image) -> str:
    data = base64.b64encode(block.path.read_bytes()).decode("ascii")
    alt = html.escape(block.alt)
    kind = "svg+xml" if block.path.suffix == ".svg" else "png"
    return f'<p><img class="heatmap" alt="{alt}" src="data:image/{kind};base64,{data}"></p>'


def render_html(title: str, sections: list[Section]) -> str:
    """The report as one self-contained HTML page (images embedded)."""
    links = "".join(
        f'<a href="#{html.escape(anchor)}">{html.escape(name)}</a>'
        for anchor, name in _contents(sections)
    )
    body = [f"<h1>{html.escape(title)}</h1>", f"<nav>{links}</nav>"]
    for section in sections:
        level = min(6, section.level)
        anchor = html.escape(section.anchor)
        body.append(f'<h{level} id="{anchor}">{html.escape(section.title)}</h{level}>')
        body += _html_blocks(section.blocks)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head>"
        "<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
