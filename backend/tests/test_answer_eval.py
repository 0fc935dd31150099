"""`codeweaver eval answers`: figures from outcomes, the floor curve, and the real command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeweaver.cli.main import app
from codeweaver.context import Context
from codeweaver.workflows.orchestration.evaluation import (
    Outcome,
    Row,
    floor_curve,
    read_rows,
    report,
)
from codeweaver_engine.compose import GLOSSED_SCORE_LOSS


def outcome(
    question: str,
    text: str,
    *,
    nuggets: tuple[str, ...] = ("sleep(",),
    declined: bool = False,
    relevance: float | None = 0.9,
    language: str = "en",
) -> Outcome:
    return Outcome(
        row=Row(question, question, nuggets, bool(nuggets)),
        text=text,
        declined=declined,
        decline_reason="below_relevance_floor" if declined else None,
        relevance=relevance,
        seconds=0.1,
        language=language,
    )


OUTCOMES = [
    outcome("a", "use time.sleep(secs)"),
    outcome("b", "use time.time()", relevance=0.7),
    outcome("c", "I could not find it", declined=True, relevance=0.5),
    outcome("d", "Sleep: time.sleep(1)", relevance=0.6, language="ko"),
    outcome("e", "declined", nuggets=(), declined=True, relevance=None),
    outcome("f", "an answer", nuggets=(), relevance=0.65),
]


def test_figures_count_correct_wrong_and_declined_by_language() -> None:
    figures = report(OUTCOMES)
    assert (figures["n"], figures["correct"], figures["wrong"], figures["declined"]) == (4, 2, 1, 1)
    assert figures["accuracy"] == 0.5
    assert figures["wrong_rate"] == 0.25
    assert figures["by_language"]["ko"]["correct"] == 1
    assert figures["out_of_scope"] == {"n": 2, "declined": 1, "answered": 1}
    assert figures["median_chars"] > 0


def test_a_floor_declines_what_is_below_it() -> None:
    curve = {p["floor"]: p for p in floor_curve(OUTCOMES, [0.0, 0.62, 0.8])}
    assert (curve[0.0]["correct"], curve[0.0]["wrong"]) == (2, 1)
    # At 0.62, question d (0.6) is declined; b (0.7) still answers wrongly.
    assert (curve[0.62]["correct"], curve[0.62]["wrong"], curve[0.62]["declined"]) == (1, 1, 2)
    assert curve[0.62]["out_of_scope_declined"] == 1
    assert (curve[0.8]["wrong"], curve[0.8]["out_of_scope_declined"]) == (0, 2)
    assert report(OUTCOMES, 0.8)["out_of_scope"]["declined"] == 2


def test_rows_need_nuggets_when_in_scope(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "1", "question": "q"}\n', encoding="utf-8")
    assert read_rows(path, in_scope=False)[0].nuggets == ()
    with pytest.raises(ValueError, match="needs nuggets"):
        read_rows(path, in_scope=True)


def test_the_command_runs_the_real_graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEWEAVER_HOME", str(tmp_path / "home"))
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"id": "sleep", "question": "make a time delay", "nuggets": ["sleep("]}) + "\n",
        encoding="utf-8",
    )
    outside = tmp_path / "oos.jsonl"
    outside.write_text(
        json.dumps({"id": "git", "question": "How do I undo the last commit in git?"}) + "\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        app,
        [
            "eval",
            "answers",
            "--questions",
            str(questions),
            "--out-of-scope",
            str(outside),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert (figures["n"], figures["correct"], figures["wrong"]) == (1, 1, 0)
    assert figures["out_of_scope"] == {"n": 1, "declined": 1, "answered": 0}
    assert figures["floor"] > 0
    assert figures["question_files"] == ["q.jsonl", "oos.jsonl"]
    assert figures["answers_version"] == Context().cache_corpus_version


def test_the_curve_holds_a_glossed_question_to_the_floor_as_the_engine_does() -> None:
    question = "문자열에서 공백을 제거하려면?"
    score = 0.8 - GLOSSED_SCORE_LOSS / 2
    korean = outcome(question, "str.strip", nuggets=("strip",), relevance=score, language="ko")
    english = outcome("remove whitespace", "str.strip", nuggets=("strip",), relevance=score)
    [point] = floor_curve([korean, english], [0.8])
    assert (point["correct"], point["declined"]) == (1, 1)
    assert korean.declined_at(0.8 + GLOSSED_SCORE_LOSS)
