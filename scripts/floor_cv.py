"""Cross-validate the relevance-floor rule on the per-question scores of `--verbose` runs.

The rule (docs/ANSWERS.md, "The relevance floor"): the lowest floor at which the pooled wrong
rate of the development questions is at or under 0.08. This script chooses the floor by that
rule on nine tenths of the rows and scores the other tenth, for ten folds and several shuffles,
so the floor's own fit is not counted as accuracy.

    uv run codeweaver eval answers --questions data/answers/python_so_questions_dev.jsonl \
        --json --floors --verbose 2> dev.txt > /dev/null
    uv run codeweaver eval answers --questions data/answers/conala_train_labeled.jsonl \
        --json --floors --verbose 2> train.txt > /dev/null
    uv run python scripts/floor_cv.py dev.txt train.txt

With `--floors` every question is answered at floor 0, so each verbose line carries the verdict
the answer would have (`correct` or `WRONG`) and its relevance; a Korean row (id ending `-ko`)
is held to the floor less `GLOSSED_SCORE_LOSS`, as the engine does.
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from codeweaver_engine.compose import GLOSSED_SCORE_LOSS

MAX_WRONG = 0.08
FLOORS = [round(0.70 + 0.02 * k, 2) for k in range(11)]
Row = tuple[bool, float]


def read_rows(path: Path) -> list[Row]:
    """(correct, relevance on the English scale) for each in-scope question of a verbose run.

    An in-scope question declined at floor 0 (out of scope by its words) never answers: it
    counts, at no floor. Out-of-scope rows (ids `oos-...`) are left out.
    """
    rows: list[Row] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) < 4 or parts[0] not in ("correct", "WRONG", "declined"):
            continue
        if parts[0] == "declined":
            if not parts[3].startswith("oos"):  # declined whatever the floor: never answered
                rows.append((False, float("-inf")))
            continue
        score = float(parts[1]) if parts[1] != "-" else 0.0
        if parts[3].endswith("-ko"):
            score += GLOSSED_SCORE_LOSS
        rows.append((parts[0] == "correct", score))
    return rows


def wrong_rate(rows: list[Row], floor: float) -> float:
    """The share of rows answered (at or above `floor`) without a nugget."""
    return sum(not ok and score >= floor for ok, score in rows) / len(rows)


def pick(rows: list[Row]) -> float:
    """The rule: the lowest floor whose wrong rate is at or under `MAX_WRONG`."""
    return next((f for f in FLOORS if wrong_rate(rows, f) <= MAX_WRONG), FLOORS[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="stderr of `eval answers --verbose`")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--shuffles", type=int, default=20)
    args = parser.parse_args()
    rows = [row for path in args.runs for row in read_rows(path)]
    print(f"{len(rows)} questions; the rule on all of them picks {pick(rows)}")
    accuracy, wrong, floors = [], [], []
    for seed in range(args.shuffles):
        order = list(range(len(rows)))
        random.Random(seed).shuffle(order)
        right = bad = 0
        for k in range(args.folds):
            held = [rows[i] for i in order[k :: args.folds]]
            rest = [rows[i] for j in range(args.folds) if j != k for i in order[j :: args.folds]]
            floor = pick(rest)
            floors.append(floor)
            right += sum(ok and score >= floor for ok, score in held)
            bad += sum(not ok and score >= floor for ok, score in held)
        accuracy.append(right / len(rows))
        wrong.append(bad / len(rows))
    print(
        f"held-out folds: accuracy {statistics.mean(accuracy):.3f}, "
        f"wrong {statistics.mean(wrong):.3f}; floors picked {min(floors)} to {max(floors)}, "
        f"mean {statistics.mean(floors):.3f}"
    )


if __name__ == "__main__":
    main()
