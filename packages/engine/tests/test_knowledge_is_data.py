"""No Korean word table remains in the engine's or the cache's Python source.

Korean words (the vocabulary, particles, endings, cue phrases, what the user is told) live in the
engine's data files. A module may still hold Hangul in its documentation (docstrings and
comments, as examples); any other string with Hangul in it is a word table in code.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SOURCES = [
    REPO / "packages/engine/src/codeweaver_engine",
    REPO / "packages/cache/src/codeweaver_cache",
]
HANGUL = re.compile("[\uac00-\ud7a3]")


def _documentation(tree: ast.AST) -> set[int]:
    """The ids of string constants that are documentation: a statement of a string alone."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


@pytest.mark.parametrize(
    "module",
    [p for root in SOURCES for p in sorted(root.rglob("*.py"))],
    ids=lambda p: str(p.relative_to(REPO)),
)
def test_no_module_holds_korean_words_outside_its_documentation(module: Path) -> None:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    documentation = _documentation(tree)
    korean = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in documentation
        and HANGUL.search(node.value)
    ]
    assert not korean, korean
