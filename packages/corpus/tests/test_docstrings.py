"""Docstrings read as documentation: what a unit's summary and text are made of."""

from __future__ import annotations

import shutil
from pathlib import Path

from griffe import Parser

from codeweaver_corpus.packs.docstrings import render_docstring
from codeweaver_corpus.packs.extract import EXTRACTOR_VERSION, reader_digest


def test_a_module_title_is_not_part_of_its_summary() -> None:
    text = "requests.exceptions\n~~~~~~~~~~~~~~~~~~~\n\nThis module contains the exceptions. More."
    rendered = render_docstring(text, name="requests.exceptions", style=Parser.google)
    assert rendered.summary == "This module contains the exceptions."
    assert "~~~" not in rendered.text


def test_an_overlined_title_goes_and_numpydoc_sections_still_parse() -> None:
    text = (
        "=====\nNumPy\n=====\n\nProvides arrays.\n\nParameters\n----------\nx : int\n    The x.\n"
    )
    rendered = render_docstring(text, name="numpy", style=Parser.numpy)
    assert rendered.summary == "Provides arrays."
    assert "NumPy" not in rendered.text
    assert "`x` (int): The x." in rendered.text


def test_a_short_rule_under_a_longer_line_is_not_a_title() -> None:
    text = "Returns the value of the thing asked for.\n---\n\nThen more."
    rendered = render_docstring(text, name="f", style=Parser.google)
    assert rendered.summary.startswith("Returns the value")


def test_packs_rebuild_when_the_reader_changes(tmp_path: Path) -> None:
    """The manifest's extractor version follows every file of the reader, so no edit is missed."""
    reader = Path(render_docstring.__code__.co_filename).parent
    copy = tmp_path / "packs"
    shutil.copytree(reader, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert reader_digest(copy) == EXTRACTOR_VERSION
    docstrings = copy / "docstrings.py"
    docstrings.write_text(docstrings.read_text() + "\n# read differently\n")
    assert reader_digest(copy) != EXTRACTOR_VERSION
