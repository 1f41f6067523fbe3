"""A report as sections of text, tables and images, rendered to Markdown and to HTML."""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


@dataclass(frozen=True)
class Text:
    """A paragraph (Markdown inline syntax is kept as is in both renderings)."""

    text: str


@dataclass(frozen=True)
class Table:
    """A table; every cell is shown as text."""

    frame: pd.DataFrame
    caption: str = ""


@dataclass(frozen=True)
class Image:
    """A PNG beside the report (Markdown links it; HTML embeds it)."""

    path: Path
    alt: str


Block = Text | Table | Image


@dataclass
class Section:
    """A titled list of blocks."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    level: int = 2


def _md_cell(value: object) -> str:
    text = "" if value is None else str(value)
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


def render_markdown(title: str, sections: list[Section]) -> str:
    """The report as Markdown (images linked by file name)."""
    out = [f"# {title}", ""]
    for section in sections:
        out += ["#" * section.level + " " + section.title, ""]
        for block in section.blocks:
            if isinstance(block, Text):
                out += [block.text, ""]
            elif isinstance(block, Table):
                if block.caption:
                    out += [f"**{block.caption}**", ""]
                out += [markdown_table(block.frame), ""]
            else:
                out += [f"![{block.alt}]({block.path.name})", ""]
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1d1d1f; max-width: 90rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; } h3 { font-size: 1.05rem; }
table { border-collapse: collapse; margin: .5rem 0 1.25rem; font-size: .85rem; }
th, td { border: 1px solid #d0d0d5; padding: .25rem .5rem; text-align: left; vertical-align: top; }
td { white-space: pre-line; }
th { background: #f2f2f5; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: .25rem 0; }
img.heatmap { max-width: 100%; border: 1px solid #e0e0e5; }
code { background: #f4f4f6; padding: 0 .2rem; }
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


def _html_table(block: Table) -> str:
    if block.frame.empty:
        return "<p><em>(none)</em></p>"
    caption = f"<caption>{html.escape(block.caption)}</caption>" if block.caption else ""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in block.frame.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in block.frame.itertuples(index=False)
    )
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _html_image(block: Image) -> str:
    data = base64.b64encode(block.path.read_bytes()).decode("ascii")
    alt = html.escape(block.alt)
    return f'<p><img class="heatmap" alt="{alt}" src="data:image/png;base64,{data}"></p>'


def render_html(title: str, sections: list[Section]) -> str:
    """The report as one self-contained HTML page (images embedded)."""
    body = [f"<h1>{html.escape(title)}</h1>"]
    for section in sections:
        level = min(6, section.level)
        body.append(f"<h{level}>{html.escape(section.title)}</h{level}>")
        for block in section.blocks:
            if isinstance(block, Text):
                body.append(f"<p>{_inline(block.text)}</p>")
            elif isinstance(block, Table):
                body.append(_html_table(block))
            else:
                body.append(_html_image(block))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head>"
        "<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
