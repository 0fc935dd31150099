from __future__ import annotations

from pathlib import Path

import pytest

from codeweaver_corpus.documents import (
    DocumentError,
    SourceDocument,
    chunk_document,
    iter_documents,
    load_document,
)


def _pdf(pages: list[str]) -> bytes:
    """A minimal valid PDF with one line of Helvetica text per page."""
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, filled in once page ids are known
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    kids: list[int] = []
    for text in pages:
        stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        content_id = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content_id
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


RST = """\
.. _intro:

:mod:`shelve` --- Python object persistence
===========================================

The :mod:`shelve` module stores objects. See :func:`~os.path.join` and
:ref:`the guide <pickle-guide>`.

Restrictions
------------

Example::

   import shelve

   with shelve.open("spam") as db:
       db["eggs"] = 1

Details
^^^^^^^

Nested text under restrictions.

Usage
-----

Plain usage words.
"""


def test_rst_sections_titles_and_roles(tmp_path: Path) -> None:
    path = tmp_path / "library" / "shelve.rst.txt"
    path.parent.mkdir()
    path.write_text(RST, encoding="utf-8")
    doc = load_document(path, root=tmp_path)
    assert doc.kind == "rst"
    assert doc.file == "library/shelve.rst.txt"
    assert doc.title == "shelve — Python object persistence"
    assert "See join() and" in doc.text
    assert "the guide" in doc.text
    assert "pickle-guide" not in doc.text
    chunks = chunk_document(doc)
    assert [c.section for c in chunks] == [
        None,
        "Restrictions",
        "Restrictions > Details",
        "Usage",
    ]
    assert [c.chunk_index for c in chunks] == [0, 1, 2, 3]
    # The code block stays whole and stays with the sentence that introduces it.
    assert "Example::" in chunks[1].text
    assert 'db["eggs"] = 1' in chunks[1].text
    assert all(c.doc_id == doc.doc_id and c.title == doc.title for c in chunks)


def test_markdown_code_fence_is_not_split_and_hash_lines_in_code_are_not_headings() -> None:
    code = "\n".join(f"# step {i}\nvalue_{i} = compute({i})" for i in range(12))
    text = (
        f"# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n```python\n{code}\n```\n\n## Use\n\nDone."
    )
    doc = SourceDocument("d", "guide.md", "Guide", text, "markdown")
    chunks = chunk_document(doc, max_chars=600, overlap_chars=50)
    sections = {c.section for c in chunks}
    assert sections == {None, "Install", "Use"}
    with_code = [c for c in chunks if "```python" in c.text]
    assert len(with_code) == 1
    assert with_code[0].text.count("value_") == 12


def test_long_section_is_split_with_overlap_and_bounded() -> None:
    sentences = " ".join(f"Sentence number {i} talks about lists and tuples." for i in range(120))
    doc = SourceDocument("d", "long.md", "Long", f"# Long\n\n## Part\n\n{sentences}", "markdown")
    chunks = chunk_document(doc, max_chars=500, overlap_chars=100)
    assert len(chunks) > 5
    assert all(len(c.text) <= 500 for c in chunks)
    assert all(c.section == "Part" for c in chunks)
    # Consecutive chunks share text: the end of one starts the next.
    assert chunks[0].text[-40:] in chunks[1].text


def test_oversized_code_block_is_split_at_lines() -> None:
    code = "\n".join(f"line_{i} = {i}" for i in range(300))
    doc = SourceDocument("d", "big.md", "Big", f"```\n{code}\n```", "markdown")
    chunks = chunk_document(doc, max_chars=400, overlap_chars=0)
    assert len(chunks) > 3
    assert all(len(c.text) <= 400 for c in chunks)
    assert all(not c.text.startswith("ne_") for c in chunks)


def test_pdf_pages_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    path.write_bytes(_pdf(["Installing the tool", "Configuring the cache"]))
    doc = load_document(path)
    assert doc.kind == "pdf"
    assert doc.pages is not None
    assert len(doc.pages) == 2
    chunks = chunk_document(doc)
    assert [(c.page, c.text) for c in chunks] == [
        (1, "Installing the tool"),
        (2, "Configuring the cache"),
    ]
    assert doc.title == "Installing the tool"


def test_utf8_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes("\ufeff# Café notes\n\nnaïve résumé\r\nline two\n".encode())
    doc = load_document(path)
    assert doc.title == "Café notes"
    assert "naïve résumé\nline two" in doc.text
    assert doc.notes == ()


def test_invalid_utf8_is_replaced_and_noted(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes("caf\u00e9 cr\u00e8me\n".encode("latin-1"))
    doc = load_document(path)
    assert doc.text.startswith("caf\ufffd cr\ufffdme")
    assert len(doc.notes) == 1
    assert "not valid UTF-8" in doc.notes[0]


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "unreadable PDF"),
        ("image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        ("archive.zip", b"PK", "unsupported"),
    ],
)
def test_unreadable_files_are_document_errors(
    tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(DocumentError, match=message):
        load_document(path)


def test_empty_file_has_no_chunks(tmp_path: Path) -> None:
    path = tmp_path / "empty.md"
    path.write_text("", encoding="utf-8")
    doc = load_document(path)
    assert doc.text == ""
    assert doc.title == "empty.md"
    assert chunk_document(doc) == []


def test_html_to_text_keeps_headings_code_and_drops_scripts(tmp_path: Path) -> None:
    html = """<html><head><title>Sorting HOW TO</title><style>p{}</style></head>
    <body><script>alert('x')</script><h1>Sorting</h1><p>Use <code>sorted()</code>
    &amp; friends.</p><h2>Key functions</h2><pre>
# a comment, not a heading
sorted(words, key=str.lower)
</pre><ul><li>first</li><li>second</li></ul></body></html>"""
    path = tmp_path / "sorting.html"
    path.write_text(html, encoding="utf-8")
    doc = load_document(path)
    assert doc.kind == "html"
    assert doc.title == "Sorting HOW TO"
    assert "alert" not in doc.text
    assert "p{}" not in doc.text
    assert "Use `sorted()` & friends." in doc.text
    chunks = chunk_document(doc)
    key_chunk = next(c for c in chunks if c.section == "Key functions")
    assert "# a comment, not a heading\nsorted(words, key=str.lower)" in key_chunk.text
    assert "- first" in key_chunk.text


def test_korean_document(tmp_path: Path) -> None:
    path = tmp_path / "리스트.md"
    path.write_text(
        "# 파이썬 리스트\n\n리스트는 변경 가능한 시퀀스입니다.\n\n"
        "## 뒤집기\n\n`reverse()` 메서드는 리스트를 제자리에서 뒤집습니다.\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert doc.title == "파이썬 리스트"
    chunks = chunk_document(doc)
    assert [c.section for c in chunks] == [None, "뒤집기"]
    assert "제자리에서 뒤집습니다" in chunks[1].text


def test_code_file_sections_are_top_level_definitions(tmp_path: Path) -> None:
    path = tmp_path / "pkg" / "util.py"
    path.parent.mkdir()
    path.write_text(
        "import os\n\n\ndef join_all(parts):\n    return os.path.join(*parts)\n\n\n"
        "class Box:\n    def open(self):\n        return 1\n",
        encoding="utf-8",
    )
    doc = load_document(path, root=tmp_path)
    assert doc.kind == "code"
    assert doc.file == "pkg/util.py"
    chunks = chunk_document(doc)
    assert [c.section for c in chunks] == [None, "join_all", "Box"]
    assert chunks[2].text.startswith("class Box:")


def test_iter_documents_walks_folders_and_collects_errors(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\ntext", encoding="utf-8")
    (tmp_path / "docs" / "b.rst").write_text("B\n=\n\ntext", encoding="utf-8")
    (tmp_path / "docs" / "bad.txt").write_bytes(b"\x00\x01")
    (tmp_path / "docs" / "image.png").write_bytes(b"\x89PNG")
    (tmp_path / "docs" / "node_modules").mkdir()
    (tmp_path / "docs" / "node_modules" / "c.md").write_text("skip", encoding="utf-8")
    errors: list[DocumentError] = []
    docs = list(iter_documents([tmp_path / "docs"], errors=errors))
    assert [d.file for d in docs] == ["a.md", "b.rst"]
    assert len(errors) == 1
    assert "bad.txt" in str(errors[0])
    with pytest.raises(DocumentError):
        list(iter_documents([tmp_path / "docs"]))


def test_doc_id_is_stable_and_hash_follows_content(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("# A\n\none", encoding="utf-8")
    first = load_document(path, root=tmp_path)
    path.write_text("# A\n\ntwo", encoding="utf-8")
    second = load_document(path, root=tmp_path)
    assert first.doc_id == second.doc_id
    assert first.content_hash != second.content_hash


def test_indented_code_directive_keeps_blank_lines_inside_one_block() -> None:
    text = (
        "Title\n=====\n\n.. function:: spam(eggs)\n\n   Cook the eggs.\n\n"
        "   .. code-block:: python\n\n      spam(1)\n\n      spam(2)\n\n   After the example.\n"
    )
    doc = SourceDocument("d", "spam.rst", "Title", text, "rst")
    blocks = chunk_document(doc, max_chars=100, overlap_chars=0)
    with_code = [c.text for c in blocks if "spam(1)" in c.text]
    assert len(with_code) == 1
    assert "spam(2)" in with_code[0]
