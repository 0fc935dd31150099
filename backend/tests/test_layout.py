"""The backend's folders import one way: context <- workflows <- tools <- server, cli.

The offline engine is the `codeweaver-engine` package; the backend keeps only the wiring.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "codeweaver"
# What each group (a folder under `codeweaver/`, or a module at its top) may import of the others.
ALLOWED = {
    "tokens": set(),
    "persistence": {"tokens"},
    "context": set(),
    "packs": set(),
    "libraries": set(),
    "workflows": {"context", "workflows", "packs", "libraries"},
    "tools": {"context", "workflows", "packs", "tools"},
    "server": {"context", "workflows", "persistence", "tokens", "server", "tools"},
    "bench": {"context", "workflows", "persistence", "bench"},
    "ui": {"workflows", "tokens", "ui"},
    "docs": {"workflows", "bench", "docs"},
    "__init__": {"context"},
    "cli": {
        "cli",
        "server",
        "bench",
        "ui",
        "workflows",
        "context",
        "persistence",
        "tokens",
        "tools",
    },
    "__main__": {"cli"},
}
MODULES = sorted(SRC.rglob("*.py"))


def group(path: Path) -> str:
    return path.relative_to(SRC).parts[0].removesuffix(".py")


def imported_groups(path: Path) -> set[str]:
    """The groups a module imports, at its top or inside a function."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "codeweaver":
            names += [f"codeweaver.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return {name.split(".")[1] for name in names if name.startswith("codeweaver.")}


def test_every_group_has_a_rule() -> None:
    assert {group(path) for path in MODULES} == set(ALLOWED)


def test_a_module_imports_only_what_its_group_may() -> None:
    wrong = {
        str(path.relative_to(SRC)): sorted(imported_groups(path) - ALLOWED[group(path)])
        for path in MODULES
    }
    assert not {module: groups for module, groups in wrong.items() if groups}
