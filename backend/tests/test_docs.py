"""The docs' generated blocks (diagrams, current figures) must not drift from what makes them."""

import json
import re
from pathlib import Path

import pytest

from codeweaver.docs import BLOCKS, RESULTS, UnknownBlockError, answers, bench, blocks_in, render
from codeweaver.workflows.orchestration.state import MainState
from codeweaver_schema import OrchestrationState

DOCS = Path(__file__).resolve().parents[2] / "docs"
ARCHITECTURE = DOCS / "ARCHITECTURE.md"
GENERATED = sorted(path.name for path in DOCS.glob("*.md") if blocks_in(path.read_text("utf-8")))


@pytest.mark.parametrize("name", GENERATED)
def test_a_documents_generated_blocks_are_what_the_generator_makes(name: str) -> None:
    current = (DOCS / name).read_text(encoding="utf-8")
    assert render(current, DOCS / RESULTS) == current, (
        f"run `make docs` (python -m codeweaver.docs) and commit docs/{name}"
    )


def test_every_block_is_shown_once_and_every_result_file_is_read() -> None:
    shown = [block for name in GENERATED for block in blocks_in((DOCS / name).read_text("utf-8"))]
    assert sorted(shown) == sorted(BLOCKS)
    read = {r.file for r in (*answers.RESULTS, *answers.LIBRARY_RESULTS)} | {bench.FILE}
    assert {path.name for path in (DOCS / RESULTS).glob("*.json")} == read


def test_a_result_file_from_other_questions_is_refused(tmp_path: Path) -> None:
    dev = json.loads((DOCS / RESULTS / answers.DEV.file).read_text(encoding="utf-8"))
    dev["question_files"] = ["conala_train_labeled.jsonl"]
    (tmp_path / answers.DEV.file).write_text(json.dumps(dev), encoding="utf-8")
    with pytest.raises(answers.ResultFileError, match=re.escape(answers.DEV.command)):
        answers.DEV.read(tmp_path)
    with pytest.raises(answers.ResultFileError, match="missing"):
        answers.TRAIN.read(tmp_path)


def test_a_block_no_maker_makes_is_an_error() -> None:
    document = (
        "<!-- BEGIN GENERATED NOTHING (python -m codeweaver.docs) -->\n"
        "<!-- END GENERATED NOTHING -->\n"
    )
    with pytest.raises(UnknownBlockError, match="NOTHING"):
        render(document)


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
