"""Docstrings read as documentation: what a unit's summary and text are made of."""

from __future__ import annotations

import shutil
from pathlib import Path

from griffe import Parser

from codeweaver_corpus.packs.docstrings import module_summary, render_docstring
from codeweaver_corpus.packs.extract import extractor_version, reader_digest, reader_imports


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


def test_a_module_page_title_is_its_reST_title_when_its_first_sentence_is_a_fragment() -> None:
    numpy = "NumPy\n=====\n\nProvides\n  1. An array object of arbitrary homogeneous items\n"
    assert module_summary(numpy) == "NumPy"
    requests = "requests.exceptions\n~~~~~~~~~~~~~~~~~~~\n\nThis module contains the exceptions."
    assert module_summary(requests) == "This module contains the exceptions."
    assert module_summary("") == ""


def test_a_directive_inside_a_note_or_parameter_reads_as_words() -> None:
    text = (
        "Place a legend.\n\nParameters\n----------\nkey : str\n    The key.\n"
        "    .. seealso:: other_thing\n\nNotes\n-----\n.. note::\n\n    This is the pyplot"
        " wrapper.\n\nThe density is\n\n.. math:: p(x) = a x\n"
    )
    rendered = render_docstring(text, name="f", style=Parser.numpy)
    assert ".. " not in rendered.text
    assert "The key. See also: other_thing" in rendered.text
    assert "Note: This is the pyplot wrapper." in rendered.text
    assert "The density is p(x) = a x" in rendered.text


def test_reST_field_markers_do_not_show_in_the_prose() -> None:
    text = (
        "Find all tags that match.\n\n:kwargs: Additional filters on attribute values.\n\n"
        ":meta private:\n\nMore text about `x` and :func:`len`.\n"
    )
    rendered = render_docstring(text, name="find_all", style=Parser.google)
    assert "kwargs: Additional filters on attribute values." in rendered.text
    assert "meta private" not in rendered.text
    assert ":kwargs:" not in rendered.text


def test_google_examples_written_as_plain_code_are_code_blocks() -> None:
    # Selenium's examples are code under the title, with no `>>>` and no `::` block.
    click = (
        'Clicks the element.\n\nExample:\n    element = driver.find_element(By.ID, "foo")\n'
        "    element.click()"
    )
    rendered = render_docstring(click, name="click", style=Parser.google)
    assert rendered.examples == ['element = driver.find_element(By.ID, "foo")\nelement.click()']
    assert '```\nelement = driver.find_element(By.ID, "foo")\nelement.click()\n```' in rendered.text
    assert "Example: element" not in rendered.text
    send_keys = (
        "Simulates typing into the element.\n\nExamples:\n    To send a simple key event::\n\n"
        '    field = driver.find_element(By.NAME, "username")\n    field.send_keys("admin")\n\n'
        "    For example:\n\n    # a comment alone is not code\n"
    )
    rendered = render_docstring(send_keys, name="send_keys", style=Parser.google)
    assert rendered.examples == [
        'field = driver.find_element(By.NAME, "username")\nfield.send_keys("admin")'
    ]
    assert "To send a simple key event:\n" in rendered.text
    assert "::" not in rendered.text
    assert "```\nFor example:" not in rendered.text
    literal = "Find an element.\n\nExample:\n    `element = driver.find_element(By.ID, 'foo')`"
    rendered = render_docstring(literal, name="find_element", style=Parser.google)
    assert rendered.examples == ["element = driver.find_element(By.ID, 'foo')"]
    assert "```\n# a comment" not in rendered.text


def test_a_bullet_list_keeps_an_item_per_line() -> None:
    # pandas' `DataFrame.loc`: items wrapped over lines, one after another without blank lines.
    loc = (
        "Access a group of rows and columns by label(s) or a boolean array.\n\n"
        "Allowed inputs are:\n\n"
        "- A single label, e.g. ``5`` or ``'a'``, (note that ``5`` is\n"
        "  interpreted as a *label* of the index).\n"
        "- A list or array of labels, e.g. ``['a', 'b', 'c']``.\n"
        "- An alignable boolean Series. The index of the key will be aligned before\n"
        "  masking.\n\n"
        "See more at Selection by Label."
    )
    text = render_docstring(loc, name="loc", style=Parser.numpy).text
    assert (
        "Allowed inputs are:\n\n"
        "- A single label, e.g. `5` or `'a'`, (note that `5` is interpreted as a *label* of the "
        "index).\n"
        "- A list or array of labels, e.g. `['a', 'b', 'c']`.\n"
        "- An alignable boolean Series. The index of the key will be aligned before masking.\n\n"
        "See more at Selection by Label."
    ) in text


def test_packs_rebuild_when_the_reader_changes(tmp_path: Path) -> None:
    """The manifest's extractor version follows every file of the reader, so no edit is missed."""
    reader = Path(render_docstring.__code__.co_filename).parent
    copy = tmp_path / "packs"
    shutil.copytree(reader, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert reader_digest(copy) == extractor_version()
    docstrings = copy / "docstrings.py"
    docstrings.write_text(docstrings.read_text() + "\n# read differently\n")
    assert reader_digest(copy) != extractor_version()


def test_the_reader_s_version_follows_the_modules_it_reads_with() -> None:
    """Docstrings go through `pydocs.rst` and `codeweaver_engine.markup`: edits there count."""
    reader = Path(render_docstring.__code__.co_filename).parent
    imported = {(p.parent.name, p.name) for p in reader_imports(reader)}
    assert {("pydocs", "rst.py"), ("codeweaver_engine", "markup.py"), ("language", "prose.py")} <= (
        imported
    )


def test_a_reader_s_imports_are_followed_from_module_to_module(tmp_path: Path) -> None:
    (tmp_path / "reader.py").write_text(
        "from codeweaver_corpus.pydocs.rst import render\nimport json\n", encoding="utf-8"
    )
    names = [p.name for p in reader_imports(tmp_path)]
    # rst.py imports the engine's markup; neither the standard library nor a class is a file.
    assert "rst.py" in names
    assert "markup.py" in names
    assert "json.py" not in names
    before = reader_digest(tmp_path)
    (tmp_path / "reader.py").write_text("import json\n", encoding="utf-8")
    assert reader_digest(tmp_path) != before
