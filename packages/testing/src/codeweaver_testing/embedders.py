"""Embedders for tests: instant hashed vectors, and a wrapper that a test subclasses to observe."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from codeweaver_engine.language.words import words
from codeweaver_runtime.embeddings import Embedder, Vectors


class HashEmbedder:
    """Bag-of-words vectors hashed into 256 dimensions: deterministic, instant, no model."""

    model_id = "hash-256"
    dimension = 256

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        """Encode texts in this thread."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in words(text):
                h = int(hashlib.md5(word.encode()).hexdigest()[:8], 16)
                out[row, h % self.dimension] += 1.0
            norm = np.linalg.norm(out[row])
            if norm:
                out[row] /= norm
        return out

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Encode texts (instantly, so no thread is needed)."""
        return self.embed_sync(texts)


class DelegatingEmbedder:
    """An embedder that hands every call to `inner`.

    A subclass overrides the call it observes or slows: to time embedding, or to act out a
    cold model load.
    """

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner

    @property
    def model_id(self) -> str:
        """The inner embedder's id."""
        return self.inner.model_id

    @property
    def dimension(self) -> int:
        """The inner embedder's dimension."""
        return self.inner.dimension

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        """The inner embedder's vectors, encoded in this thread."""
        return self.inner.embed_sync(texts)

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """The inner embedder's vectors, encoded without blocking the event loop."""
        return await self.inner.embed(texts)
