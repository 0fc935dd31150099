"""The bundled pack is what the script would build from the sources in the repository."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from codeweaver_corpus.pydocs.build import check_targets, sources_digest, units_digest
from codeweaver_corpus.pydocs.rst import parse_tree
from codeweaver_corpus.pydocs.tasks import load_tasks
from codeweaver_engine.packs import BUNDLED_PACK, DOCS_URL, DOCS_VERSION
from codeweaver_engine.packs.format import FORMAT_VERSION, MANIFEST_FILE, embedding_text, sha256_of
from codeweaver_engine.packs.index import IndexError_, read_index
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder

REPO = Path(__file__).resolve().parents[3]
DOCS = REPO / "data" / "python-docs-3.11"
TASKS = REPO / "data" / "python_tasks.txt"
STALE = "the packaged index is stale: run `uv run python scripts/build_docs_index.py`"


@pytest.fixture(scope="module")
def manifest() -> dict[str, object]:
    return dict(json.loads((BUNDLED_PACK / MANIFEST_FILE).read_text(encoding="utf-8")))


def test_built_from_the_sources_and_the_parser_in_the_repository(
    manifest: dict[str, object],
) -> None:
    assert manifest["sources_sha256"] == sources_digest(DOCS), STALE
    units = parse_tree(DOCS)
    assert manifest["units_sha256"] == units_digest(units), STALE
    assert manifest["tasks_file_sha256"] == sha256_of(TASKS), STALE
    check_targets(units, load_tasks(TASKS))


def test_the_manifest_says_which_pack_it_is(manifest: dict[str, object]) -> None:
    assert manifest["format"] == FORMAT_VERSION, STALE
    pack = read_index(BUNDLED_PACK).pack
    assert (pack.name, pack.version, pack.source, pack.title) == (
        "python",
        DOCS_VERSION,
        "bundled",
        "Python",
    )
    assert pack.url == DOCS_URL


def test_every_file_matches_its_hash_and_a_damaged_one_is_refused(tmp_path: Path) -> None:
    index = read_index(BUNDLED_PACK)
    assert len(index) > 10_000
    for source in BUNDLED_PACK.iterdir():
        (tmp_path / source.name).write_bytes(source.read_bytes())
    vectors = np.load(tmp_path / "unit_vectors.npy")
    vectors[0, 0] += 1
    np.save(tmp_path / "unit_vectors.npy", vectors)
    with pytest.raises(IndexError_, match="damaged"):
        read_index(tmp_path)


def test_the_vectors_are_the_default_models_vectors_of_the_units() -> None:
    index = read_index(BUNDLED_PACK)
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    assert index.embedding_model == embedder.model_id
    sample = list(range(0, len(index), len(index) // 12))
    fresh = embedder.embed_sync([embedding_text(index.unit(i)) for i in sample])
    shipped = index.vectors[sample]
    cosines = np.sum(fresh * shipped, axis=1)
    assert cosines.min() > 0.999, cosines
    phrases = embedder.embed_sync(index.phrases[:20])
    assert np.sum(phrases * index.task_vectors[:20], axis=1).min() > 0.999
