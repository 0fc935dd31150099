"""Choose the relevance floor of library answers by cross-validation on the third-party dev file.

A question that names a library is answered from that library's pack, whose scores sit on
another scale than the Python documentation's (its name is left out of the query's vector, its
task index is smaller). The rule: the lowest floor whose wrong rate on the rows it is fitted on
is at or under `--max-wrong`. It is chosen on four fifths of the questions and scored on the
fifth left out, five folds by question id (a Korean row and its English original share their
id, so they are never split), for several shuffles, so the floor's own fit is not counted.

    CODEWEAVER_HOME=DIR uv run codeweaver eval answers \
        --questions data/answers/third_party_dev.jsonl --json --floors --verbose \
        2> third_party_dev.txt > third_party_dev.json
    uv run python scripts/library_floor_cv.py third_party_dev.txt

With `--floors` every question is answered at floor 0, so each verbose line carries the verdict
its answer would have (`correct` or `WRONG`) and its relevance; a Korean row (id ending `-ko`)
is held to the floor less `GLOSSED_SCORE_LOSS`, as the engine does. The floor printed is the
one library answers would need; the offset printed is how far it is from the floor the engine
holds every answer to (`codeweaver_engine.compose.RELEVANCE_FLOOR`): the engine's
`LIBRARY_FLOOR_OFFSET`, which the line after it prints for comparison.
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from codeweaver_engine.compose import GLOSSED_SCORE_LOSS, LIBRARY_FLOOR_OFFSET, RELEVANCE_FLOOR

FLOORS = [round(0.50 + 0.01 * k, 2) for k in range(41)]
Row = tuple[str, bool, float]


def read_rows(path: Path) -> list[Row]:
    """(question id without `-ko`, correct, relevance on the English scale) per question.

    A question declined at floor 0 (its library has no pack, or it is out of scope by its
    words) never answers: it counts, at no floor.
    """
    rows: list[Row] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) < 4 or parts[0] not in ("correct", "WRONG", "declined"):
            continue
        question = parts[3].removesuffix("-ko")
        if parts[0] == "declined":
            rows.append((question, False, float("-inf")))
            continue
        score = float(parts[1]) if parts[1] != "-" else 0.0
        if parts[3].endswith("-ko"):
            score += GLOSSED_SCORE_LOSS
        rows.append((question, parts[0] == "correct", score))
    return rows


def figures(rows: list[Row], floor: float) -> tuple[float, float]:
    """Accuracy and wrong rate of `rows` at `floor`."""
    right = sum(ok and score >= floor for _, ok, score in rows)
    wrong = sum(not ok and score >= floor for _, ok, score in rows)
    return right / len(rows), wrong / len(rows)


def pick(rows: list[Row], max_wrong: float) -> float:
    """The rule: the lowest floor whose wrong rate is at or under `max_wrong`."""
    return next((f for f in FLOORS if figures(rows, f)[1] <= max_wrong), FLOORS[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="stderr of `eval answers --floors --verbose`")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--shuffles", type=int, default=20)
    parser.add_argument("--max-wrong", type=float, default=0.12)
    args = parser.parse_args()
    rows = read_rows(args.run)
    chosen = pick(rows, args.max_wrong)
    accuracy, wrong = figures(rows, chosen)
    print(
        f"{len(rows)} questions; the rule (wrong <= {args.max_wrong}) on all of them picks "
        f"{chosen} (offset {chosen - RELEVANCE_FLOOR:+.2f}): {accuracy:.3f} / {wrong:.3f}"
    )
    questions = sorted({q for q, _, _ in rows})
    held_accuracy, held_wrong, floors = [], [], []
    for seed in range(args.shuffles):
        order = list(questions)
        random.Random(seed).shuffle(order)
        fold_of = {q: i % args.folds for i, q in enumerate(order)}
        right = bad = total = 0
        for k in range(args.folds):
            fitted = [r for r in rows if fold_of[r[0]] != k]
            held = [r for r in rows if fold_of[r[0]] == k]
            floor = pick(fitted, args.max_wrong)
            floors.append(floor)
            right += sum(ok and score >= floor for _, ok, score in held)
            bad += sum(not ok and score >= floor for _, ok, score in held)
            total += len(held)
        held_accuracy.append(right / total)
        held_wrong.append(bad / total)
    print(
        f"{args.folds} folds x {args.shuffles} shuffles: floors {min(floors)} to {max(floors)}, "
        f"{statistics.fmean(floors):.3f} on average; on the folds left out "
        f"{statistics.fmean(held_accuracy):.3f} / {statistics.fmean(held_wrong):.3f} "
        f"(accuracy / wrong)"
    )
    print(f"the engine's offset now: {LIBRARY_FLOOR_OFFSET:+.2f}")
    for floor in (0.60, 0.65, 0.70, 0.72, 0.74, 0.76, 0.78, 0.80, 0.82, 0.84, 0.86):
        accuracy, wrong = figures(rows, floor)
        print(f"  floor {floor:.2f}: {accuracy:.3f} / {wrong:.3f}")


if __name__ == "__main__":
    main()
