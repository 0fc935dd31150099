"""The index's vectors and rankings hold when onnxruntime embeds instead of sentence-transformers.

The bundled vectors were computed by sentence-transformers; a process that answers embeds its
questions with the ONNX runtime (`codeweaver_runtime.onnx_embedder`). Both must land in the same
places.
"""

from __future__ import annotations

import numpy as np
import pytest

from codeweaver_engine.packs.format import embedding_text
from codeweaver_engine.packs.index import DocsIndex
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder
from codeweaver_runtime.embeddings import SentenceTransformerEmbedder
from codeweaver_runtime.onnx_embedder import OnnxEmbedder

QUESTIONS = [
    "How do I reverse a list in Python?",
    "How do I sort a dictionary by value?",
    "make a time delay",
    "read a file line by line",
    "How can I check if a file exists?",
    "convert a string to an integer",
    "What is the difference between a tuple and a list?",
    "How do I merge two dictionaries?",
    "run a shell command and get its output",
    "parse command line arguments",
    "How do I get the current date and time?",
    "remove duplicates from a list while keeping order",
    "UnicodeDecodeError when reading a CSV file",
    "How do I use os.path.join?",
    "파이썬에서 리스트를 뒤집는 방법은?",
    "How do I undo a git commit?",
]


@pytest.fixture(scope="module")
def onnx() -> OnnxEmbedder:
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    assert isinstance(embedder, OnnxEmbedder)
    return embedder


def test_onnx_reproduces_the_shipped_unit_and_phrase_vectors(
    index: DocsIndex, onnx: OnnxEmbedder
) -> None:
    assert onnx.model_id == index.embedding_model
    sample = list(range(0, len(index), len(index) // 200))
    fresh = onnx.embed_sync([embedding_text(index.unit(i)) for i in sample])
    assert np.abs(fresh - index.vectors[sample]).max() < 5e-4
    assert np.sum(fresh * index.vectors[sample], axis=1).min() > 0.9999
    phrases = onnx.embed_sync(index.phrases[:200])
    assert np.sum(phrases * index.task_vectors[:200], axis=1).min() > 0.9999


@pytest.mark.slow
def test_questions_rank_the_same_units_in_the_same_order(
    index: DocsIndex, onnx: OnnxEmbedder
) -> None:
    library = SentenceTransformerEmbedder(DEFAULT_EMBEDDING_MODEL)
    ours, theirs = onnx.embed_sync(QUESTIONS), library.embed_sync(QUESTIONS)
    for question, mine, reference in zip(QUESTIONS, ours, theirs, strict=True):
        got = [(h.index, h.via_task) for h in index.search(mine, question, k=10)]
        expected = [(h.index, h.via_task) for h in index.search(reference, question, k=10)]
        assert got == expected, question
