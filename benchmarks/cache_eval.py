"""Issue 4's cache evaluation on the CoNaLa pairs, without and with a faked verifier model.

The fake verifier is a `ScriptedChatModel` that knows the gold pairs: it confirms a candidate
only when the cached answer names the query's own question id, and it answers in zero time.
It shows what a perfect verifier adds on top of the guards (it can only remove hits), and
that the verify step costs one model call per candidate the guards let through.

    uv run python benchmarks/cache_eval.py [--limit N] [--pairs FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import BaseMessage

from codeweaver_cache import SemanticCache, evaluate_cache
from codeweaver_cache.evaluation import load_pairs
from codeweaver_cache.verifier import CacheVerdict
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder, open_qdrant
from codeweaver_testing import ScriptedChatModel

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PAIRS = ROOT / "data" / "paraphrase" / "conala_pairs.jsonl"


def oracle_verifier(pairs: Path, limit: int | None) -> ScriptedChatModel:
    gold: dict[str, set[int]] = defaultdict(set)
    for row in load_pairs(pairs, limit):
        gold[str(row["rewritten_intent"])].add(int(row["question_id"]))

    def respond(messages: Sequence[BaseMessage], schema: str | None) -> CacheVerdict:
        prompt = str(messages[-1].content)
        query = prompt.split("New question: ", 1)[1].split("\n\nCached question: ", 1)[0]
        named = re.search(r"Stack Overflow question (\d+)", prompt)
        same = named is not None and int(named.group(1)) in gold.get(query, set())
        return CacheVerdict(same_question=same, reason="oracle")

    return ScriptedChatModel(responder=respond)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=DEFAULT_PAIRS)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    results = {}
    verifier = oracle_verifier(args.pairs, args.limit)
    for label, model in (("guards_only", None), ("fake_oracle_verifier", verifier)):
        cache = SemanticCache(open_qdrant(":memory:"), embedder, timeout_s=60.0)
        report = await evaluate_cache(args.pairs, cache=cache, verifier=model, limit=args.limit)
        results[label] = json.loads(report.to_json())
    results["fake_oracle_verifier"]["verifier_calls"] = len(verifier.calls)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
