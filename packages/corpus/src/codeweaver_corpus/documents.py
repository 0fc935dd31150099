"""Documents a user ingests: loading files of several kinds and cutting them into chunks.

Loading turns a file into a `SourceDocument` (plain text, a title, page texts for PDFs);
chunking cuts it into `Chunk`s that never straddle a section or a page and keep code blocks
whole where they fit, so a retrieved chunk reads as a unit and cites where it came from.
"""

from __future__ import annotations

import errno
import hashlib
import logging
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from codeweaver_engine.language.words import clean_text
from codeweaver_engine.markup import html_to_text, rst_roles
from codeweaver_schema import stable_id

logger = logging.getLogger(__name__)

DocumentKind = Literal["markdown", "rst", "text", "html", "pdf", "code"]

CODE_SUFFIXES = frozenset(
    {
        ".py", ".pyi", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".java", ".kt", ".go",
        ".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".swift", ".scala",
        ".sh", ".bash", ".lua", ".r", ".sql",
    }
)  # fmt: skip
_SUFFIX_KINDS: dict[str, DocumentKind] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
}
# Folders that hold tooling, dependencies or build output, never documentation.
_SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".mypy_cache",
     ".ruff_cache", ".pytest_cache", ".tox", "dist", "build"}
)  # fmt: skip
_BINARY_SNIFF_BYTES = 8192


class DocumentError(ValueError):
    """A file cannot be read as a document (binary, unsupported kind, unreadable PDF...)."""


class FileTooLarge(DocumentError):
    """A file is larger than the limit per file it was read with."""


_NOT_REGULAR = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


@dataclass(frozen=True)
class SourceDocument:
    """One document as text, ready to chunk.

    Attributes:
        doc_id: Stable id derived from `file`: the same path always names the same document.
        file: The path as given, or relative to the ingest root, with forward slashes.
        title: The document's first heading, HTML title or PDF title, else the file name.
        text: The whole text; for PDFs, the pages joined by blank lines.
        kind: What the file was, which decides how headings and code blocks are found.
        pages: Text of each PDF page, in order; None for other kinds.
        notes: What went wrong but did not stop loading (a lossy decode, unreadable pages).
    """

    doc_id: str
    file: str
    title: str
    text: str
    kind: DocumentKind
    pages: tuple[str, ...] | None = None
    notes: tuple[str, ...] = ()

    @property
    def content_hash(self) -> str:
        """Fingerprint of what is indexed: a document with the same hash need not be re-embedded."""
        digest = hashlib.sha256()
        for part in (self.kind, self.title, self.text, *(self.pages or ())):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\x1f")
        return digest.hexdigest()[:32]


@dataclass(frozen=True)
class Chunk:
    """A retrievable piece of a document, with where it came from.

    Attributes:
        doc_id: The document's id.
        file: The document's file.
        title: The document's title.
        section: Heading path of the section the chunk belongs to (`A > B`), if any.
        page: 1-based PDF page, if the document has pages.
        chunk_index: Position of the chunk in the document, from 0.
        text: The chunk's text.
    """

    doc_id: str
    file: str
    title: str
    section: str | None
    page: int | None
    chunk_index: int
    text: str


def document_kind(path: Path) -> DocumentKind | None:
    """The kind of a file from its name, or None when it is not a document CodeWeaver reads."""
    name = path.name.lower()
    if name.endswith(".rst.txt"):
        return "rst"
    suffix = path.suffix.lower()
    if suffix in _SUFFIX_KINDS:
        return _SUFFIX_KINDS[suffix]
    if suffix in CODE_SUFFIXES:
        return "code"
    return None


def path_problem(path: Path) -> str | None:
    """Why `path` cannot be reached (a symbolic link loop, a broken link...), or None."""
    try:
        os.stat(path)
    except OSError as exc:
        return _unreachable(path, exc)
    return None


def _unreachable(path: Path, exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop"
    if exc.errno == errno.ENOENT and path.is_symlink():
        return f"a broken symbolic link (to {os.readlink(path)})"
    return f"cannot read: {exc.strerror or exc}"


def _check_regular(path: Path, info: os.stat_result, max_bytes: int | None) -> None:
    kind = _NOT_REGULAR.get(stat.S_IFMT(info.st_mode))
    if kind is not None:
        raise DocumentError(f"{path}: {kind}, not a file")
    if max_bytes is not None and info.st_size > max_bytes:
        raise FileTooLarge(
            f"{path}: {_megabytes(info.st_size)}, over the limit of {_megabytes(max_bytes)} "
            "per file"
        )


def _megabytes(size: int) -> str:
    return f"{size / 1_048_576:.1f} MB"


def read_file(path: Path, *, max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file no larger than `max_bytes`.

    Whatever else the path is (a folder, a FIFO, a device, a socket, a link that loops or leads
    nowhere) is refused without opening it for reading, so nothing can block or flood the
    caller; what was opened is checked again, in case the path changed in between.

    Raises:
        DocumentError: the path is not a regular file, or cannot be read.
        FileTooLarge: the file is larger than `max_bytes`.
    """
    try:
        _check_regular(path, os.stat(path), max_bytes)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise DocumentError(f"{path}: {_unreachable(path, exc)}") from exc
    try:
        with os.fdopen(fd, "rb") as handle:
            _check_regular(path, os.fstat(handle.fileno()), max_bytes)
            data = handle.read() if max_bytes is None else handle.read(max_bytes + 1)
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if max_bytes is not None and len(data) > max_bytes:
        raise FileTooLarge(f"{path}: grew over the limit of {_megabytes(max_bytes)} per file")
    return data


def load_document(
    path: Path, *, root: Path | None = None, max_bytes: int | None = None
) -> SourceDocument:
    """Read one file as a document.

    Args:
        path: The file.
        root: The folder the file was found under; `file` is then relative to it.
        max_bytes: Refuse files larger than this (None: no limit).

    Returns:
        The document; `notes` says when text had to be decoded lossily.

    Raises:
        DocumentError: the file is of an unsupported kind, binary, an unreadable PDF, or not
            a file at all (see `read_file`).
        FileTooLarge: the file is larger than `max_bytes`.
    """
    kind = document_kind(path)
    if kind is None:
        raise DocumentError(f"{path}: unsupported file type {path.suffix or '(none)'}")
    data = read_file(path, max_bytes=max_bytes)
    file = _display_path(path, root)
    if kind == "pdf":
        return _load_pdf(data, file)
    if b"\x00" in data[:_BINARY_SNIFF_BYTES]:
        raise DocumentError(f"{file}: looks binary (NUL bytes), not a text document")
    notes: list[str] = []
    try:
        raw = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raw = data.decode("utf-8", errors="replace")
        note = f"not valid UTF-8 (byte {exc.start}); undecodable bytes replaced with U+FFFD"
        notes.append(note)
        logger.warning("%s: %s", file, note)
    text = clean_text(raw.replace("\r\n", "\n").replace("\r", "\n"))
    title: str | None
    if kind == "html":
        title, text = html_to_text(text)
    elif kind == "rst":
        text = rst_roles(text, code=False)
        title = _first_heading(text, kind)
    elif kind == "markdown":
        title = _first_heading(text, kind)
    else:
        title = None
    return SourceDocument(
        doc_id=stable_id("doc", file),
        file=file,
        title=title or Path(file).name,
        text=text,
        kind=kind,
        notes=tuple(notes),
    )


def iter_documents(
    paths: Iterable[Path],
    *,
    errors: list[DocumentError] | None = None,
    max_bytes: int | None = None,
) -> Iterator[SourceDocument]:
    """Load every document under the given files and folders, in a stable order.

    A folder is walked recursively (tool and dependency folders skipped) and its documents'
    `file` is relative to it; a file given directly keeps its path as given.

    Args:
        paths: Files and folders.
        errors: When given, files that fail to load are recorded here and skipped; otherwise
            the first failure is raised.
        max_bytes: Files larger than this fail to load (None: no limit).

    Yields:
        The documents.

    Raises:
        DocumentError: a file failed to load and `errors` was not given.
    """
    for path in paths:
        candidates: list[tuple[Path, Path | None]]
        if path.is_dir():
            candidates = [
                (found, path)
                for found in sorted(path.rglob("*"))
                if found.is_file()
                and document_kind(found) is not None
                and not _SKIPPED_DIRS.intersection(found.relative_to(path).parts[:-1])
            ]
        else:
            candidates = [(path, None)]
        for file, root in candidates:
            try:
                yield load_document(file, root=root, max_bytes=max_bytes)
            except DocumentError as exc:
                if errors is None:
                    raise
                errors.append(exc)


def _display_path(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def _load_pdf(data: bytes, file: str) -> SourceDocument:
    from io import BytesIO

    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(BytesIO(data))
        page_count = len(reader.pages)
    except (PyPdfError, ValueError, OSError) as exc:
        raise DocumentError(f"{file}: unreadable PDF: {exc}") from exc
    pages: list[str] = []
    notes: list[str] = []
    for number in range(page_count):
        try:
            extracted = reader.pages[number].extract_text() or ""
        except (PyPdfError, ValueError, KeyError) as exc:
            # One damaged page should not cost the reader the rest of the document.
            notes.append(f"page {number + 1}: text not extractable ({exc})")
            extracted = ""
        pages.append(clean_text(extracted).strip())
    meta_title = None
    try:
        meta_title = reader.metadata.title if reader.metadata else None
    except (PyPdfError, ValueError, KeyError):
        meta_title = None
    first_line = next((line.strip() for p in pages for line in p.splitlines() if line.strip()), "")
    title = (meta_title or "").strip() or first_line[:120] or Path(file).name
    return SourceDocument(
        doc_id=stable_id("doc", file),
        file=file,
        title=title,
        text="\n\n".join(pages),
        kind="pdf",
        pages=tuple(pages),
        notes=tuple(notes),
    )


# --- reST and Markdown structure -------------------------------------------------------------

_RST_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+<>:._])\1{2,}\s*$")
_MD_ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_MD_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_RST_CODE_DIRECTIVE = re.compile(
    r"^\.\. (?:code-block|sourcecode|code|doctest|testcode|testoutput|highlight)::"
)
_PY_TOP_LEVEL = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)")
_OTHER_TOP_LEVEL = re.compile(r"^(?:export\s+)?(?:async\s+)?(?:function|func|fn|class)\s+(\w+)")


def _is_rst_heading(lines: list[str], i: int) -> bool:
    """Whether lines[i] is heading text with an adornment under it at least as long."""
    text = lines[i].rstrip()
    if not text or text[0].isspace() or i + 1 >= len(lines):
        return False
    under = lines[i + 1].rstrip()
    return bool(_RST_ADORNMENT.match(under)) and len(under) >= len(text.strip())


def _first_heading(text: str, kind: DocumentKind) -> str | None:
    for _, heading, _ in _headings(text.split("\n"), kind):
        # Sphinx titles read "module --- synopsis"; show the dash the reader would see.
        return heading.replace(" --- ", " — ")
    return None


def _headings(lines: list[str], kind: DocumentKind) -> Iterator[tuple[int, str, int]]:
    """Yield (line index, heading text, level from 1) outside code blocks."""
    if kind in ("markdown", "html"):
        yield from _markdown_headings(lines)
    elif kind in ("rst", "text"):
        yield from _rst_headings(lines)
    elif kind == "code":
        pattern = _PY_TOP_LEVEL
        for i, line in enumerate(lines):
            match = pattern.match(line) or _OTHER_TOP_LEVEL.match(line)
            if match:
                yield i, match.group(1), 1


def _markdown_headings(lines: list[str]) -> Iterator[tuple[int, str, int]]:
    fence: str | None = None
    for i, line in enumerate(lines):
        fence_match = _MD_FENCE.match(line)
        if fence_match:
            marker = fence_match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif line.strip().startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        atx = _MD_ATX.match(line)
        if atx:
            yield i, atx.group(2).strip(), len(atx.group(1))
            continue
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        # Setext headings: a paragraph line underlined with === (level 1) or --- (level 2).
        is_paragraph_line = line.strip() and not line.startswith((" ", "\t", "-", "*", ">"))
        if is_paragraph_line and (set(nxt) == {"="} or (set(nxt) == {"-"} and len(nxt) >= 3)):
            yield i, line.strip(), 1 if nxt[0] == "=" else 2


def _rst_headings(lines: list[str]) -> Iterator[tuple[int, str, int]]:
    # reST ranks heading styles by first appearance; an overline makes a different style.
    styles: list[tuple[str, bool]] = []
    i = 0
    while i < len(lines):
        if _is_rst_heading(lines, i):
            over = i > 0 and lines[i - 1].strip() == lines[i + 1].strip()
            style = (lines[i + 1].strip()[0], over)
            if style not in styles:
                styles.append(style)
            yield i, lines[i].strip(), styles.index(style) + 1
            i += 2
            continue
        i += 1


# --- chunking --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Block:
    """A paragraph or a whole code block: the unit chunks are packed from."""

    text: str
    section: str | None
    page: int | None
    is_code: bool


def chunk_document(
    doc: SourceDocument, *, max_chars: int = 1200, overlap_chars: int = 150
) -> list[Chunk]:
    """Cut a document into chunks that respect its sections, pages and code blocks.

    A chunk never spans two sections or two pages. Paragraphs and code blocks are packed
    whole while they fit; a block longer than `max_chars` is split at lines (code) or
    sentences (prose). Consecutive chunks of one section overlap by up to `overlap_chars`
    so a sentence cut at a boundary is still read whole in one of them.

    Args:
        doc: The document.
        max_chars: Upper bound of a chunk's length, overlap included.
        overlap_chars: How much of a chunk's end is repeated at the start of the next one.

    Returns:
        The chunks, numbered from 0 in document order; empty for an empty document.
    """
    if max_chars < 100:
        raise ValueError("max_chars must be at least 100")
    overlap_chars = max(0, min(overlap_chars, max_chars // 3))
    if doc.pages is not None:
        blocks = [
            block
            for number, page in enumerate(doc.pages, start=1)
            for block in _blocks(page, "text", page=number)
        ]
    else:
        blocks = _blocks(doc.text, doc.kind, page=None)
    texts: list[tuple[str, str | None, int | None]] = []
    for group in _group_by_place(blocks):
        texts.extend(
            (text, group[0].section, group[0].page)
            for text in _pack(group, max_chars, overlap_chars)
        )
    return [
        Chunk(
            doc_id=doc.doc_id,
            file=doc.file,
            title=doc.title,
            section=section,
            page=page,
            chunk_index=index,
            text=text,
        )
        for index, (text, section, page) in enumerate(texts)
    ]


def _group_by_place(blocks: list[_Block]) -> Iterator[list[_Block]]:
    group: list[_Block] = []
    for block in blocks:
        if group and (block.section, block.page) != (group[0].section, group[0].page):
            yield group
            group = []
        group.append(block)
    if group:
        yield group


def _blocks(text: str, kind: DocumentKind, *, page: int | None) -> list[_Block]:
    """Split text into paragraphs and code blocks, each tagged with its section path."""
    lines = text.split("\n")
    heading_at = {i: (heading, level) for i, heading, level in _headings(lines, kind)}
    underline_rows = {i + 1 for i in heading_at} if kind in ("rst", "text") else set()
    overline_rows = {
        i - 1
        for i in heading_at
        if kind in ("rst", "text") and i > 0 and _RST_ADORNMENT.match(lines[i - 1])
    }
    # The first heading of a prose document is its title, which every chunk already carries.
    title_row = min(heading_at) if heading_at and kind != "code" else None
    trail: list[tuple[int, int, str]] = []
    blocks: list[_Block] = []
    current: list[str] = []
    current_is_code = False

    def section() -> str | None:
        names = [name for row, _, name in trail if row != title_row]
        return " > ".join(names) if names else None

    def flush() -> None:
        nonlocal current, current_is_code
        body = "\n".join(current).strip("\n")
        if body.strip():
            blocks.append(_Block(body, section(), page, current_is_code))
        current = []
        current_is_code = False

    i = 0
    while i < len(lines):
        line = lines[i]
        if i in heading_at:
            flush()
            heading, level = heading_at[i]
            trail = [entry for entry in trail if entry[1] < level] + [(i, level, heading)]
            if kind == "code":
                current.append(line)
            i += 1
            continue
        if i in underline_rows or i in overline_rows:
            i += 1
            continue
        code_end = _code_block_end(lines, i, kind)
        if code_end is not None:
            prose_intro = (
                kind == "rst"
                and line.rstrip().endswith("::")
                and not line.lstrip().startswith("..")
            )
            if prose_intro:
                # "Example::" introduces the code that follows; keep them together.
                current.append(line)
            else:
                flush()
            body = lines[i + 1 if prose_intro else i : code_end]
            current_is_code = True
            current.extend(body)
            flush()
            i = code_end
            continue
        if not line.strip() and kind != "code":
            flush()
        else:
            current.append(line)
        i += 1
    flush()
    if kind == "code":
        return [_Block(b.text, b.section, b.page, True) for b in blocks]
    return blocks


def _code_block_end(lines: list[str], i: int, kind: DocumentKind) -> int | None:
    """If a code block starts at line i, the index just past it; else None."""
    line = lines[i]
    if kind in ("markdown", "html"):
        fence = _MD_FENCE.match(line)
        if not fence:
            return None
        marker = fence.group(1)
        for j in range(i + 1, len(lines)):
            if lines[j].strip().startswith(marker[0] * len(marker)):
                return j + 1
        return len(lines)
    if kind != "rst":
        return None
    starts_literal = line.rstrip().endswith("::") and not _is_comment_directive(line)
    if not (starts_literal or _RST_CODE_DIRECTIVE.match(line.lstrip())):
        return None
    base_indent = len(line) - len(line.lstrip())
    j = i + 1
    seen_body = False
    while j < len(lines):
        current = lines[j]
        if current.strip():
            indent = len(current) - len(current.lstrip())
            if indent <= base_indent:
                break
            seen_body = True
        j += 1
    if not seen_body:
        return None
    while j > i + 1 and not lines[j - 1].strip():
        j -= 1
    return j


def _is_comment_directive(line: str) -> bool:
    # Directives such as ".. note::" hold prose, not code; only code directives are literal.
    stripped = line.lstrip()
    return stripped.startswith("..") and not _RST_CODE_DIRECTIVE.match(stripped)


def _pack(blocks: list[_Block], max_chars: int, overlap_chars: int) -> list[str]:
    """Pack one section's blocks into chunk texts, with overlap between consecutive ones."""
    pieces: list[str] = []
    for block in blocks:
        if len(block.text) <= max_chars - overlap_chars:
            pieces.append(block.text)
        elif block.is_code:
            pieces.extend(_split_lines(block.text, max_chars - overlap_chars))
        else:
            pieces.extend(_split_prose(block.text, max_chars - overlap_chars))
    chunks: list[str] = []
    current = ""
    for piece in pieces:
        candidate = f"{current}\n\n{piece}" if current else piece
        if len(candidate) <= max_chars or not current:
            current = candidate
            continue
        chunks.append(current)
        tail = _tail(current, overlap_chars)
        current = (
            f"{tail}\n\n{piece}" if tail and len(tail) + len(piece) + 2 <= max_chars else piece
        )
    if current:
        chunks.append(current)
    return chunks


def _tail(text: str, limit: int) -> str:
    """The end of a chunk, at most `limit` characters, starting at a line or word boundary."""
    if limit <= 0:
        return ""
    tail = text[-limit:]
    if len(tail) < len(text):
        cut = tail.find("\n")
        if cut == -1 or cut > limit // 2:
            cut = tail.find(" ")
        tail = tail[cut + 1 :] if cut != -1 else tail
    return tail.strip("\n")


def _split_lines(text: str, limit: int) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.split("\n"):
        while len(line) > limit:
            # A single line longer than a chunk (minified code, a data blob) is cut hard.
            if current:
                parts.append("\n".join(current))
                current, size = [], 0
            parts.append(line[:limit])
            line = line[limit:]
        if size + len(line) + 1 > limit and current:
            parts.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        parts.append("\n".join(current))
    return [p for p in parts if p.strip()]


_SENTENCE_BREAK = re.compile(r"(?<=[.!?。？！])\s+")


def _split_prose(text: str, limit: int) -> list[str]:
    parts: list[str] = []
    current = ""
    for sentence in _SENTENCE_BREAK.split(text):
        pieces = _split_lines(sentence, limit) if len(sentence) > limit else [sentence]
        for piece in pieces:
            candidate = f"{current} {piece}" if current else piece
            if len(candidate) <= limit:
                current = candidate
            else:
                parts.append(current)
                current = piece
    if current:
        parts.append(current)
    return parts
