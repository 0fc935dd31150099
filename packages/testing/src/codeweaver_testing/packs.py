"""Small documentation packs written in tests: a few units of a made-up or real library.

A pack written here has the format `codeweaver_engine.packs.format` describes and that
`codeweaver ingest --python` writes (`$CODEWEAVER_HOME/packs/<dist>-<version>-<model>/`), so
the engine reads it exactly as it reads an installed library's pack.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np

from codeweaver_engine.libraries import unnamed_phrase
from codeweaver_engine.packs.format import (
    FORMAT_VERSION,
    MANIFEST_FILE,
    TASK_VECTORS_FILE,
    TASKS_FILE,
    UNITS_FILE,
    VECTORS_FILE,
    Pack,
    embedding_text,
    sha256_of,
)
from codeweaver_engine.packs.units import DocUnit
from codeweaver_runtime.embeddings import Embedder


def api_unit(
    name: str,
    signature: str,
    text: str,
    *,
    examples: Sequence[str] = (),
    directive: str = "function",
    aliases: Sequence[str] = (),
) -> DocUnit:
    """An API unit as an installed library's pack holds it (`pandas.DataFrame.dropna`)."""
    module = name.rsplit(".", 1)[0]
    body = text + "".join(f"\n\n```\n{example}\n```" for example in examples)
    return DocUnit(
        kind="api",
        doc=module.replace(".", "/"),
        doc_title=module,
        section=name,
        anchor="",
        name=name,
        directive=directive,
        signatures=[signature],
        text=body,
        examples=list(examples),
        module=module.split(".")[0],
        aliases=list(aliases),
    )


def write_test_pack(
    packs_folder: Path,
    name: str,
    version: str,
    units: Sequence[DocUnit],
    embedder: Embedder,
    *,
    tasks: Sequence[tuple[Sequence[str], Sequence[str]]] = (),
    import_names: Sequence[str] = (),
    interpreter: str | None = None,
) -> Path:
    """Write an installed pack under `packs_folder`; returns its folder.

    Task phrasings are embedded as `codeweaver ingest --python` embeds them: without the
    library's names (`libraries.unnamed_phrase`).

    Args:
        packs_folder: `$CODEWEAVER_HOME/packs`.
        name: The distribution (`pandas`).
        version: Its version.
        units: Its units.
        embedder: Embeds the units and task phrasings; its model names the folder.
        tasks: (targets, phrasings) pairs: the task index.
        import_names: The library's top-level import names (default: `name`).
        interpreter: The interpreter it says it was read from.
    """
    slug = "".join(c if c.isalnum() else "-" for c in embedder.model_id.lower()).strip("-")
    folder = packs_folder / f"{name.lower()}-{version}-{slug}"
    folder.mkdir(parents=True, exist_ok=True)
    with gzip.open(folder / UNITS_FILE, "wt", encoding="utf-8") as handle:
        for unit in units:
            handle.write(json.dumps(asdict(unit)) + "\n")
    vectors = embedder.embed_sync([embedding_text(u) for u in units])
    np.save(folder / VECTORS_FILE, np.asarray(vectors, dtype=np.float32))
    (folder / TASKS_FILE).write_text(
        json.dumps([{"targets": list(t), "phrases": list(p)} for t, p in tasks]),
        encoding="utf-8",
    )
    imports = tuple(import_names or [name.lower()])
    pack = Pack(name, version, "installed", name, None, embedder.model_id, imports)
    phrases = [unnamed_phrase(phrase, pack) for _, task_phrases in tasks for phrase in task_phrases]
    task_vectors = (
        np.asarray(embedder.embed_sync(phrases), dtype=np.float32)
        if phrases
        else np.zeros((0, vectors.shape[1]), dtype=np.float32)
    )
    np.save(folder / TASK_VECTORS_FILE, task_vectors)
    files = {
        file: sha256_of(folder / file)
        for file in (UNITS_FILE, VECTORS_FILE, TASKS_FILE, TASK_VECTORS_FILE)
    }
    manifest = {
        "format": FORMAT_VERSION,
        "name": name,
        "version": version,
        "source": "installed",
        "title": name,
        "url": None,
        "embedding_model": embedder.model_id,
        "import_names": list(imports),
        "interpreter": {"path": interpreter} if interpreter else None,
        "units": len(units),
        "files": files,
    }
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return folder
