"""Build the bundled Python documentation pack: units, their vectors, and the task index's vectors.

`scripts/build_docs_index.py` runs this once, offline, and the result ships inside the engine
package (`codeweaver_engine.packs.BUNDLED_PACK`), so a fresh install searches the whole Python
documentation without embedding anything. The files are the pack format
(`codeweaver_engine.packs.format`); the manifest says what the pack is (the `python` pack of
the given version, `bundled`) and what it was built from (hashes of the sources, the task file
and every output file, the embedding model), so a test can tell a stale pack from a current one
and the reader can refuse a damaged one.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np

from codeweaver_corpus.pydocs.rst import parse_tree
from codeweaver_corpus.pydocs.tasks import Task, load_tasks
from codeweaver_engine.packs.format import (
    FORMAT_VERSION,
    MANIFEST_FILE,
    TASK_VECTORS_FILE,
    TASKS_FILE,
    UNITS_FILE,
    VECTORS_FILE,
    embedding_text,
    sha256_of,
)
from codeweaver_engine.packs.units import DocUnit

Embed = Callable[[Sequence[str]], np.ndarray]


def sources_digest(root: Path) -> str:
    """One SHA-256 over every documentation source file, by path and content."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.rst.txt")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def units_digest(units: Sequence[DocUnit]) -> str:
    """One SHA-256 over the parsed units: changes when the sources or the parser change."""
    digest = hashlib.sha256()
    for unit in units:
        digest.update(json.dumps(asdict(unit), sort_keys=True).encode())
    return digest.hexdigest()


def write_index(
    *,
    docs_root: Path,
    tasks_file: Path,
    out: Path,
    embed: Embed,
    model_id: str,
    version: str,
) -> dict[str, object]:
    """Parse, embed and write the index into `out`; returns the manifest.

    Args:
        docs_root: The reST sources (`data/python-docs-3.11`).
        tasks_file: The task index (`data/python_tasks.txt`).
        out: The folder to write (created if needed).
        embed: Encodes texts to unit-length vectors (the default embedding model).
        model_id: The embedder's id, recorded so that a loader with another model re-embeds.
        version: The documentation's version, e.g. `3.11`.
    """
    units = parse_tree(docs_root)
    tasks = load_tasks(tasks_file)
    check_targets(units, tasks)
    unit_vectors = np.asarray(embed([embedding_text(u) for u in units]), dtype=np.float16)
    phrases = [phrase for task in tasks for phrase in task.phrases]
    task_vectors = np.asarray(embed(phrases), dtype=np.float16)
    files = write_pack_files(out, units, tasks, unit_vectors, task_vectors)
    manifest: dict[str, object] = {
        "format": FORMAT_VERSION,
        "name": "python",
        "version": version,
        "source": "bundled",
        "title": "Python",
        "url": f"https://docs.python.org/{version}/",
        "embedding_model": model_id,
        "dimension": int(unit_vectors.shape[1]),
        "units": len(units),
        "tasks": len(tasks),
        "phrases": len(phrases),
        "sources_sha256": sources_digest(docs_root),
        "units_sha256": units_digest(units),
        "tasks_file_sha256": sha256_of(tasks_file),
        "files": files,
    }
    (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def write_pack_files(
    out: Path,
    units: Sequence[DocUnit],
    tasks: Sequence[Task],
    unit_vectors: np.ndarray,
    task_vectors: np.ndarray,
) -> dict[str, str]:
    """Write a pack's units, tasks and vectors into `out`; returns each file's SHA-256.

    The same units, tasks and vectors give the same bytes. The manifest is the caller's: it
    says what the pack is and what it was built from.
    """
    out.mkdir(parents=True, exist_ok=True)
    with gzip.open(out / UNITS_FILE, "wt", encoding="utf-8", compresslevel=9) as handle:
        for unit in units:
            handle.write(json.dumps(asdict(unit), ensure_ascii=False) + "\n")
    # The gzip header carries a timestamp; zero it so the same input gives the same bytes.
    _zero_gzip_mtime(out / UNITS_FILE)
    np.save(out / VECTORS_FILE, np.asarray(unit_vectors, dtype=np.float16))
    (out / TASKS_FILE).write_text(
        json.dumps(
            [{"targets": list(t.targets), "phrases": list(t.phrases)} for t in tasks],
            ensure_ascii=False,
            indent=0,
        ),
        encoding="utf-8",
    )
    np.save(out / TASK_VECTORS_FILE, np.asarray(task_vectors, dtype=np.float16))
    return {
        name: sha256_of(out / name)
        for name in (UNITS_FILE, VECTORS_FILE, TASKS_FILE, TASK_VECTORS_FILE)
    }


def _zero_gzip_mtime(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[4:8] = b"\0\0\0\0"
    path.write_bytes(bytes(data))


def check_targets(units: Sequence[DocUnit], tasks: Sequence[Task]) -> None:
    """Every task target must name a unit: an API name, alias or `page:syntax`, or a section.

    See `DocUnit.target_names`; a section is `page#anchor`.

    Raises:
        ValueError: naming the targets that resolve to nothing.
    """
    names = {name for u in units if u.kind == "api" for name in u.target_names}
    sections = {f"{u.doc}#{u.anchor}" for u in units if u.kind == "section"}
    unknown = sorted(
        {t for task in tasks for t in task.targets if t not in names and t not in sections}
    )
    if unknown:
        raise ValueError(f"task targets that name no documentation unit: {', '.join(unknown)}")
