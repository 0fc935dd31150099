"""Retrieval evaluation of the local corpus on the Python FAQ, with ingestion times.

Prints one JSON object: the issue-3 figures (n, recall@1/5/10, MRR) over the full docs folder,
ingestion time of the full folder and of half of it (every second file) to show how it grows,
and the time of a repeated run over the unchanged folder. Qdrant runs embedded, in a temporary
folder unless --qdrant names one.

    uv run python benchmarks/retrieval_eval.py [--qdrant DIR] [--skip-half]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from codeweaver_corpus import DocumentCorpus, evaluate_retrieval, load_document
from codeweaver_corpus.retrieval_eval import eval_document_paths
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder, open_qdrant

ROOT = Path(__file__).resolve().parents[1]


async def run(args: argparse.Namespace, qdrant_dir: Path) -> dict[str, object]:
    client = open_qdrant(str(qdrant_dir))
    embedder = get_embedder(args.model)
    started = time.perf_counter()
    await asyncio.to_thread(embedder.embed_sync, ["load the model before timing anything"])
    figures: dict[str, object] = {"model_load_seconds": round(time.perf_counter() - started, 2)}
    try:
        if not args.skip_half:
            paths = eval_document_paths(args.docs)[::2]
            half = DocumentCorpus(client, embedder, collection="bench_half")
            docs = [load_document(p, root=args.docs) for p in paths]
            report = await half.ingest(docs)
            figures["ingest_half"] = {
                "documents": report.documents,
                "chunks": report.chunks_added,
                "seconds": round(report.seconds, 2),
            }
        corpus = DocumentCorpus(client, embedder, collection="bench_eval")
        full = await evaluate_retrieval(args.questions, args.docs, corpus=corpus)
        figures["ingest_full"] = {
            "documents": full.documents,
            "chunks": full.chunks,
            "chunks_added": full.ingest.chunks_added,
            "seconds": round(full.ingest.seconds, 2),
        }
        started = time.perf_counter()
        again = await evaluate_retrieval(args.questions, args.docs, corpus=corpus)
        figures["rerun_unchanged_seconds"] = round(time.perf_counter() - started, 2)
        figures["rerun_chunks_added"] = again.ingest.chunks_added
        figures["eval"] = json.loads(full.to_json(include_questions=args.questions_detail))
    finally:
        await client.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--questions", type=Path, default=ROOT / "data" / "python_faq_qa.jsonl")
    parser.add_argument("--docs", type=Path, default=ROOT / "data" / "python-docs-3.11")
    parser.add_argument("--qdrant", type=Path, help="embedded Qdrant folder (default: temporary)")
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL)
    parser.add_argument("--skip-half", action="store_true", help="do not time half the folder")
    parser.add_argument(
        "--questions-detail", action="store_true", help="include per-question results"
    )
    args = parser.parse_args()
    if args.qdrant is not None:
        figures = asyncio.run(run(args, args.qdrant))
    else:
        with tempfile.TemporaryDirectory(prefix="codeweaver-bench-") as tmp:
            figures = asyncio.run(run(args, Path(tmp)))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
