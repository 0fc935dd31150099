"""`codeweaver eval`: the commands run the real evaluation paths on small slices of real data."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from codeweaver.cli.main import app

DATA = Path(__file__).resolve().parents[3] / "data"
STDTYPES = "library/stdtypes.rst.txt"
FUNCTIONS = "library/functions.rst.txt"


def test_eval_cache_reports_the_issue_4_figures() -> None:
    pairs = DATA / "paraphrase" / "conala_pairs.jsonl"
    result = CliRunner().invoke(
        app, ["eval", "cache", "--pairs", str(pairs), "--limit", "40", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["n"] == 40
    hits = report["correct"] + report["wrong"] + report["false_hits"]
    assert report["precision"] == (round(report["correct"] / hits, 4) if hits else 1.0)
    assert 0 <= report["correct_hit_rate"] <= 1


def test_eval_cache_traps_reports_each_pair(tmp_path: Path) -> None:
    traps = tmp_path / "traps.tsv"
    traps.write_text(
        "Getting the last element of a list\tGetting the first element of a list\n"
        "How do I delete a file in Python?\tHow do I delete a folder in Python?\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["eval", "cache", "--traps", str(traps), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["n"], report["wrong_hits"], report["model_calls"]) == (2, 0, 0)
    assert [p["hit"] for p in report["pairs"]] == [False, False]
    assert report["by_kind"] == {"unmarked": {"n": 2, "hits": 0}}
    both = CliRunner().invoke(app, ["eval", "cache", "--traps", str(traps), "--pairs", str(traps)])
    assert both.exit_code != 0


def test_eval_cache_same_reports_the_hit_rate_of_paraphrases(tmp_path: Path) -> None:
    same = tmp_path / "same.tsv"
    same.write_text(
        "How do I reverse a list in Python?\thow do I reverse a list in python\tsame\n"
        "Getting the last element of a list\tGetting the first element of a list\tscope\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["eval", "cache", "--same", str(same), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["n"], report["hits"], report["hit_rate"]) == (2, 1, 0.5)
    assert report["by_kind"] == {"same": {"n": 1, "hits": 1}, "scope": {"n": 1, "hits": 0}}
    table = CliRunner().invoke(app, ["eval", "cache", "--same", str(same)])
    assert table.exit_code == 0, table.output
    assert "missed: 'Getting the first element of a list'" in table.stdout


def test_eval_retrieval_on_a_slice_of_the_python_docs(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    for rel in [STDTYPES, FUNCTIONS, "faq/programming.rst.txt"]:
        target = docs / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA / "python-docs-3.11" / rel, target)
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        "\n".join(
            json.dumps(row)
            for row in [
                {
                    "question": "How do I sort a list in reverse?",
                    "linked_doc_files": ["library/stdtypes.rst.txt"],
                },
                {
                    "question": "What does the built-in len() return?",
                    "linked_doc_files": ["library/functions.rst.txt"],
                },
                {"question": "Only in the FAQ", "linked_doc_files": ["faq/programming.rst.txt"]},
            ]
        )
    )
    args = ["eval", "retrieval", "--questions", str(questions), "--docs", str(docs), "--json"]
    result = CliRunner().invoke(app, [*args, "--data-dir", str(tmp_path / "data")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["n"] == 2
    assert set(report) >= {"recall@1", "recall@5", "recall@10", "mrr"}


def test_eval_rejects_a_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "cache", "--pairs", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2
    assert "does not exist" in result.output
