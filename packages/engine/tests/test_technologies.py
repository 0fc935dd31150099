"""The one technology list: every entry parses, and the scope, the guards and the search read it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from codeweaver_engine import lexicon
from codeweaver_engine.scope import scope_of
from codeweaver_engine.technologies import (
    TECHNOLOGIES_FILE,
    TechnologyFileError,
    parse_technologies,
    technologies,
)

ENGINE = Path(__file__).resolve().parents[1] / "src" / "codeweaver_engine"


def test_every_entry_of_the_technology_list_parses() -> None:
    parsed = parse_technologies(TECHNOLOGIES_FILE.read_text(encoding="utf-8"))
    assert parsed.technologies == technologies()
    assert len(parsed.technologies) > 50
    assert "docs.python.org" in parsed.default_domains
    libraries = [t for t in parsed.technologies if t.kind == "python-library"]
    assert all(t.distributions and t.import_names for t in libraries)


def test_the_scope_the_guards_and_the_search_read_one_entry() -> None:
    [node] = [t for t in technologies() if t.name == "Node.js"]
    assert lexicon.LANGUAGES["nodejs"] == node.language == "javascript"
    assert "nodejs.org" in node.domains
    [pandas] = [t for t in technologies() if t.name == "pandas"]
    assert "pandas" in lexicon.LIBRARIES
    assert scope_of("How do I drop a column of a pandas DataFrame?").topic == "pandas"
    assert pandas.distributions == ("pandas",)
    assert lexicon.OPERATING_SYSTEMS["ubuntu"] == "linux"


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ('name = "X"\nkind = "language"', "no covered"),
        ('name = "X"\nkind = "spreadsheet"\ncovered = false', "kind"),
        ('name = "X"\nkind = "tool"\ncovered = false\nwords = ["Git"]', "lower-case"),
        ('name = "X"\nkind = "tool"\ncovered = false\nscope = "(unclosed"', "compile"),
        ('name = "X"\nkind = "tool"\ncovered = false\nhomepage = "x"', "unknown fields"),
        ('name = "X"\nkind = "tool"\ncovered = false\nambiguous = ["x"]', "ambiguous"),
    ],
)
def test_a_malformed_entry_is_refused_with_its_name(entry: str, problem: str) -> None:
    with pytest.raises(TechnologyFileError, match=f"technology 1 \\(X\\): .*{problem}"):
        parse_technologies(f"[[technology]]\n{entry}\n")


def test_the_modules_that_read_the_list_name_no_technology_themselves() -> None:
    """The scope check, the guards' tables and the docs search keep no list of their own."""
    names = {w for t in technologies() for w in (*t.words, t.name.lower())}
    repo = ENGINE.parents[3]
    modules = [
        ENGINE / "scope.py",
        ENGINE / "lexicon.py",
        repo / "packages/search/src/codeweaver_search/sources/doc_domains.py",
    ]
    for module in modules:
        literals = {
            node.value.lower()
            for node in ast.walk(ast.parse(module.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        assert not literals & names, module.name
