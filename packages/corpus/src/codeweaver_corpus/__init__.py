"""CodeWeaver's documents: the user's ingested files and the bundled Python documentation.

`documents` loads and chunks files, `store` keeps the chunks in Qdrant and searches them,
`retrieval_eval` measures that search; `pydocs` is the prebuilt Python 3.11 documentation.
"""

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
