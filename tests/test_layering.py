"""Dependencies point one way: schema <- runtime <- engine <- corpus <- search, engine <- cache.

The backend sits on top of them all; `multi_question` needs the schema alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = {
    "schema": "codeweaver_schema",
    "runtime": "codeweaver_runtime",
    "engine": "codeweaver_engine",
    "corpus": "codeweaver_corpus",
    "search": "codeweaver_search",
    "cache": "codeweaver_cache",
    "multi_question": "codeweaver_multi_question",
    "testing": "codeweaver_testing",
}
ALLOWED = {
    "codeweaver_schema": set(),
    "codeweaver_runtime": {"codeweaver_schema"},
    "codeweaver_engine": {"codeweaver_schema", "codeweaver_runtime"},
    "codeweaver_corpus": {"codeweaver_schema", "codeweaver_runtime", "codeweaver_engine"},
    "codeweaver_search": {
        "codeweaver_schema",
        "codeweaver_runtime",
        "codeweaver_engine",
        "codeweaver_corpus",
    },
    "codeweaver_cache": {"codeweaver_schema", "codeweaver_runtime", "codeweaver_engine"},
    "codeweaver_multi_question": {"codeweaver_schema"},
    # Test support reads the runtime's types and tokenises as the engine does; nothing but
    # tests and the root's dev group use it.
    "codeweaver_testing": {"codeweaver_runtime", "codeweaver_engine"},
}
OURS = {*PACKAGES.values(), "codeweaver"}


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots & OURS


@pytest.mark.parametrize("folder", sorted(PACKAGES))
def test_package_imports_only_what_it_may(folder: str) -> None:
    module = PACKAGES[folder]
    src = REPO / "packages" / folder / "src" / module
    for path in src.rglob("*.py"):
        wrong = imported_roots(path) - ALLOWED[module] - {module}
        assert not wrong, f"{path.relative_to(REPO)} imports {sorted(wrong)}"


@pytest.mark.parametrize("folder", sorted(PACKAGES))
def test_package_declares_what_it_imports(folder: str) -> None:
    pyproject = (REPO / "packages" / folder / "pyproject.toml").read_text(encoding="utf-8")
    for dependency in ALLOWED[PACKAGES[folder]]:
        assert f'"{dependency.replace("_", "-")}"' in pyproject


def test_the_backend_declares_every_package_it_imports() -> None:
    """An installed wheel gets only what the backend's pyproject names, not the workspace."""
    pyproject = (REPO / "backend" / "pyproject.toml").read_text(encoding="utf-8")
    imported: set[str] = set()
    for path in (REPO / "backend" / "src").rglob("*.py"):
        imported |= imported_roots(path)
    for dependency in imported - {"codeweaver"}:
        assert f'"{dependency.replace("_", "-")}"' in pyproject, dependency
