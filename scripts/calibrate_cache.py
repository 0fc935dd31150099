"""Calibrate the semantic cache's hit thresholds on duplicate-question pairs.

Embeds the pairs once, ranks candidates exactly as the cache's cosine search does, then runs the
cache's own decision function (`codeweaver_cache.store.decide`: threshold, detail guards,
coverage, margin) over a grid of thresholds with issue 4's protocol. Prints the precision /
correct-hit-rate curve and the setting with the most correct hits at the precision target.

    uv run python scripts/calibrate_cache.py [--pairs FILE] [--target 0.92] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
from dataclasses import asdict
from pathlib import Path

import numpy as np

from codeweaver_cache.evaluation import load_pairs
from codeweaver_cache.store import Candidate, HitRule, decide
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder
from codeweaver_schema import Answer

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PAIRS = ROOT / "data" / "paraphrase" / "conala_pairs.jsonl"

SIMILARITIES = (0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9)
QUERY_COVERAGES = (0.0, 0.6, 0.7, 0.8)
CACHED_COVERAGES = (0.0, 0.7, 0.8, 0.9)
MARGINS = (0.0, 0.04, 0.05, 0.06, 0.08)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=DEFAULT_PAIRS)
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL)
    parser.add_argument("--target", type=float, default=0.92, help="precision to reach")
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the chosen rule as JSON")
    args = parser.parse_args()

    rows = load_pairs(args.pairs)
    keys: dict[int, str] = {}
    for row in rows:
        keys.setdefault(int(row["question_id"]), str(row["intent"]))
    qids = list(keys)
    position = {qid: i for i, qid in enumerate(qids)}
    embedder = get_embedder(args.model)
    print(f"embedding {len(qids)} entries and {len(rows)} queries with {embedder.model_id} ...")
    entry_vectors = embedder.embed_sync([keys[q] for q in qids])
    query_vectors = embedder.embed_sync([str(r["rewritten_intent"]) for r in rows])
    similarity = query_vectors @ entry_vectors.T

    fetched = args.top_k + 1  # one more, so the true entry can be removed for part (b)
    ranked: list[tuple[int, list[Candidate]]] = []
    for i, row in enumerate(rows):
        order = np.argsort(-similarity[i])[:fetched]
        cands = [_candidate(qids[j], keys[qids[j]], float(similarity[i, j])) for j in order]
        ranked.append((position[int(row["question_id"])], cands))

    curve = []
    for sim, qcov, ccov, margin in itertools.product(
        SIMILARITIES, QUERY_COVERAGES, CACHED_COVERAGES, MARGINS
    ):
        rule = HitRule(sim, qcov, ccov, margin, args.top_k)
        curve.append((rule, _score(rows, qids, ranked, rule)))

    print("\nbaseline (cosine only, best candidate):")
    print(f"{'cosine':>7} {'precision':>9} {'hit rate':>8}")
    for sim in SIMILARITIES:
        rule = HitRule(sim, 0.0, 0.0, 0.0, args.top_k)
        p, h = _score(rows, qids, ranked, rule, guards=False)
        print(f"{sim:7.2f} {p:9.3f} {h:8.3f}")

    print("\nprecision / correct-hit-rate frontier (guards on; best precision per hit-rate band):")
    print(f"{'cosine':>7} {'q_cov':>5} {'c_cov':>5} {'margin':>6} {'precision':>9} {'hit rate':>8}")
    bands: dict[int, tuple[HitRule, tuple[float, float]]] = {}
    for rule, (p, h) in curve:
        band = int(h * 50)
        if band not in bands or p > bands[band][1][0]:
            bands[band] = (rule, (p, h))
    for band in sorted(bands, reverse=True):
        rule, (p, h) = bands[band]
        print(
            f"{rule.min_similarity:7.2f} {rule.min_query_coverage:5.2f} "
            f"{rule.min_cached_coverage:5.2f} {rule.min_margin:6.2f} {p:9.3f} {h:8.3f}"
        )

    eligible = [(h, p, rule) for rule, (p, h) in curve if p >= args.target]
    if not eligible:
        print(f"\nno setting reaches precision {args.target}")
        return
    h, p, rule = max(eligible, key=lambda item: (round(item[0], 3), item[1]))
    print(f"\nchosen (most correct hits at precision >= {args.target}): {asdict(rule)}")
    print(f"precision {p:.3f}, correct_hit_rate {h:.3f}")
    if args.json:
        print(json.dumps({"rule": asdict(rule), "precision": p, "correct_hit_rate": h}))


def _candidate(qid: int, question: str, similarity: float) -> Candidate:
    return Candidate(
        entry_id=str(qid),
        question=question,
        similarity=similarity,
        answer=Answer(text=str(qid)),
        fingerprint=str(qid),
        created_at=0.0,
        expires_at=0.0,
        sources=(),
    )


def _score(
    rows: list[dict[str, object]],
    qids: list[int],
    ranked: list[tuple[int, list[Candidate]]],
    rule: HitRule,
    *,
    guards: bool = True,
) -> tuple[float, float]:
    correct = wrong = false_hits = 0
    for row, (true_position, cands) in zip(rows, ranked, strict=True):
        query = str(row["rewritten_intent"])
        true_id = str(qids[true_position])
        present = _hit(query, cands[: rule.top_k], rule, guards)
        if present == true_id:
            correct += 1
        elif present is not None:
            wrong += 1
        removed = [c for c in cands if c.entry_id != true_id][: rule.top_k]
        if _hit(query, removed, rule, guards) is not None:
            false_hits += 1
    hits = correct + wrong + false_hits
    return (correct / hits if hits else 1.0), correct / len(rows)


def _hit(query: str, cands: list[Candidate], rule: HitRule, guards: bool) -> str | None:
    if not guards:
        best = cands[0]
        return best.entry_id if best.similarity >= rule.min_similarity else None
    result = decide(query, cands, rule)
    return result.candidate.entry_id if result.decision.hit and result.candidate else None


if __name__ == "__main__":
    main()
