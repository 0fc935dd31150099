"""Retrieval evaluation: recall@k of gold documents on real questions.

The protocol (issue 3): ingest every `*.rst.txt`, `*.md` and `*.txt` file under a docs folder
except its `faq/` folder, ask each question row through the local-corpus search, and count a
hit when a retrieved chunk's file (relative to the docs folder) is one of the row's
`linked_doc_files`. Rows whose linked files all lie in `faq/` (or that have none) are skipped,
since their gold documents are not in the corpus.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from codeweaver_corpus.documents import SourceDocument, load_document
from codeweaver_corpus.store import DocumentCorpus, IngestReport
from codeweaver_schema import LocalMeta

_EVAL_SUFFIXES = (".rst.txt", ".md", ".txt")
_EXCLUDED_DIR = "faq"


@dataclass(frozen=True)
class QuestionResult:
    """How one question fared.

    Attributes:
        id: The row's id (or its line number when it has none).
        question: The question asked.
        gold: The gold files that are in the corpus.
        first_hit: 0-based rank of the first chunk from a gold file, None if none was retrieved.
        retrieved: Files of the retrieved chunks, in rank order.
    """

    id: str
    question: str
    gold: tuple[str, ...]
    first_hit: int | None
    retrieved: tuple[str, ...]


@dataclass(frozen=True)
class RetrievalReport:
    """Recall@k and MRR of one evaluation run.

    Attributes:
        n: Questions asked.
        recall: k -> share of questions with a gold file among the first k chunks.
        mrr: Mean reciprocal rank of the first gold chunk (0 when none in the deepest k).
        skipped: Rows without a gold file outside `faq/`.
        documents: Documents in the corpus for this run.
        chunks: Chunks in the corpus for this run.
        ingest: What ingestion did (all unchanged when the folder had not changed).
        removed_documents: Documents dropped from the corpus because their file is gone.
        query_seconds: Wall time of all searches.
        settings: Retrieval settings in force, for the record.
        questions: Per-question results.
    """

    n: int
    recall: dict[int, float]
    mrr: float
    skipped: int
    documents: int
    chunks: int
    ingest: IngestReport
    removed_documents: int
    query_seconds: float
    settings: dict[str, str | int | float]
    questions: tuple[QuestionResult, ...] = field(repr=False)

    def to_json(self, *, include_questions: bool = False) -> str:
        """The report as a JSON object with `n`, `recall@k` keys and `mrr` first."""
        payload: dict[str, object] = {"n": self.n}
        payload.update({f"recall@{k}": round(v, 4) for k, v in sorted(self.recall.items())})
        payload["mrr"] = round(self.mrr, 4)
        payload.update(
            skipped=self.skipped,
            documents=self.documents,
            chunks=self.chunks,
            ingest=asdict(self.ingest),
            removed_documents=self.removed_documents,
            query_seconds=round(self.query_seconds, 3),
            settings=self.settings,
        )
        if include_questions:
            payload["questions"] = [asdict(q) for q in self.questions]
        return json.dumps(payload, indent=2, ensure_ascii=False)


def eval_document_paths(docs: Path) -> list[Path]:
    """The files the protocol ingests from a docs folder, in a stable order."""
    return [
        path
        for path in sorted(docs.rglob("*"))
        if path.is_file()
        and path.name.endswith(_EVAL_SUFFIXES)
        and _EXCLUDED_DIR not in path.relative_to(docs).parts[:-1]
    ]


def _gold_rows(questions: Path) -> tuple[list[tuple[str, str, tuple[str, ...]]], int]:
    rows: list[tuple[str, str, tuple[str, ...]]] = []
    skipped = 0
    with questions.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            row = json.loads(line)
            linked = row.get("linked_doc_files") or []
            gold = tuple(f for f in linked if _EXCLUDED_DIR not in Path(f).parts[:-1])
            if not gold:
                skipped += 1
                continue
            rows.append((str(row.get("id", number)), str(row["question"]), gold))
    return rows, skipped


async def evaluate_retrieval(
    questions: Path,
    docs: Path,
    *,
    corpus: DocumentCorpus,
    ks: Sequence[int] = (1, 5, 10),
) -> RetrievalReport:
    """Run the retrieval evaluation of issue 3.

    The corpus is brought in line with the folder: changed files are re-ingested, unchanged
    ones skipped (so a second run over the same folder embeds nothing), and documents whose
    files are gone are removed. Give it a corpus of its own (collection or tenant), since
    removal would otherwise delete other documents.

    Args:
        questions: JSONL file with `question` and `linked_doc_files` per row.
        docs: The documentation folder the linked files are relative to.
        corpus: Where to ingest and search.
        ks: Cut-offs to report recall at; the deepest one bounds MRR.

    Returns:
        The report.
    """
    if not ks or min(ks) <= 0:
        raise ValueError("ks must hold positive cut-offs")
    loaded: list[SourceDocument] = [load_document(p, root=docs) for p in eval_document_paths(docs)]
    ingest = await corpus.ingest(loaded)
    current = {doc.doc_id for doc in loaded}
    removed = await corpus.remove(set(await corpus.documents()) - current)
    rows, skipped = _gold_rows(questions)
    depth = max(ks)
    results: list[QuestionResult] = []
    started = time.perf_counter()
    for row_id, question, gold in rows:
        hits = await corpus.search(question, k=depth, neighbours=False)
        files = tuple(hit.meta.file for hit in hits if isinstance(hit.meta, LocalMeta))
        first = next((rank for rank, file in enumerate(files) if file in gold), None)
        results.append(QuestionResult(row_id, question, gold, first, files))
    query_seconds = time.perf_counter() - started
    n = len(results)
    recall = {
        k: sum(1 for r in results if r.first_hit is not None and r.first_hit < k) / n if n else 0.0
        for k in sorted(set(ks))
    }
    mrr = sum(1 / (r.first_hit + 1) for r in results if r.first_hit is not None) / n if n else 0.0
    return RetrievalReport(
        n=n,
        recall=recall,
        mrr=mrr,
        skipped=skipped,
        documents=len(current),
        chunks=await corpus.count(),
        ingest=ingest,
        removed_documents=removed,
        query_seconds=query_seconds,
        settings=corpus.settings(),
        questions=tuple(results),
    )
