"""docs/ARCHITECTURE.md carries diagrams drawn from the compiled graphs; they must not drift."""

from pathlib import Path

from codeweaver.docs import render

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "ARCHITECTURE.md"


def test_architecture_diagrams_match_the_compiled_graphs() -> None:
    current = ARCHITECTURE.read_text(encoding="utf-8")
    assert render(current) == current, "run `make docs` and commit docs/ARCHITECTURE.md"


def test_main_diagram_expands_the_native_subgraphs() -> None:
    current = ARCHITECTURE.read_text(encoding="utf-8")
    for name in ("search", "cache_lookup", "cache_store", "multi_question"):
        assert f"subgraph {name}" in current
