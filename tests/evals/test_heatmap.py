"""Confusion heatmaps: well-formed SVG, every count shown, labels escaped, darker for more."""

from __future__ import annotations

from xml.etree import ElementTree

import pandas as pd

from evals.report.heatmap import confusion, heatmap_svg, save_heatmap

SVG = "{http://www.w3.org/2000/svg}"


def _matrix() -> pd.DataFrame:
    expected = pd.Series(["a<b", "a<b", "a<b", "c&d", "c&d", "e"])
    got = pd.Series(["a<b", "a<b", "c&d", "c&d", "e", None])
    return confusion(expected, got)


def test_confusion_counts_over_the_union_of_labels() -> None:
    matrix = _matrix()
    assert list(matrix.index) == list(matrix.columns) == ["a<b", "c&d", "e"]
    assert matrix.loc["a<b", "a<b"] == 2 and matrix.loc["a<b", "c&d"] == 1
    assert matrix.loc["c&d", "e"] == 1 and int(matrix.to_numpy().sum()) == 5  # None unscored


def test_svg_is_well_formed_with_escaped_labels_and_every_count() -> None:
    text = heatmap_svg(_matrix(), 'suite <x> & "y" — local — prompt v2')
    assert "<b" not in text.replace("<b>", "")  # no raw label markup leaks into the file
    svg = ElementTree.fromstring(text)
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert 'suite <x> & "y" — local — prompt v2' in texts  # unescaped by the parser
    assert texts.count("a<b") == 2 and texts.count("c&d") == 2  # row and column labels
    titles = [t.text for t in svg.iter(f"{SVG}title")]
    assert len(titles) == 9 and "a<b → c&d: 1" in titles and "e → e: 0" in titles
    assert sorted(t for t in texts if t and t.isdigit()) == ["1", "1", "1", "2"]  # zeros blank
    assert int(svg.get("width", "0")) > 100 and int(svg.get("height", "0")) > 100


def test_larger_counts_are_darker() -> None:
    svg = ElementTree.fromstring(heatmap_svg(_matrix(), "t"))
    fill = {
        rect.find(f"{SVG}title").text: rect.get("fill")  # type: ignore[union-attr]
        for rect in svg.iter(f"{SVG}rect")
        if rect.find(f"{SVG}title") is not None
    }

    def darkness(colour: str) -> int:
        return -sum(int(colour[k : k + 2], 16) for k in (1, 3, 5))

    assert fill["e → e: 0"] == "#f7fbff"  # zero is the light end
    assert (
        darkness(fill["a<b → a<b: 2"]) > darkness(fill["a<b → c&d: 1"]) > darkness(fill["e → e: 0"])
    )


def test_save_writes_the_svg(tmp_path) -> None:
    path = save_heatmap(_matrix(), tmp_path / "deep" / "confusion.svg", "t")
    assert path.read_text(encoding="utf-8").startswith("<svg ")
