"""Build the bundled Python documentation index shipped in the codeweaver-corpus package.

    uv run python scripts/build_docs_index.py [--out DIR]

Parses `data/python-docs-3.11` into answer units, embeds them and the task index
(`data/python_tasks.txt`) with the default embedding model, and writes the files and their
manifest (hashes of every input and output). Run it after changing the sources, the parser or
the task file; `packages/corpus/tests/test_index_is_current.py` fails until you do. Deterministic
for a given model and library version: the same inputs give the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from codeweaver_corpus.pydocs.build import Embed, write_index
from codeweaver_engine.packs import BUNDLED_PACK, DOCS_VERSION
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=BUNDLED_PACK)
    parser.add_argument("--docs", type=Path, default=ROOT / "data" / "python-docs-3.11")
    parser.add_argument("--tasks", type=Path, default=ROOT / "data" / "python_tasks.txt")
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="an .npz of vectors by text hash, reused across builds (e.g. after editing only "
        "the task file); vectors are the same with or without it",
    )
    args = parser.parse_args()
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    started = time.perf_counter()
    embed = embedder.embed_sync if args.cache is None else _cached(embedder.embed_sync, args.cache)
    manifest = write_index(
        docs_root=args.docs,
        tasks_file=args.tasks,
        out=args.out,
        embed=embed,
        model_id=embedder.model_id,
        version=DOCS_VERSION,
    )
    print(
        f"{manifest['units']} units, {manifest['tasks']} tasks ({manifest['phrases']} phrases) "
        f"embedded with {manifest['embedding_model']} in {time.perf_counter() - started:.0f} s "
        f"-> {args.out}"
    )
    return 0


def _cached(embed: Embed, path: Path) -> Embed:
    """`embed`, remembering each text's vector in `path` between runs."""

    def key(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    def cached(texts: Sequence[str]) -> np.ndarray:
        known = dict(np.load(path)) if path.exists() else {}
        missing = [t for t in dict.fromkeys(texts) if key(t) not in known]
        if missing:
            for text, vector in zip(missing, embed(missing), strict=True):
                known[key(text)] = vector
            np.savez(path, **known)
        return np.stack([known[key(t)] for t in texts])

    return cached


if __name__ == "__main__":
    sys.exit(main())
