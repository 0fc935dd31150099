"""`codeweaver ask` in a real subprocess, as a user runs it: offline, twice, second from cache."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from codeweaver.cli.main import app

QUESTION = "How do I reverse a list in Python?"
SEARCH_NODES = ("search", "search/")


def ask(home: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "CODEWEAVER_HOME": str(home),
        "CODEWEAVER_CHAT_MODEL": "offline",
        "HF_HUB_OFFLINE": "1",
    }
    for key in ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GITHUB_TOKEN", "TAVILY_API_KEY"):
        env.pop(key, None)
    return subprocess.run(
        [sys.executable, "-m", "codeweaver", "ask", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
def test_ask_json_then_the_same_question_from_the_cache(tmp_path: Path) -> None:
    first = ask(tmp_path, QUESTION, "--json")
    assert first.returncode == 0, first.stderr[-2000:]
    report: dict[str, Any] = json.loads(first.stdout)
    assert set(report) >= {
        "answer", "citations", "route", "routing_reason", "question_type", "intent",
        "cache_hit", "errors", "model_calls", "nodes", "declined", "decline_reason",
    }  # fmt: skip
    assert report["declined"] is False
    assert report["decline_reason"] is None
    assert report["route"] == "single"
    assert not report["cache_hit"]
    assert report["citations"], report["answer"]
    assert all(c["file"] or c["url"] for c in report["citations"])
    assert {c["n"] for c in report["citations"]} == set(range(1, len(report["citations"]) + 1))
    assert any(n.startswith("search/") for n in report["nodes"])
    assert report["model_calls"] == 0

    second = ask(tmp_path, QUESTION, "--json")
    assert second.returncode == 0, second.stderr[-2000:]
    again = json.loads(second.stdout)
    assert again["cache_hit"] is True
    assert again["model_calls"] == 0
    assert not [n for n in again["nodes"] if n.startswith(SEARCH_NODES)]
    assert again["answer"] == report["answer"]


@pytest.mark.slow
def test_ask_json_says_when_and_why_it_declined(tmp_path: Path) -> None:
    result = ask(tmp_path, "How do I undo the last git commit?", "--json")
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    assert report["declined"] is True
    assert report["decline_reason"] == "out_of_scope"
    assert report["citations"] == []
    assert "Git" in report["answer"]


def megabyte_question() -> str:
    """A question of a million characters: beyond what a shell passes as an argument."""
    question = "How do I reverse a list in Python? Here is my list: "
    return question + "[1, 2, 3] " * ((1_000_000 - len(question)) // 10)


@pytest.mark.slow
def test_a_megabyte_question_from_standard_input_or_a_file(tmp_path: Path) -> None:
    question = megabyte_question()
    piped = ask(tmp_path / "home", "-", "--json", stdin=question)
    assert piped.returncode == 0, piped.stderr[-2000:]
    report = json.loads(piped.stdout)
    assert report["route"] == "single"
    assert report["answer"]
    # Read from its beginning, and told so.
    assert f"{len(question.strip()):,} characters long; only the first" in report["answer"]

    given = tmp_path / "question.txt"
    # Bytes that are not UTF-8 are read as U+FFFD, as from a terminal.
    given.write_bytes(question.encode() + b" \xff\xfe")
    from_file = ask(tmp_path / "home", "--file", str(given), "--json")
    assert from_file.returncode == 0, from_file.stderr[-2000:]
    again = json.loads(from_file.stdout)
    read = given.read_bytes().decode("utf-8", "replace").strip()
    assert "\ufffd" in read
    assert f"{len(read):,} characters long; only the first" in again["answer"]


@pytest.mark.parametrize(
    "args",
    [[], [QUESTION, "--file", "question.txt"], ["-", "--file", "question.txt"]],
)
def test_the_question_comes_from_one_place(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "question.txt").write_text(QUESTION)
    result = CliRunner().invoke(app, ["ask", *args])
    assert result.exit_code == 2
    assert "one of them" in " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())


def test_a_missing_question_file_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["ask", "--file", str(tmp_path / "nowhere.txt")])
    assert result.exit_code == 2
    assert "nowhere.txt" in result.output


def test_empty_question_is_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["ask", "   "])
    assert result.exit_code == 2
    assert "The question is empty" in result.output


def test_unknown_option_is_reported() -> None:
    result = CliRunner().invoke(app, ["ask", QUESTION, "--nope"])
    assert result.exit_code == 2
    assert "No such option" in result.output


@pytest.mark.parametrize(
    ("option", "name", "problem"),
    [
        ("--model", "gpt-4o", "not of the form provider:model"),
        ("--answer-model", "ollama:llama3", "unknown model provider"),
        ("--judge-model", "openai:m@http://user:pw@127.0.0.1:8000/v1", "credentials"),
    ],
)
def test_a_bad_model_name_is_a_usage_error(option: str, name: str, problem: str) -> None:
    result = CliRunner().invoke(app, ["ask", QUESTION, option, name])
    assert result.exit_code == 2
    # Rich draws the message in a box: read its words without the borders.
    assert problem in " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())


async def test_a_second_turn_in_one_process_still_reads_the_ingested_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`chat` answers every turn with `run_question` in one process: the store must reopen."""
    from codeweaver.cli.ask import run_question
    from codeweaver_runtime import close_qdrant_clients

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "frob.md").write_text(
        "# Frob\n\nTo configure the frobnicator daemon, set spin_rate = 42 in frob.toml.\n",
        encoding="utf-8",
    )
    home = tmp_path / "home"
    env = {**os.environ, "CODEWEAVER_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    ingested = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "codeweaver", "ingest", str(docs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert ingested.returncode == 0, ingested.stderr
    monkeypatch.setenv("CODEWEAVER_HOME", str(home))
    settings = {"chat_model": "offline", "search_sources": ["local"], "cache_enabled": False}
    try:
        for turn in ("t1", "t2"):
            report = await run_question(
                "How do I configure the frobnicator daemon?",
                thread_id=turn,
                data_dir=home,
                context_overrides=settings,
            )
            assert [c["file"] for c in report.citations] == [str(docs / "frob.md")], turn
            assert report.errors == [], turn
    finally:
        await close_qdrant_clients()
