"""CodeWeaver's documents: the user's ingested files and the bundled Python documentation.

`documents` loads and chunks files, `store` keeps the chunks in Qdrant and searches them,
`retrieval_eval` measures that search; `pydocs` is the prebuilt Python 3.11 documentation.

The names below load on first use: importing `codeweaver_corpus.pydocs` (the offline engine, a
CLI that only forwards to a server) does not import the Qdrant client or the file readers.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codeweaver_corpus.documents import (
        Chunk,
        DocumentError,
        FileTooLarge,
        SourceDocument,
        chunk_document,
        iter_documents,
        load_document,
    )
    from codeweaver_corpus.retrieval_eval import RetrievalReport, evaluate_retrieval
    from codeweaver_corpus.store import CorpusError, DocumentCorpus, IngestReport

_HOMES = {
    "documents": (
        "Chunk",
        "DocumentError",
        "FileTooLarge",
        "SourceDocument",
        "chunk_document",
        "iter_documents",
        "load_document",
    ),
    "retrieval_eval": ("RetrievalReport", "evaluate_retrieval"),
    "store": ("CorpusError", "DocumentCorpus", "IngestReport"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'codeweaver_corpus' has no attribute {name!r}")
    value = getattr(import_module(f"codeweaver_corpus.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "Chunk",
    "CorpusError",
    "DocumentCorpus",
    "DocumentError",
    "FileTooLarge",
    "IngestReport",
    "RetrievalReport",
    "SourceDocument",
    "chunk_document",
    "evaluate_retrieval",
    "iter_documents",
    "load_document",
]
