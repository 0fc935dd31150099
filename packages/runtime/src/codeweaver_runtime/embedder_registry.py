"""Which embedder serves a model name: one per process, on onnxruntime or sentence-transformers.

The implementations (`embeddings.SentenceTransformerEmbedder`, `onnx_embedder.OnnxEmbedder`)
know nothing of each other; this module chooses between them.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from codeweaver_runtime.embeddings import (
    PACKAGED_NAMES,
    EmbeddingError,
    MemoisedEmbedder,
    SentenceTransformerEmbedder,
    resolve_model_path,
)

RUNTIME_ENV = "CODEWEAVER_EMBEDDING_RUNTIME"
"""`sentence-transformers` makes the default model run as it did before (the baseline)."""

PACKAGED_MODEL_ID = "all-MiniLM-L6-v2@st6"
"""The id of the packaged model's vectors: those sentence-transformers 6 computes, which the
bundled corpus holds and the ONNX runtime reproduces (tested)."""

_EMBEDDERS: dict[str, MemoisedEmbedder] = {}
_EMBEDDERS_LOCK = threading.Lock()


def uses_onnx(name: str) -> bool:
    """Whether `get_embedder(name)` runs on onnxruntime.

    It does for the packaged model, unless `CODEWEAVER_EMBEDDING_RUNTIME=sentence-transformers`
    asks for the library (the design before, kept as the benchmark's baseline).
    """
    if name.lower() not in PACKAGED_NAMES:
        return False
    runtime = os.environ.get(RUNTIME_ENV, "onnx").strip().lower()
    if runtime not in ("onnx", "sentence-transformers"):
        raise EmbeddingError(f"{RUNTIME_ENV} must be 'onnx' or 'sentence-transformers'")
    return runtime == "onnx"


def get_embedder(name: str) -> MemoisedEmbedder:
    """The process-wide embedder for a model name (loaded lazily, on first use).

    The packaged all-MiniLM-L6-v2 runs on onnxruntime (`codeweaver_runtime.onnx_embedder`);
    every other model on sentence-transformers.
    """
    with _EMBEDDERS_LOCK:
        if name not in _EMBEDDERS:
            if uses_onnx(name):
                from codeweaver_runtime.onnx_embedder import OnnxEmbedder

                _EMBEDDERS[name] = OnnxEmbedder(
                    name, Path(resolve_model_path(name)), model_id=PACKAGED_MODEL_ID
                )
            else:
                _EMBEDDERS[name] = SentenceTransformerEmbedder(name)
        return _EMBEDDERS[name]
