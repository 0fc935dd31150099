"""`scripts/floor_cv.py`: the floor rule read from `eval answers --verbose` lines."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from codeweaver_engine.compose import GLOSSED_SCORE_LOSS

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "floor_cv.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("floor_cv", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rows_are_read_from_verbose_lines_on_the_english_scale(tmp_path: Path) -> None:
    script = load_script()
    run = tmp_path / "dev.txt"
    run.write_text(
        "correct  0.912   0.2s conala-1                  How do I copy a file?\n"
        "a wrapped title's second line\n"
        "WRONG    0.750   0.1s conala-2-ko               파일을 복사하려면?\n"
        "declined   -     0.0s conala-3                  What does git rebase do?\n"
        "declined   -     0.0s oos-dev-001               Undo a git commit\n",
        encoding="utf-8",
    )
    rows = script.read_rows(run)
    assert rows[:2] == [(True, 0.912), (False, 0.750 + GLOSSED_SCORE_LOSS)]
    assert rows[2] == (False, float("-inf")), "declined whatever the floor, still a question"
    assert len(rows) == 3, "out-of-scope rows are not the rule's"


def test_the_rule_picks_the_lowest_floor_within_the_wrong_rate() -> None:
    script = load_script()
    # 20 rows: two wrong answers at 0.75 and 0.79 are 10% wrong below 0.76, 5% from 0.76 on.
    rows = [(True, 0.9)] * 18 + [(False, 0.75), (False, 0.79)]
    assert script.wrong_rate(rows, 0.70) == 0.10
    assert script.pick(rows) == 0.76
    assert script.pick([(False, 0.99)]) == script.FLOORS[-1], "no floor qualifies: the highest"
