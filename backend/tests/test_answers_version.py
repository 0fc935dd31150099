"""The answer cache's scope follows the version of answers the engine stamps."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codeweaver.context import Context
from codeweaver_engine.stamp import answers_version, package_folder

QUESTION = "How do I reverse a list in Python?"


def test_runs_default_to_this_release_and_a_client_may_still_name_one() -> None:
    assert Context().cache_corpus_version == answers_version()
    assert Context(cache_corpus_version="team-docs-7").cache_corpus_version == "team-docs-7"


def _checkout(root: Path) -> Path:
    """A copy of the engine package, found before the installed one on `PYTHONPATH`.

    The pack's vectors and units are linked, not copied: only its manifest is edited here.
    """
    engine = package_folder("codeweaver_engine")
    assert engine is not None
    big = ("*.npy", "*.jsonl.gz")
    target = root / "codeweaver_engine"
    shutil.copytree(engine, target, ignore=shutil.ignore_patterns("__pycache__", *big))
    for pattern in big:
        for path in engine.rglob(pattern):
            (target / path.relative_to(engine)).symlink_to(path)
    return target


def _run(home: Path, checkout: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout.parent),
        "CODEWEAVER_HOME": str(home),
        "CODEWEAVER_CHAT_MODEL": "offline",
        "HF_HUB_OFFLINE": "1",
    }
    for key in ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GITHUB_TOKEN", "TAVILY_API_KEY"):
        env.pop(key, None)
    return subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, timeout=600, check=False
    )


def _ask(home: Path, checkout: Path) -> dict[str, Any]:
    done = _run(home, checkout, "-m", "codeweaver", "ask", QUESTION, "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.mark.slow
def test_after_an_engine_data_file_changes_the_same_question_is_not_a_cache_hit(
    tmp_path: Path,
) -> None:
    checkout = _checkout(tmp_path / "checkout")
    home = tmp_path / "home"
    found = _run(
        home, checkout, "-c", "import codeweaver_engine; print(codeweaver_engine.__file__)"
    )
    assert Path(found.stdout.strip()).parent == checkout, found.stderr[-2000:]

    first = _ask(home, checkout)
    assert not first["cache_hit"]
    assert not first["declined"]
    assert _ask(home, checkout)["cache_hit"] is True, "the same engine serves its cached answer"

    vocabulary = checkout / "data" / "korean.tsv"
    with vocabulary.open("a", encoding="utf-8") as handle:
        handle.write("되짚\trevisit\n")
    again = _ask(home, checkout)
    assert again["cache_hit"] is False, "an answer cached by another version is not served"
    assert again["answer"] == first["answer"]
