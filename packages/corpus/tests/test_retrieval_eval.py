from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from qdrant_client import AsyncQdrantClient

from codeweaver_corpus.retrieval_eval import eval_document_paths, evaluate_retrieval
from codeweaver_corpus.store import DocumentCorpus
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder, open_qdrant

DATA = Path(__file__).resolve().parents[3] / "data"
DOC_FILES = [
    "library/copy.rst.txt",
    "library/atexit.rst.txt",
    "library/tabnanny.rst.txt",
    "library/pydoc.rst.txt",
    "library/gc.rst.txt",
    "library/msvcrt.rst.txt",
    "library/termios.rst.txt",
    "library/fcntl.rst.txt",
    "faq/library.rst.txt",
]
ROW_IDS = {
    "faq/design#013",  # gc
    "faq/design#015",  # atexit
    "faq/library#004",  # atexit
    "faq/library#007",  # pydoc
    "faq/library#008",  # fcntl, termios
    "faq/programming#015",  # copy
    "faq/windows#006",  # tabnanny
    "faq/windows#007",  # msvcrt
    "faq/extending#010",  # linked only to faq/: skipped
    "faq/design#000",  # no linked files: skipped
}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    for name in DOC_FILES:
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA / "python-docs-3.11" / name, target)
    (root / "tools.py").write_text("print('not ingested')\n", encoding="utf-8")
    return root


@pytest.fixture
def questions(tmp_path: Path) -> Path:
    rows = [
        line
        for line in (DATA / "python_faq_qa.jsonl").read_text(encoding="utf-8").splitlines()
        if json.loads(line)["id"] in ROW_IDS
    ]
    assert len(rows) == len(ROW_IDS)
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture
async def client() -> AsyncIterator[AsyncQdrantClient]:
    qdrant = open_qdrant(":memory:")
    yield qdrant
    await qdrant.close()


def test_protocol_ingests_text_files_outside_faq(docs: Path) -> None:
    files = [p.relative_to(docs).as_posix() for p in eval_document_paths(docs)]
    assert files == sorted(f for f in DOC_FILES if not f.startswith("faq/"))


async def test_small_retrieval_eval(docs: Path, questions: Path, client: AsyncQdrantClient) -> None:
    corpus = DocumentCorpus(client, get_embedder(DEFAULT_EMBEDDING_MODEL), collection="eval")
    report = await evaluate_retrieval(questions, docs, corpus=corpus)
    assert (report.n, report.skipped, report.documents) == (8, 2, 8)
    assert report.recall[10] >= 0.85
    assert report.recall[1] <= report.recall[5] <= report.recall[10]
    assert 0 < report.mrr <= 1
    assert all(len(q.retrieved) == 10 for q in report.questions)
    assert report.ingest.added == 8
    assert report.chunks == report.ingest.chunks_added
    figures = json.loads(report.to_json())
    assert list(figures)[:5] == ["n", "recall@1", "recall@5", "recall@10", "mrr"]

    # An unchanged folder embeds nothing; a deleted file leaves the corpus.
    again = await evaluate_retrieval(questions, docs, corpus=corpus)
    assert (again.ingest.unchanged, again.ingest.chunks_added) == (8, 0)
    assert again.recall == report.recall
    (docs / "library" / "copy.rst.txt").unlink()
    smaller = await evaluate_retrieval(questions, docs, corpus=corpus)
    assert (smaller.removed_documents, smaller.documents) == (1, 7)
    copy_row = next(q for q in smaller.questions if q.id == "faq/programming#015")
    assert copy_row.first_hit is None
