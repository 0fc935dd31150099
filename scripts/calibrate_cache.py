"""Fit the semantic cache's hit model and report it cross-validated, never in-sample.

Protocol (issue 4's, as `codeweaver eval cache --pairs` runs it): one cache entry per
`question_id`, keyed by its first `intent`; each row's `rewritten_intent` is looked up (a) with
its entry present — a hit on it is correct, on another entry wrong — and (b) with its entry
removed — any hit is false. precision = correct / all hits; correct_hit_rate = correct / rows.

Every lookup goes through the cache's own decision (`codeweaver_cache.decision.hit_or_miss`): the
similarity floor, the detail guards, the swapped-word check, then the hit model's confidence.

Cross-validation: question ids are split into folds, so one question's rows are never on both
sides. The model is fitted on the training folds' lookups, made among training entries only,
and scored on the held-out folds' lookups, made among all entries as the cache would. Folds
are drawn several times; the curve is the mean over draws, with the spread. Two more checks:
the same held-out rows in a smaller cache (about 60% of the questions, as an unseen set of
this kind holds), and a model fitted on CoNaLa's own "train" questions scored on its "test"
questions. The shipped model is then fitted on all rows; its threshold is the most precise
one on the cross-validated curve that keeps the correct-hit rate target.

    uv run python scripts/calibrate_cache.py [--pairs FILE] [--target 0.93] [--hit-target 0.25]
        [--folds 5] [--repeats 5] [--embeddings-cache DIR] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from codeweaver_cache.decision import (
    FEATURE_NAMES,
    Candidate,
    HitModel,
    HitRule,
    features,
    hit_or_miss,
    words_to_embed,
)
from codeweaver_cache.evaluation import load_pairs
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, Embedder, get_embedder
from codeweaver_schema import Answer

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PAIRS = ROOT / "data" / "paraphrase" / "conala_pairs.jsonl"
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.65, *(round(0.01 * i, 2) for i in range(70, 90)), 0.9, 0.95)
COSINES = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9)
L2 = 1.0
"""Ridge penalty on the standardised weights: a little shrinkage for 1,059 questions."""

Matrix = NDArray[np.float64]


@dataclass(frozen=True)
class Lookup:
    """One lookup of the protocol: a query, what the search found, and the right answer."""

    row: int
    query: str
    found: tuple[Candidate, ...]
    true_id: str
    removed: bool
    """Part (b): the query's own entry was taken out, so any hit is false."""


@dataclass(frozen=True)
class Scored:
    """A lookup as the decision sees it before the model: may it hit, and on which features."""

    row: int
    gated: bool
    """The floor, guards and swapped-word check let it through (or it is the same question)."""
    same: bool
    """Same normalised question: hits whatever the model says."""
    correct: bool
    removed: bool
    x: tuple[float, ...]


@dataclass(frozen=True)
class Point:
    """Precision and correct-hit rate at one confidence threshold."""

    threshold: float
    precision: float
    hit_rate: float
    wrong: int
    false_hits: int


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=DEFAULT_PAIRS)
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL)
    parser.add_argument("--target", type=float, default=0.93, help="precision to reach")
    parser.add_argument("--hit-target", type=float, default=0.25, help="correct-hit rate to keep")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5, help="fold draws to average")
    parser.add_argument("--top-k", type=int, default=HitRule().top_k)
    parser.add_argument(
        "--embeddings-cache", type=Path, default=None, help="folder to keep embeddings in"
    )
    parser.add_argument("--json", action="store_true", help="print the fitted rule as JSON")
    args = parser.parse_args()

    rows = load_pairs(args.pairs)
    keys: dict[int, str] = {}
    for row in rows:
        keys.setdefault(int(row["question_id"]), str(row["intent"]))
    qids = list(keys)
    position = {qid: i for i, qid in enumerate(qids)}
    true_entry = np.array([position[int(r["question_id"])] for r in rows])
    queries = [str(r["rewritten_intent"]) for r in rows]
    embedder = get_embedder(args.model)
    print(f"{len(rows)} rows, {len(qids)} questions; embedding with {embedder.model_id} ...")
    entry_vectors = _embed(embedder, [keys[q] for q in qids], args.embeddings_cache)
    query_vectors = _embed(embedder, queries, args.embeddings_cache)
    similarity = query_vectors @ entry_vectors.T
    candidates = [_candidate(str(q), keys[q]) for q in qids]
    rule = HitRule(top_k=args.top_k)

    def lookups(row_ids: Iterable[int], allowed: NDArray[np.bool_]) -> list[Lookup]:
        """Both parts of the protocol for these rows, searching only the allowed entries."""
        out = []
        for i in row_ids:
            scores = np.where(allowed, similarity[i], -np.inf)
            for removed in (False, True):
                if removed:
                    scores = scores.copy()
                    scores[true_entry[i]] = -np.inf
                k = min(rule.top_k, int(np.isfinite(scores).sum()))
                best = np.argpartition(-scores, k - 1)[:k]
                order = best[np.argsort(-scores[best])]
                found = tuple(replace(candidates[j], similarity=float(scores[j])) for j in order)
                out.append(Lookup(i, queries[i], found, str(qids[true_entry[i]]), removed))
        return out

    everything = np.ones(len(qids), dtype=bool)
    draws = []
    sparse: list[list[Lookup]] = []
    for repeat in range(args.repeats):
        fold_of_entry = _folds(len(qids), args.folds, seed=repeat)
        fold_of_row = fold_of_entry[true_entry]
        splits = []
        for fold in range(args.folds):
            train_rows = np.flatnonzero(fold_of_row != fold)
            test_rows = np.flatnonzero(fold_of_row == fold)
            splits.append(
                (lookups(train_rows, fold_of_entry != fold), lookups(test_rows, everything))
            )
            if repeat == 0:
                # The same held-out rows in a smaller cache: their own questions and half of
                # the others, about 60% of all entries, as a smaller unseen set would hold.
                half = np.random.default_rng(fold).random(len(qids)) < 0.5
                sparse.append(lookups(test_rows, half | (fold_of_entry == fold)))
        draws.append(splits)
    conala_train = {int(r["question_id"]) for r in rows if r.get("split") == "train"}
    conala_train -= {int(r["question_id"]) for r in rows if r.get("split") != "train"}
    in_train = np.array([q in conala_train for q in qids])
    split_rows = np.flatnonzero(in_train[true_entry])
    held_rows = np.flatnonzero(~in_train[true_entry])
    conala_split = (lookups(split_rows, in_train), lookups(held_rows, everything))
    final = lookups(range(len(rows)), everything)

    every_lookup = (
        [lk for splits in draws for pair in splits for part in pair for lk in part]
        + [lk for part in conala_split for lk in part]
        + [lk for part in sparse for lk in part]
        + final
    )
    words = sorted({w for lk in every_lookup for w in words_to_embed(lk.query, lk.found, rule)})
    word_vectors = dict(zip(words, _embed(embedder, words, args.embeddings_cache), strict=True))
    print(f"embedded {len(words)} swapped words to compare")
    gate = replace(rule, min_confidence=0.0)

    def scored(part: list[Lookup]) -> list[Scored]:
        out = []
        for lk in part:
            result = hit_or_miss(lk.query, lk.found, gate, word_vectors)
            best = lk.found[0]
            x: tuple[float, ...] = ()
            if result.decision.hit and result.comparison is not None:
                x = features(best, lk.found, result.comparison, rule.min_similarity).vector()
            out.append(
                Scored(
                    row=lk.row,
                    gated=result.decision.hit,
                    same=result.decision.hit and result.comparison is None,
                    correct=not lk.removed and best.entry_id == lk.true_id,
                    removed=lk.removed,
                    x=x,
                )
            )
        return out

    print("\nbaseline, no fitting (best candidate, cosine only, all rows):")
    print(f"{'cosine':>7} {'precision':>9} {'hit rate':>8}")
    for cosine in COSINES:
        hits = [
            (not lk.removed and lk.found[0].entry_id == lk.true_id)
            for lk in final
            if lk.found[0].similarity >= cosine
        ]
        precision = sum(hits) / len(hits) if hits else 1.0
        print(f"{cosine:7.2f} {precision:9.3f} {sum(hits) / len(rows):8.3f}")

    curves = []
    sparse_confidences: list[tuple[Scored, float]] = []
    for repeat, splits in enumerate(draws):
        confidences: list[tuple[Scored, float]] = []
        for fold, (train, test) in enumerate(splits):
            model = _fit(scored(train))
            confidences.extend((s, _confidence(model, s)) for s in scored(test))
            if repeat == 0:
                sparse_confidences.extend((s, _confidence(model, s)) for s in scored(sparse[fold]))
        curves.append(_curve(confidences, len(rows)))
    sparse_curve = _curve(sparse_confidences, len(rows))
    print(
        f"\ncross-validated precision / correct-hit-rate curve ({args.folds} folds by question id,"
        f" mean of {args.repeats} draws, range in brackets):"
    )
    print(f"{'confidence':>10} {'precision':>17} {'hit rate':>17} {'wrong':>6} {'false':>6}")
    mean_curve = []
    for i, threshold in enumerate(THRESHOLDS):
        points = [curve[i] for curve in curves]
        precision = statistics.fmean(p.precision for p in points)
        hit_rate = statistics.fmean(p.hit_rate for p in points)
        wrong = statistics.fmean(p.wrong for p in points)
        false_hits = statistics.fmean(p.false_hits for p in points)
        mean_curve.append(Point(threshold, precision, hit_rate, round(wrong), round(false_hits)))
        print(
            f"{threshold:10.2f} {precision:6.3f} [{min(p.precision for p in points):.3f}-"
            f"{max(p.precision for p in points):.3f}] {hit_rate:6.3f} "
            f"[{min(p.hit_rate for p in points):.3f}-{max(p.hit_rate for p in points):.3f}]"
            f" {wrong:6.1f} {false_hits:6.1f}"
        )

    split_model = _fit(scored(conala_split[0]))
    split_curve = _curve(
        [(s, _confidence(split_model, s)) for s in scored(conala_split[1])], len(held_rows)
    )

    keeping = [p for p in mean_curve if p.hit_rate >= args.hit_target]
    if not keeping:
        print(f"\nno threshold keeps a cross-validated correct-hit rate of {args.hit_target}")
        return
    chosen = max(keeping, key=lambda p: (p.precision, p.threshold))
    fitted = _fit(scored(final))
    shipped = replace(rule, min_confidence=chosen.threshold, model=fitted)
    held = next(p for p in split_curve if p.threshold == chosen.threshold)
    smaller = next(p for p in sparse_curve if p.threshold == chosen.threshold)
    print(
        f"\nchosen: confidence >= {chosen.threshold} (the most precise that keeps a cross-validated"
        f" correct-hit rate of {args.hit_target})"
    )
    print(
        f"cross-validated precision {chosen.precision:.3f}"
        f" ({'meets' if chosen.precision >= args.target else 'misses'} the target {args.target}),"
        f" correct_hit_rate {chosen.hit_rate:.3f}"
    )
    print(
        f"same held-out rows, cache of ~60% of the questions (first draw): precision"
        f" {smaller.precision:.3f}, correct_hit_rate {smaller.hit_rate:.3f}"
    )
    print(
        f"fitted on CoNaLa's train questions, scored on its {len(held_rows)} test-question rows:"
        f" precision {held.precision:.3f}, correct_hit_rate {held.hit_rate:.3f}"
    )
    print("\nshipped model (fitted on all rows; paste into codeweaver_cache.decision):")
    print(
        f"HitModel(intercept={fitted.intercept}, weights={fitted.weights})"
        f"  # {', '.join(FEATURE_NAMES)}"
    )
    if args.json:
        print(
            json.dumps(
                {
                    "rule": {
                        "min_similarity": shipped.min_similarity,
                        "min_confidence": shipped.min_confidence,
                        "min_word_similarity": shipped.min_word_similarity,
                        "intercept": fitted.intercept,
                        "weights": dict(zip(FEATURE_NAMES, fitted.weights, strict=True)),
                    },
                    "cross_validated": {
                        "precision": round(chosen.precision, 4),
                        "correct_hit_rate": round(chosen.hit_rate, 4),
                    },
                    "smaller_cache": {
                        "precision": round(smaller.precision, 4),
                        "correct_hit_rate": round(smaller.hit_rate, 4),
                    },
                    "conala_split": {
                        "precision": round(held.precision, 4),
                        "correct_hit_rate": round(held.hit_rate, 4),
                    },
                }
            )
        )


def _fit(examples: list[Scored]) -> HitModel:
    """Logistic regression on the gated, not identical lookups, by Newton's method."""
    usable = [s for s in examples if s.gated and not s.same]
    x = np.array([s.x for s in usable], dtype=np.float64)
    y = np.array([s.correct for s in usable], dtype=np.float64)
    mean, spread = x.mean(axis=0), x.std(axis=0)
    spread[spread == 0] = 1.0
    design = np.hstack([np.ones((len(x), 1)), (x - mean) / spread])
    penalty = np.diag([0.0] + [L2] * x.shape[1])
    w = np.zeros(design.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(design @ w)))
        gradient = design.T @ (p - y) + penalty @ w
        hessian = (design.T * (p * (1 - p))) @ design + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-9:
            break
    weights = w[1:] / spread
    intercept = float(w[0] - float(np.sum(weights * mean)))
    return HitModel(
        intercept=round(intercept, 4), weights=tuple(round(float(v), 4) for v in weights)
    )


def _confidence(model: HitModel, s: Scored) -> float:
    if not s.gated:
        return -1.0
    if s.same:
        return 2.0
    logit = model.intercept + sum(w * v for w, v in zip(model.weights, s.x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(min(logit, 60.0), -60.0)))


def _curve(confidences: list[tuple[Scored, float]], n: int) -> list[Point]:
    points = []
    for threshold in THRESHOLDS:
        hits = [s for s, c in confidences if c >= threshold]
        correct = sum(s.correct for s in hits)
        wrong = sum(1 for s in hits if not s.correct and not s.removed)
        points.append(
            Point(
                threshold=threshold,
                precision=correct / len(hits) if hits else 1.0,
                hit_rate=correct / n,
                wrong=wrong,
                false_hits=len(hits) - correct - wrong,
            )
        )
    return points


def _folds(n: int, k: int, seed: int) -> NDArray[np.int64]:
    permutation = np.random.default_rng(seed).permutation(n)
    fold = np.empty(n, dtype=np.int64)
    fold[permutation] = np.arange(n) % k
    return fold


def _embed(embedder: Embedder, texts: list[str], folder: Path | None) -> Matrix:
    """Embeddings of texts, kept in `folder` when given (keyed by model and texts)."""
    digest = hashlib.sha256("\n".join([embedder.model_id, *texts]).encode()).hexdigest()[:16]
    path = folder / f"embeddings-{digest}.npy" if folder is not None else None
    if path is not None and path.exists():
        return np.asarray(np.load(path), dtype=np.float64)
    vectors = np.asarray(embedder.embed_sync(texts), dtype=np.float64)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return vectors


def _candidate(entry_id: str, question: str) -> Candidate:
    return Candidate(
        entry_id=entry_id,
        question=question,
        similarity=0.0,
        answer=Answer(text=entry_id),
        fingerprint=entry_id,
        created_at=0.0,
        expires_at=0.0,
        sources=(),
    )


if __name__ == "__main__":
    main()
