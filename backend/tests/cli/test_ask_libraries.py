"""`codeweaver ask` about the user's libraries, in real subprocesses, as a user runs it.

A made-up environment has `pandas` and `numpy` 9.9.0 installed; `pandas` is read into a pack
with `codeweaver ingest --python`, `numpy` is not. A pandas question is answered from the
pandas pack and says so; a numpy question is declined with the command that reads numpy; a
requests question is declined as not installed there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.packs_env import Environment, make_library_environment


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return make_library_environment(tmp_path_factory.mktemp("libvenv"))


def codeweaver(home: Path, env: Environment, *args: str) -> subprocess.CompletedProcess[str]:
    environ = {
        **os.environ,
        "CODEWEAVER_HOME": str(home),
        "CODEWEAVER_CHAT_MODEL": "offline",
        "HF_HUB_OFFLINE": "1",
        # The user's project environment is active: the one `ingest --python` reads by default.
        "VIRTUAL_ENV": str(env.root),
    }
    for key in ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GITHUB_TOKEN", "TAVILY_API_KEY"):
        environ.pop(key, None)
    return subprocess.run(
        [sys.executable, "-m", "codeweaver", *args],
        env=environ,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def ask(home: Path, env: Environment, question: str) -> dict[str, Any]:
    result = codeweaver(home, env, "ask", question, "--json")
    assert result.returncode == 0, result.stderr[-2000:]
    report: dict[str, Any] = json.loads(result.stdout)
    return report


@pytest.mark.slow
def test_a_library_question_is_answered_from_its_installed_pack_or_declined_with_what_to_do(
    env: Environment, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    ingested = codeweaver(home, env, "ingest", "--python", str(env.python), "--packages", "pandas")
    assert ingested.returncode == 0, ingested.stderr[-2000:]

    answered = ask(home, env, "How do I drop rows with missing values in a pandas DataFrame?")
    assert answered["declined"] is False, answered["answer"]
    assert "quoted from pandas 9.9.0, installed" in answered["answer"]
    assert "`pandas.DataFrame.dropna`" in answered["answer"]
    assert {(c["pack"], c["version"]) for c in answered["citations"]} == {("pandas", "9.9.0")}

    older = ask(home, env, "How do I drop rows with missing values in pandas 1.5?")
    assert "You asked about pandas 1.5; this quotes pandas 9.9.0" in older["answer"]

    not_read = ask(home, env, "numpy: how do I get the index of the max value in an array?")
    assert not_read["declined"] is True
    assert not_read["decline_reason"] == "library_not_indexed"
    assert "NumPy 9.9.0 is installed in" in not_read["answer"]
    assert f"`codeweaver ingest --python {env.python} --packages numpy`" in not_read["answer"]

    absent = ask(home, env, "How do I send a POST request with JSON using requests?")
    assert absent["decline_reason"] == "library_not_indexed"
    assert f"which is not installed in `{env.python}`" in absent["answer"]
    assert "`pip install requests`" in absent["answer"]
