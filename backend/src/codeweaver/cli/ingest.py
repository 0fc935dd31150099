"""`codeweaver ingest`: keep the local corpus in step with files and folders on disk.

Documents are named by their absolute path, so the same file is always the same document and
two folders never collide. A manifest next to the vector store remembers which files each
tenant ingested: ingesting a folder again removes the documents of files that are gone, and
unchanged files cost nothing (the corpus skips content it already holds).

A run can be killed at any point and leave nothing behind: the manifest names every document
before it is stored, the corpus commits a document only once all its chunks are in, and each
run also asks the store which documents it holds under the folders given, so even documents a
run of an earlier version stored without a manifest entry are found and removed when their
files are gone. Files larger than a limit (`DEFAULT_MAX_FILE_MB`) are skipped with a note, as is
anything that is not a readable file: links that loop or lead nowhere, pipes, devices, folders
that cannot be listed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from codeweaver.cli.defaults import DEFAULT_MAX_FILE_MB
from codeweaver_corpus import (
    DocumentCorpus,
    DocumentError,
    FileTooLarge,
    IngestReport,
    iter_documents,
)
from codeweaver_corpus.documents import document_kind, path_problem
from codeweaver_runtime import private_dir, private_file

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
    too_large: int = 0
    """How many of the failures are files over the size limit."""


def _is_skipped(folder: str) -> bool:
    return folder.startswith(".") or folder in _SKIPPED_PARTS


def document_files(path: Path, failures: list[str] | None = None) -> list[Path]:
    """The files under `path` that CodeWeaver reads, in a stable order (a file: itself).

    Links to folders are not followed (no loops, nothing outside the folder); links to files
    are listed like files, and fail to load if they loop or lead nowhere.

    Args:
        path: A file or a folder.
        failures: Where folders that cannot be listed are recorded; they are skipped.
    """
    if not path.is_dir():
        return [path]

    def unlisted(exc: OSError) -> None:
        if failures is not None:
            failures.append(f"{exc.filename}: cannot list the folder: {exc.strerror or exc}")

    found: list[Path] = []
    for folder, folders, files in os.walk(path, onerror=unlisted):
        folders[:] = sorted(name for name in folders if not _is_skipped(name))
        found.extend(
            Path(folder, name) for name in sorted(files) if document_kind(Path(name)) is not None
        )
    return found


def _within(file: str, root: Path) -> bool:
    prefix = root.as_posix().rstrip("/") + "/"
    return file == root.as_posix() or file.startswith(prefix)


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
        return {doc_id: file for doc_id, file in self.documents.items() if _within(file, root)}

    def save(self) -> None:
        """Write the manifest, readable by its owner only, atomically (never half a file)."""
        self._all[self.tenant] = dict(sorted(self.documents.items(), key=lambda kv: kv[1]))
        private_dir(self.path.parent)
        partial = private_file(self.path.with_suffix(".tmp"))
        partial.write_text(json.dumps(self._all, indent=1, ensure_ascii=False), encoding="utf-8")
        partial.replace(self.path)


def resolve_paths(paths: Sequence[Path], manifest: Manifest) -> tuple[list[Path], list[str]]:
    """Absolute paths to ingest, and the paths skipped, each with the reason.

    A path that no longer exists is kept when it was ingested before (its documents are
    removed); a symbolic link that loops or leads nowhere is skipped.

    Raises:
        IngestPathError: a path does not exist and nothing was ingested from it.
    """
    roots: list[Path] = []
    skipped: list[str] = []
    missing: list[str] = []
    for given in paths:
        # realpath, unlike Path.resolve on Python 3.11, does not raise on a symbolic link loop.
        path = Path(os.path.realpath(given.expanduser()))
        if path.exists() or manifest.under(path):
            roots.append(path)
        elif given.is_symlink():
            skipped.append(f"{given}: {path_problem(given) or 'cannot be reached'}")
        else:
            missing.append(str(given))
    if missing:
        raise IngestPathError(
            "no such file or folder: " + ", ".join(missing) + " (give files or folders of "
            "Markdown, reST, text, HTML, PDF or source code)"
        )
    return roots, skipped


async def ingest_paths(
    roots: Iterable[Path],
    corpus: DocumentCorpus,
    manifest: Manifest,
    *,
    max_file_bytes: int | None = int(DEFAULT_MAX_FILE_MB * 1_048_576),
    on_file: Callable[[int, int], None] | None = None,
    on_chunks: Callable[[int, int], None] | None = None,
) -> IngestOutcome:
    """Bring the corpus in step with `roots` (absolute paths from `resolve_paths`).

    Args:
        roots: Files and folders; a path that no longer exists removes what it held.
        corpus: The tenant's corpus.
        manifest: What was ingested before; updated and saved as the run goes.
        max_file_bytes: Skip files larger than this (None: no limit).
        on_file: Called with (files read, files to read) as files load.
        on_chunks: Called with (chunks stored, chunks to store) as the corpus embeds.
    """
    roots = list(roots)
    failures: list[str] = []
    files = [file for root in roots if root.exists() for file in document_files(root, failures)]
    errors: list[DocumentError] = []
    documents = []
    loaded = iter_documents(files, errors=errors, max_bytes=max_file_bytes)
    for index, document in enumerate(loaded, start=1):
        documents.append(document)
        if on_file is not None:
            on_file(index + len(errors), len(files))
    present = {document.doc_id for document in documents}
    # What the store holds under the roots, besides what the manifest says it should.
    known = {**await corpus.stored_files(), **manifest.documents}
    gone = {
        doc_id
        for doc_id, file in known.items()
        if doc_id not in present and any(_within(file, root) for root in roots)
    }
    # Written ahead: every document this run may store is in the manifest before it is stored.
    manifest.documents.update({document.doc_id: document.file for document in documents})
    manifest.save()
    removed = await corpus.remove(gone) if gone else 0
    for doc_id in gone:
        manifest.documents.pop(doc_id, None)
    manifest.save()
    report = await corpus.ingest(documents, on_progress=on_chunks)
    notes = [f"{document.file}: {note}" for document in documents for note in document.notes]
    return IngestOutcome(
        files=len(files),
        report=report,
        removed=removed,
        failures=failures + [str(error) for error in errors],
        notes=notes,
        too_large=sum(isinstance(error, FileTooLarge) for error in errors),
    )
