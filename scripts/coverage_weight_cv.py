"""Choose how much an answer's coverage of the question weighs in a library answer's confidence.

A library answer's confidence is its best evidence's score moved by `answer_coverage` (the
share of the question's words the answer speaks of): `score + weight * (coverage - 0.5)`,
held to the library floor (`RELEVANCE_FLOOR + LIBRARY_FLOOR_OFFSET`). This script answers
every question of a file at floor 0 with the weight at 0 (the evidence's score alone), reads
each answer's coverage, and cross-validates the weight with the floor: for each weight, the
floor is chosen by `scripts/library_floor_cv.py`'s rule (the lowest floor whose wrong rate is
at most `--max-wrong` on four fifths of the questions, a Korean row and its English original
never split) and scored on the fifth left out; the weight itself is also chosen on the four
fifths (the best accuracy under the rule) and scored the same way.

    CODEWEAVER_HOME=DIR uv run python scripts/coverage_weight_cv.py \
        data/answers/third_party_dev.jsonl

DIR holds the packs of the pinned environment (`scripts/library_env.sh`, `codeweaver ingest`).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
from pathlib import Path

from codeweaver.workflows.orchestration.evaluation import ask_all, evaluation_context, read_rows
from codeweaver_engine import compose
from codeweaver_engine.compose import LIBRARY_FLOOR_OFFSET, answer_coverage, floor_for
from codeweaver_engine.language.korean import english_gloss
from codeweaver_engine.libraries import libraries_named

SHIPPED_WEIGHT = compose.COVERAGE_WEIGHT
WEIGHTS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3)
FLOORS = [round(0.70 + 0.005 * k, 3) for k in range(41)]
Row = tuple[str, bool, float, float]  # question id without -ko, correct, score, coverage


async def answered(path: Path) -> list[Row]:
    """Each question's verdict, score on the library floor's scale and coverage, at floor 0."""
    compose.COVERAGE_WEIGHT = 0.0  # the evidence's score alone: the weight is added here
    outcomes = await ask_all(read_rows(path, in_scope=True), context=evaluation_context(0.0))
    rows: list[Row] = []
    for outcome in outcomes:
        question = outcome.row.question
        key = outcome.row.id.removesuffix("-ko")
        if outcome.declined or outcome.relevance is None:
            rows.append((key, False, float("-inf"), 0.0))
            continue
        gloss = english_gloss(question)
        basis = f"{question} {gloss}".strip() if gloss else question
        coverage = answer_coverage(basis, libraries_named(question), outcome.text.splitlines())
        # On the English library scale: a glossed question is held lower, so it scores higher.
        shift = LIBRARY_FLOOR_OFFSET - floor_for(question, outcome.language, 0.0)
        rows.append((key, outcome.has_nugget, outcome.relevance + shift, coverage))
    return rows


def counts(rows: list[Row], weight: float, floor: float) -> tuple[int, int]:
    """How many of `rows` are answered right and wrong with `weight` at library floor `floor`."""
    sure = [ok for _, ok, score, cover in rows if score + weight * (cover - 0.5) >= floor]
    return sum(sure), len(sure) - sum(sure)


def figures(rows: list[Row], weight: float, floor: float) -> tuple[float, float]:
    """Accuracy and wrong rate of `rows` with `weight` at library floor `floor`."""
    right, wrong = counts(rows, weight, floor)
    return right / len(rows), wrong / len(rows)


def pick(rows: list[Row], weight: float, max_wrong: float) -> float:
    """The rule: the lowest floor whose wrong rate is at or under `max_wrong`."""
    return next((f for f in FLOORS if figures(rows, weight, f)[1] <= max_wrong), FLOORS[-1])


def cross_validate(
    rows: list[Row], weights: tuple[float, ...], folds: int, shuffles: int, max_wrong: float
) -> tuple[float, float, list[float], list[float]]:
    """Held-out accuracy and wrong rate, and the weights and floors chosen on each fold."""
    questions = sorted({r[0] for r in rows})
    accuracy, wrong, chosen_weights, chosen_floors = [], [], [], []
    for seed in range(shuffles):
        order = list(questions)
        random.Random(seed).shuffle(order)
        fold_of = {q: i % folds for i, q in enumerate(order)}
        right = bad = 0
        for k in range(folds):
            fitted = [r for r in rows if fold_of[r[0]] != k]
            held = [r for r in rows if fold_of[r[0]] == k]
            weight, floor = max(
                ((w, pick(fitted, w, max_wrong)) for w in weights),
                key=lambda wf: (figures(fitted, *wf)[0], -wf[0]),
            )
            chosen_weights.append(weight)
            chosen_floors.append(floor)
            held_right, held_wrong = counts(held, weight, floor)
            right += held_right
            bad += held_wrong
        accuracy.append(right / len(rows))
        wrong.append(bad / len(rows))
    return statistics.fmean(accuracy), statistics.fmean(wrong), chosen_weights, chosen_floors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", type=Path, help="JSONL rows: id, question, nuggets")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--shuffles", type=int, default=20)
    parser.add_argument("--max-wrong", type=float, default=0.12)
    args = parser.parse_args()
    rows = asyncio.run(answered(args.questions))
    print(
        f"{len(rows)} questions, {args.folds} folds x {args.shuffles} shuffles, "
        f"wrong <= {args.max_wrong} on the folds fitted:"
    )
    for weight in WEIGHTS:
        accuracy, wrong, _, floors = cross_validate(
            rows, (weight,), args.folds, args.shuffles, args.max_wrong
        )
        print(
            f"  weight {weight:.2f}: left out {accuracy:.3f} / {wrong:.3f}; library floor "
            f"{min(floors):.3f} to {max(floors):.3f}, {statistics.fmean(floors):.3f} on average"
        )
    accuracy, wrong, weights, floors = cross_validate(
        rows, WEIGHTS, args.folds, args.shuffles, args.max_wrong
    )
    print(
        f"  weight chosen in each fold ({statistics.fmean(weights):.3f} on average, floor "
        f"{statistics.fmean(floors):.3f}): left out {accuracy:.3f} / {wrong:.3f}"
    )
    print(
        f"the engine's weight now: {SHIPPED_WEIGHT:.2f}, "
        f"library floor offset {LIBRARY_FLOOR_OFFSET:+.2f}"
    )


if __name__ == "__main__":
    main()
