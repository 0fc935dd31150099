"""The same answers whichever runtime embeds: onnxruntime now, sentence-transformers before.

Each runtime answers the same questions in its own process (the switch is the operator's
environment variable) on its own fresh data directory; the answers' text and citations must be
identical, and only the sentence-transformers process may import torch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codeweaver_runtime.embedder_registry import RUNTIME_ENV

pytestmark = pytest.mark.slow

QUESTIONS = [
    "How do I reverse a list in Python?",
    "How do I sort a dictionary by value?",
    "How do I make a time delay?",
    "How can I check if a file exists?",
    "How do I parse command line arguments?",
    "What does the yield keyword do?",
    "How do I undo a git commit?",  # declined: out of the corpus' scope
    "파이썬에서 리스트를 뒤집는 방법은?",
]

SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from codeweaver.cli.ask import run_question

answers = []
for n, question in enumerate(json.loads(sys.argv[2])):
    report = asyncio.run(run_question(
        question, thread_id=f"t{n}", data_dir=Path(sys.argv[1]), context_overrides={}
    ))
    answers.append({"answer": report.answer, "citations": report.citations,
                    "cache_hit": report.cache_hit})
print(json.dumps({"answers": answers, "torch": "torch" in sys.modules}))
"""


def answers_with(runtime: str, home: Path) -> dict[str, Any]:
    env = {
        **os.environ,
        RUNTIME_ENV: runtime,
        "CODEWEAVER_HOME": str(home),
        "CODEWEAVER_CHAT_MODEL": "offline",
        "HF_HUB_OFFLINE": "1",
    }
    for key in ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GITHUB_TOKEN", "TAVILY_API_KEY"):
        env.pop(key, None)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(home), json.dumps(QUESTIONS)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_onnx_and_sentence_transformers_give_the_same_answers(tmp_path: Path) -> None:
    onnx = answers_with("onnx", tmp_path / "onnx")
    library = answers_with("sentence-transformers", tmp_path / "library")
    assert not onnx["torch"]
    assert library["torch"]
    assert [a["cache_hit"] for a in onnx["answers"]] == [False] * len(QUESTIONS)
    for question, mine, theirs in zip(QUESTIONS, onnx["answers"], library["answers"], strict=True):
        assert mine["answer"], question
        assert mine["answer"] == theirs["answer"], question
        assert mine["citations"] == theirs["citations"], question
