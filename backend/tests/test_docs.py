"""docs/ARCHITECTURE.md carries diagrams drawn from the compiled graphs; they must not drift."""

import re
from pathlib import Path

from codeweaver.docs import render
from codeweaver.workflows.orchestration.state import MainState
from codeweaver_schema import OrchestrationState

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "ARCHITECTURE.md"


def test_architecture_diagrams_match_the_compiled_graphs() -> None:
    current = ARCHITECTURE.read_text(encoding="utf-8")
    assert render(current) == current, "run `make docs` and commit docs/ARCHITECTURE.md"


def test_main_diagram_expands_the_native_subgraphs() -> None:
    current = ARCHITECTURE.read_text(encoding="utf-8")
    for name in ("search", "cache_lookup", "cache_store", "multi_question"):
        assert f"subgraph {name}" in current


def test_state_table_names_every_field_of_the_main_graph() -> None:
    current = ARCHITECTURE.read_text(encoding="utf-8")
    rows = [line.split("|") for line in current.splitlines() if line.startswith("| `codeweaver")]
    in_main_state = {field for row in rows for field in re.findall(r"`([a-z_]+)`", row[2])}
    own = set(MainState.__annotations__) - set(OrchestrationState.__annotations__)
    assert in_main_state == own, "the table in docs/ARCHITECTURE.md must list MainState's fields"
