"""The reST parser: units as Sphinx cuts them, qualified names, Markdown as a reader sees it."""

from __future__ import annotations

from codeweaver_corpus.pydocs.rst import parse_page, render, slug
from codeweaver_engine.packs.units import DocUnit

PAGE = """\
:mod:`os.path` --- Common pathname manipulations
================================================

.. module:: os.path
   :synopsis: Operations on pathnames.

This module implements some useful functions on pathnames. See :func:`open`.

.. function:: getsize(path)

   Return the size, in bytes, of *path*.  Raise :exc:`OSError` if the file does
   not exist or is inaccessible.

   .. versionchanged:: 3.6
      Accepts a :term:`path-like object`.


.. function:: join(path, *paths)
              join2(path)

   Join one or more path segments.
   :func:`normpath` tidies the result.

   Example::

      >>> join('a', 'b')
      'a/b'

.. class:: Walker(root)

   A walker.

   .. method:: walk(top, \\
                    topdown=True)

      Walk the tree.

.. data:: sep
          altsep

   The separators.

Recipes
-------

Some prose about recipes.

   >>> getsize('x')
   3
"""


def units() -> dict[str, DocUnit]:
    return {u.name or f"#{u.anchor}": u for u in parse_page(PAGE, "library/os.path")}


def test_api_entries_are_units_with_qualified_names_and_signatures() -> None:
    found = units()
    size = found["os.path.getsize"]
    assert size.kind == "api"
    assert size.signatures == ["os.path.getsize(path)"]
    assert size.doc_title == "os.path — Common pathname manipulations"
    assert size.summary == "Return the size, in bytes, of *path*."
    assert "`OSError`" in size.text
    assert "Changed in version 3.6: Accepts a path-like object." in size.text


def test_a_line_starting_with_a_role_is_text_not_a_directive_option() -> None:
    join = units()["os.path.join"]
    assert "`normpath()` tidies the result." in join.text
    assert join.signatures == ["os.path.join(path, *paths)", "os.path.join2(path)"]
    assert join.aliases == ["os.path.join2"]


def test_literal_blocks_and_doctests_become_examples() -> None:
    join = units()["os.path.join"]
    assert join.examples == [">>> join('a', 'b')\n'a/b'"]
    assert "Example:\n\n```\n>>> join('a', 'b')" in join.text


def test_nested_methods_are_qualified_by_their_class_and_continuations_joined() -> None:
    walk = units()["os.path.Walker.walk"]
    assert walk.signatures == ["Walker.walk(top, topdown=True)"]
    assert "walk" not in units()["os.path.Walker"].text.lower().replace("a walker", "")


def test_several_names_of_one_entry_are_aliases() -> None:
    sep = units()["os.path.sep"]
    assert sep.aliases == ["os.path.altsep"]


def test_prose_is_cut_by_section_with_its_code() -> None:
    recipes = units()["#recipes"]
    assert recipes.kind == "section"
    assert recipes.section == "Recipes"
    assert recipes.examples == [">>> getsize('x')\n3"]
    intro = next(u for u in parse_page(PAGE, "library/os.path") if u.kind == "section")
    assert "useful functions on pathnames" in intro.text
    assert "Return the size" not in intro.text, "entries are their own units"


def test_render_reads_roles_as_code_and_tables_as_rows() -> None:
    text, examples = render(
        [
            "Use :meth:`str.join` or :func:`~os.path.join`, see :ref:`the guide <guide>`.",
            "",
            "+-----+-----+",
            "| a   | b   |",
            "+-----+-----+",
        ]
    )
    assert text == "Use `str.join()` or `join()`, see the guide.\n\na — b"
    assert examples == []


def test_slug_is_the_html_id_of_a_heading() -> None:
    assert slug("Using Lists as Stacks") == "using-lists-as-stacks"
    assert slug("`printf`-style String Formatting") == "printf-style-string-formatting"


STDTYPES = """\
Built-in Types
==============

.. class:: dict(**kwargs)

   Return a new dictionary.

   .. describe:: key in d

      Return ``True`` if *d* has a key *key*, else ``False``.

   .. describe:: d | other

      Create a new dictionary with the merged keys and values of *d* and *other*.

   .. describe:: reversed(d)
   .. describe:: iter(d)

      Return an iterator over the keys.

   .. method:: update([other])

      Update the dictionary.

Dictionary view objects
-----------------------

.. describe:: len(dictview)

   Return the number of entries in the dictionary.
"""


def test_operations_a_type_describes_are_part_of_its_entry() -> None:
    units = {u.name: u for u in parse_page(STDTYPES, "library/stdtypes")}
    text = units["dict"].text
    assert "`key in d`: Return `True` if *d* has a key *key*" in text
    assert "`d | other`: Create a new dictionary with the merged keys" in text
    assert text.index("key in d") < text.index("d | other")
    assert "merged" not in units["dict.update"].text


def test_each_described_operation_is_also_a_unit_linked_to_its_type() -> None:
    units = parse_page(STDTYPES, "library/stdtypes")
    operations = {u.name: u for u in units if u.directive == "describe"}
    # The first of two forms that share one description has none of its own: no unit.
    assert list(operations) == ["key in d", "d | other", "iter(d)", "len(dictview)"]
    member = operations["key in d"]
    assert (member.kind, member.signatures, member.anchor) == ("api", ["key in d"], "dict")
    assert member.text == "Return `True` if *d* has a key *key*, else `False`."
    assert member.section == "Built-in Types"
    view = operations["len(dictview)"]
    assert (view.anchor, view.section) == ("dictionary-view-objects", "Dictionary view objects")
    # Still part of the type's entry and of the section's prose, and made a unit only once.
    by_name = {u.name: u for u in units}
    assert "`key in d`: Return `True`" in by_name["dict"].text
    assert any("`len(dictview)`: Return the number" in u.text for u in units if u.kind == "section")
    assert sum(u.name == "key in d" for u in units) == 1


RE_SYNTAX = """\
re — Regular expression operations
===================================

Regular Expression Syntax
-------------------------

The special characters are:

``(?=...)``
   Matches if ``...`` matches next, but doesn't consume any of the string.  For example,
   ``Isaac (?=Asimov)`` will match ``'Isaac '`` only if it's followed by ``'Asimov'``.

``\\d``
   Matches any decimal digit.

``*?``, ``+?``, ``??``
   Adding ``?`` after the quantifier makes it perform the match in non-greedy fashion.

``'store'``
   A quoted name is an option's value, not syntax.

``two-pass``
   A hyphenated word is a name too.

``$``

Text that is not the term's definition.
"""


def test_each_piece_of_syntax_a_definition_list_explains_is_a_unit_of_its_own() -> None:
    units = parse_page(RE_SYNTAX, "library/re")
    syntax = {u.name: u for u in units if u.directive == "syntax"}
    assert list(syntax) == ["(?=...)", "\\d", "*?"], "names and undefined terms are not syntax"
    assert (syntax["*?"].aliases, syntax["*?"].signatures) == (["+?", "??"], ["*?, +?, ??"])
    ahead = syntax["(?=...)"]
    assert (ahead.kind, ahead.signatures) == ("api", ["(?=...)"])
    assert (ahead.section, ahead.anchor) == (
        "Regular Expression Syntax",
        "regular-expression-syntax",
    )
    assert ahead.text.startswith("Matches if `...` matches next")
    assert "`Isaac (?=Asimov)`" in ahead.text
    # Still part of its section's passage.
    assert any("Matches any decimal digit" in u.text for u in units if u.kind == "section")


FORMAT_CODES = """\
datetime — Basic date and time types
====================================

Format Codes
------------

+-----------+--------------------------------+------------------------+-------+
| Directive | Meaning                        | Example                | Notes |
+===========+================================+========================+=======+
| ``%B``    | Month as locale's full name.   || January, February,    | \\(1)  |
|           |                                |  ..., December (en_US);|       |
+-----------+--------------------------------+------------------------+-------+
| ``%j``    | Day of the year as a           | 001, 002, ..., 366     | \\(9)  |
|           | zero-padded decimal number.    |                        |       |
+-----------+--------------------------------+------------------------+-------+
| plain     | A row that names no literal.   |                        |       |
+-----------+--------------------------------+------------------------+-------+

   ========= ==========================================
   Character Meaning
   ========= ==========================================
   ``'a'``   open for writing, appending to the end of
             the file if it exists
   ``'b'``   binary mode
   ========= ==========================================

After the tables.
"""


def test_each_row_of_a_table_of_literals_is_a_unit_with_its_meaning_and_example() -> None:
    units = parse_page(FORMAT_CODES, "library/datetime")
    rows = {u.name: u for u in units if u.directive == "syntax"}
    assert list(rows) == ["%B", "%j", "'a'", "'b'"], "header and plain rows are not literals"
    # Cells by position: the example's `|` line block stays in its cell; notes are left out.
    assert (
        rows["%B"].text
        == "Month as locale's full name. — January, February, ..., December (en_US);"
    )
    assert (
        rows["%j"].text == "Day of the year as a zero-padded decimal number. — 001, 002, ..., 366"
    )
    assert rows["'a'"].text == "open for writing, appending to the end of the file if it exists"
    assert (rows["%j"].kind, rows["%j"].section, rows["%j"].signatures) == (
        "api",
        "Format Codes",
        ["%j"],
    )
    # A page-qualified name tells one page's `'<'` from another's.
    assert rows["%j"].target_names == ("%j", "library/datetime:%j")
    # A row named like an API or a word is reached through its page only.
    assert rows["'a'"].target_names == ("library/datetime:'a'",)
    assert any("Day of the year" in u.text for u in units if u.kind == "section")


CODECS = """\
codecs — Codec registry and base classes
========================================

Text Encodings
--------------

+--------------------+---------+---------------------------+
| Codec              | Aliases | Meaning                   |
+====================+=========+===========================+
| unicode_escape     |         | Encoding suitable as the  |
|                    |         | contents of a Unicode     |
|                    |         | literal.                  |
+--------------------+---------+---------------------------+
| idna               |         | A plain word is no name.  |
+--------------------+---------+---------------------------+
"""


def test_a_codec_named_bare_in_its_table_is_a_unit_reached_through_its_page() -> None:
    [codec] = [u for u in parse_page(CODECS, "library/codecs") if u.directive == "syntax"]
    assert (codec.name, codec.text) == (
        "unicode_escape",
        "Encoding suitable as the contents of a Unicode literal.",
    )
    assert codec.target_names == ("library/codecs:unicode_escape",)


def test_a_spaced_literal_marker_leaves_no_colon_behind() -> None:
    markdown, examples = render(
        [
            "A blank line is a single newline. ::",
            "",
            "   >>> f.readline()",
            "   ''",
            "",
            "Use it::",
            "",
            "   x = 1",
        ]
    )
    assert "single newline." in markdown
    assert "newline. :" not in markdown
    assert "Use it:" in markdown
    assert examples == [">>> f.readline()\n''", "x = 1"]
