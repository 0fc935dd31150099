"""The offline engine's wrong answers read by kind (issue 29): the table of kinds, before and after.

A wrong answer is one that is not a decline and names none of the row's nuggets (as
`codeweaver eval answers` counts it). Each is given the first kind it fits, in this order:

- direction: the answer's lead API does the question's opposite (`str.removeprefix` for "the
  end of a string"), read by the engine's own `opposed_api`;
- one key, many values: the question asks for several values per dictionary key;
- unmet constraint: the question states a constraint (preserving order, in one expression,
  automatically, in place, without an exception, by default, recursively, without overwriting)
  and the answer missed it;
- scope: the question limits its answer by a scope word (all, only, leading, trailing, first,
  last, each, any, duplicate, unique, case-insensitive, several separators, ...);
- operation: the answer the row expects is an operation (`del`, slicing, an operator) rather
  than a named API;
- another API leading: the answer leads with a named API and the row expects another named API
  (the weaker or the wrong one of two candidates);
- passage without the API: the answer is a passage of prose and names none of the APIs;
- other.

Scopes and constraints are read with the engine's `scopes`, so the table is read with the
same words at every commit. A separate count gives the answers counted right whose expected API
appears only under "Also" (the weaker API leads with the right one second).

Two steps, so the answers can come from any commit and the kinds are read by this one:

    uv run python scripts/answer_kinds.py answer \
        data/answers/python_so_questions_dev.jsonl after/dev.jsonl
    uv run python scripts/answer_kinds.py answer \
        data/answers/conala_train_labeled.jsonl after/train.jsonl
    uv run python scripts/answer_kinds.py table before/dev.jsonl after/dev.jsonl \
        before/train.jsonl after/train.jsonl

For an older commit, run the first step in its worktree with this file's path
(`cd /tmp/before && uv run python /path/to/scripts/answer_kinds.py answer ...`): that step imports
only the evaluation, which older commits have.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

KINDS = (
    "direction",
    "one key, many values",
    "unmet constraint",
    "scope",
    "operation",
    "another API leading",
    "passage without the API",
    "other",
)
CONSTRAINTS = frozenset(
    {
        "preserving order",
        "in one expression",
        "automatically",
        "in place",
        "new copy",
        "without an exception",
        "by default",
        "recursively",
        "without overwriting",
    }
)
ONE_KEY = "several values per key"
_LEAD = re.compile(r"\*\*Use `([^`]+)`")
_ALSO = "**Also:**"
_API = re.compile(r"^[A-Za-z_][\w.]*(?:\(|$)")
_OPERATION = re.compile(r"^del\b|\[[^\]]*:[^\]]*\]|\[-\d+\]|^[^A-Za-z]*$")


def lead_api(text: str) -> str | None:
    """The API an answer leads with (`**Use `X`**`), or None for a passage."""
    found = _LEAD.search(text)
    return found.group(1) if found else None


def is_operation(nugget: str) -> bool:
    """`del`, a slice or index, or an operator: something other than a name to look up."""
    return bool(_OPERATION.search(nugget.strip()))


def is_api(nugget: str) -> bool:
    """A name or a call (`re.split`, `setdefault(`, `sum(1`), not a literal or an operation."""
    return bool(_API.match(nugget.strip())) and not is_operation(nugget)


def kind(question: str, nuggets: Sequence[str], text: str) -> str:
    """The first kind a wrong answer fits (see the module's docstring)."""
    from codeweaver_engine.language.direction import opposed_api
    from codeweaver_engine.language.scope_words import scopes

    lead = lead_api(text)
    asked = scopes(question)
    if lead is not None and opposed_api(question, lead):
        return "direction"
    if ONE_KEY in asked:
        return "one key, many values"
    if asked & CONSTRAINTS:
        return "unmet constraint"
    if asked:
        return "scope"
    if any(is_operation(n) for n in nuggets):
        return "operation"
    if lead is not None and any(is_api(n) for n in nuggets):
        return "another API leading"
    if lead is None and any(is_api(n) for n in nuggets):
        return "passage without the API"
    return "other"


def right_only_under_also(nuggets: Sequence[str], text: str) -> bool:
    """A right answer whose expected API appears only in its "Also" lines."""
    head, _, also = text.partition(_ALSO)
    return bool(also) and not any(n in head for n in nuggets) and any(n in also for n in nuggets)


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def is_wrong(row: dict[str, Any]) -> bool:
    return not row["declined"] and not any(n in row["text"] for n in row["nuggets"])


def table(runs: Iterable[tuple[str, list[dict[str, Any]]]]) -> str:
    """A Markdown table: wrong answers by kind for each run, and right-only-under-Also."""
    columns = []
    for name, rows in runs:
        counts = Counter(kind(r["question"], r["nuggets"], r["text"]) for r in rows if is_wrong(r))
        also = sum(
            1 for r in rows if not is_wrong(r) and right_only_under_also(r["nuggets"], r["text"])
        )
        wrong = sum(counts.values())
        columns.append((name, len(rows), counts, wrong, also))
    lines = [
        "| kind | " + " | ".join(f"{name} (n={n})" for name, n, *_ in columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for k in KINDS:
        lines.append(f"| {k} | " + " | ".join(str(c[k]) for _, _, c, _, _ in columns) + " |")
    lines.append(
        "| **wrong, all kinds** | " + " | ".join(f"**{w}**" for *_, w, _ in columns) + " |"
    )
    lines.append(
        "| right, but the expected API only under Also | "
        + " | ".join(str(a) for *_, a in columns)
        + " |"
    )
    return "\n".join(lines)


async def answer(questions: Path, out: Path) -> None:
    from codeweaver.workflows.orchestration.evaluation import (
        ask_all,
        evaluation_context,
        read_rows,
    )

    rows = read_rows(questions, in_scope=True)
    outcomes = await ask_all(rows, context=evaluation_context())
    with out.open("w", encoding="utf-8") as f:
        for o in outcomes:
            record = {
                "id": o.row.id,
                "question": o.row.question,
                "nuggets": list(o.row.nuggets),
                "declined": o.declined,
                "text": o.text,
            }
            f.write(json.dumps(record, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    ask = steps.add_parser("answer", help="answer a question file offline, one JSON line each")
    ask.add_argument("questions", type=Path)
    ask.add_argument("out", type=Path)
    show = steps.add_parser("table", help="the kinds table of one or more answer files")
    show.add_argument("answers", type=Path, nargs="+")
    args = parser.parse_args()
    if args.step == "answer":
        asyncio.run(answer(args.questions, args.out))
    else:
        print(table((f"{path.parent.name}/{path.stem}", read(path)) for path in args.answers))


if __name__ == "__main__":
    main()
