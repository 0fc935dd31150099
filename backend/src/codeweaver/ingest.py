"""`codeweaver ingest`: keep the local corpus in step with files and folders on disk.

Documents are named by their absolute path, so the same file is always the same document and
two folders never collide. A manifest next to the vector store remembers which files each
tenant ingested: ingesting a folder again removes the documents of files that are gone, and
unchanged files cost nothing (the corpus skips content it already holds).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from codeweaver_runtime import DocumentCorpus, DocumentError, IngestReport, iter_documents
from codeweaver_runtime.documents import document_kind

MANIFEST = "ingested.json"
# Folders of tooling, dependencies and build output: never documentation.
_SKIPPED_PARTS = frozenset(
    {"node_modules", "__pycache__", "venv", "site-packages", "dist", "build", "target"}
)


class IngestPathError(ValueError):
    """Paths that are neither files nor folders, and were never ingested either."""


@dataclass
class IngestOutcome:
    """What one `codeweaver ingest` did."""

    files: int
    report: IngestReport
    removed: int
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _is_skipped(relative: Path) -> bool:
    return any(part.startswith(".") or part in _SKIPPED_PARTS for part in relative.parts[:-1])


def document_files(path: Path) -> list[Path]:
    """The files under `path` that CodeWeaver reads, in a stable order (a file: itself)."""
    if not path.is_dir():
        return [path]
    return [
        found
        for found in sorted(path.rglob("*"))
        if found.is_file()
        and document_kind(found) is not None
        and not _is_skipped(found.relative_to(path))
    ]


class Manifest:
    """Which files a tenant ingested: doc_id -> absolute path, stored as JSON."""

    def __init__(self, path: Path, tenant: str) -> None:
        self.path = path
        self.tenant = tenant
        raw = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        self._all: dict[str, dict[str, str]] = raw if isinstance(raw, dict) else {}
        self.documents: dict[str, str] = dict(self._all.get(tenant, {}))

    def under(self, root: Path) -> dict[str, str]:
        """The ingested documents at `root` or inside it."""
        prefix = root.as_posix().rstrip("/") + "/"
        return {
            doc_id: file
            for doc_id, file in self.documents.items()
            if file == root.as_posix() or file.startswith(prefix)
        }

    def save(self) -> None:
        """Write the manifest (atomically: a crash never leaves half a file)."""
        self._all[self.tenant] = dict(sorted(self.documents.items(), key=lambda kv: kv[1]))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".tmp")
        partial.write_text(json.dumps(self._all, indent=1, ensure_ascii=False), encoding="utf-8")
        partial.replace(self.path)


def resolve_paths(paths: Sequence[Path], manifest: Manifest) -> list[Path]:
    """Absolute paths; a missing path is fine only if it was ingested before (to remove it).

    Raises:
        IngestPathError: a path does not exist and nothing was ingested from it.
    """
    resolved = [path.expanduser().resolve() for path in paths]
    missing = [
        str(given)
        for given, path in zip(paths, resolved, strict=True)
        if not path.exists() and not manifest.under(path)
    ]
    if missing:
        raise IngestPathError(
            "no such file or folder: " + ", ".join(missing) + " (give files or folders of "
            "Markdown, reST, text, HTML, PDF or source code)"
        )
    return resolved


async def ingest_paths(
    roots: Iterable[Path],
    corpus: DocumentCorpus,
    manifest: Manifest,
    *,
    on_file: Callable[[int, int], None] | None = None,
    on_chunks: Callable[[int, int], None] | None = None,
) -> IngestOutcome:
    """Bring the corpus in step with `roots` (absolute paths from `resolve_paths`).

    Args:
        roots: Files and folders; a path that no longer exists removes what it held.
        corpus: The tenant's corpus.
        manifest: What was ingested before; updated and saved.
        on_file: Called with (files read, files to read) as files load.
        on_chunks: Called with (chunks stored, chunks to store) as the corpus embeds.
    """
    roots = list(roots)
    files = [file for root in roots if root.exists() for file in document_files(root)]
    errors: list[DocumentError] = []
    documents = []
    for index, document in enumerate(iter_documents(files, errors=errors), start=1):
        documents.append(document)
        if on_file is not None:
            on_file(index + len(errors), len(files))
    present = {document.doc_id for document in documents}
    gone = {doc_id for root in roots for doc_id in manifest.under(root) if doc_id not in present}
    removed = await corpus.remove(gone) if gone else 0
    report = await corpus.ingest(documents, on_progress=on_chunks)
    for doc_id in gone:
        manifest.documents.pop(doc_id, None)
    manifest.documents.update({document.doc_id: document.file for document in documents})
    manifest.save()
    notes = [f"{document.file}: {note}" for document in documents for note in document.notes]
    return IngestOutcome(
        files=len(files),
        report=report,
        removed=removed,
        failures=[str(error) for error in errors],
        notes=notes,
    )
