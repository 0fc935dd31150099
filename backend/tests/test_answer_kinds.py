"""`scripts/answer_kinds.py`: wrong answers read by kind, with the engine's direction and scopes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "answer_kinds.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("answer_kinds", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def answer(api: str | None, also: str = "") -> str:
    head = (
        f"**Use `{api}`** [1]\n\nWhat it does. [1]" if api else "**From:** *A page* [1]\n\nProse."
    )
    return head + (f"\n\n**Also:** `{also}` — what it does. [2]" if also else "")


@pytest.mark.parametrize(
    ("question", "nuggets", "text", "kind"),
    [
        (
            "remove a substring from the end of a string",
            ["removesuffix("],
            answer("str.removeprefix"),
            "direction",
        ),
        (
            "How to add multiple values to a dictionary key",
            ["setdefault(", "defaultdict("],
            answer("dict.update"),
            "one key, many values",
        ),
        (
            "Remove duplicates from a list while preserving the original order",
            ["dict.fromkeys("],
            answer("set"),
            "unmet constraint",
        ),
        (
            "How to remove leading whitespace from a string",
            ["lstrip("],
            answer("str.replace"),
            "scope",
        ),
        ("reverse a list", ["[::-1]", "reversed("], answer("list.sort"), "operation"),
        ("count the items in a list", ["Counter("], answer("list.count"), "another API leading"),
        ("format a float", ["round("], answer(None), "passage without the API"),
        ("append to a file", ["'a')"], answer("open"), "other"),
    ],
)
def test_a_wrong_answer_gets_the_first_kind_it_fits(
    question: str, nuggets: list[str], text: str, kind: str
) -> None:
    assert load_script().kind(question, nuggets, text) == kind


def test_the_table_counts_wrong_answers_and_right_ones_led_by_another_api(tmp_path: Path) -> None:
    script = load_script()
    rows = [
        # Right: the nugget is in the lead.
        {"question": "copy a file", "nuggets": ["shutil.copy"], "declined": False,
         "text": answer("shutil.copy")},
        # Right, but only under Also.
        {"question": "count the items", "nuggets": ["Counter"], "declined": False,
         "text": answer("list.count", also="collections.Counter")},
        # Wrong, another API leading.
        {"question": "count the items", "nuggets": ["Counter("], "declined": False,
         "text": answer("list.count")},
        # Declined: neither right nor wrong.
        {"question": "what does git rebase do", "nuggets": ["x"], "declined": True, "text": ""},
    ]  # fmt: skip
    path = tmp_path / "dev.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    table = script.table([("dev", script.read(path))])
    lines = dict(line.strip("|").split("|", 1) for line in table.splitlines()[2:])
    assert lines[" another API leading "].strip(" |") == "1"
    assert lines[" **wrong, all kinds** "].strip(" |") == "**1**"
    assert lines[" right, but the expected API only under Also "].strip(" |") == "1"
    assert lines[" direction "].strip(" |") == "0"
