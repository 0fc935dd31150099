"""What is not a readable file of a sane size is refused with the reason, never read."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from codeweaver_corpus import DocumentError, FileTooLarge, iter_documents, load_document
from codeweaver_corpus.documents import path_problem, read_file

# A FIFO opened for reading would wait for a writer for ever; the guard turns that into a failure.
pytestmark = pytest.mark.timeout(30)


def refusal(path: Path, max_bytes: int | None = None) -> str:
    with pytest.raises(DocumentError) as caught:
        read_file(path, max_bytes=max_bytes)
    return str(caught.value)


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    file = tmp_path / "a.md"
    file.write_bytes(b"# A\n")
    assert read_file(file, max_bytes=4) == b"# A\n"


def test_a_file_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    file = tmp_path / "big.txt"
    file.write_bytes(b"x" * 3_000_000)
    with pytest.raises(FileTooLarge, match=r"2\.9 MB, over the limit of 1\.0 MB per file"):
        read_file(file, max_bytes=1_048_576)
    assert read_file(file) == b"x" * 3_000_000


def test_links_that_loop_or_lead_nowhere(tmp_path: Path) -> None:
    loop = tmp_path / "loop.md"
    loop.symlink_to(loop)
    broken = tmp_path / "broken.md"
    broken.symlink_to(tmp_path / "gone.md")
    assert refusal(loop).endswith("a symbolic link loop")
    assert refusal(broken).endswith(f"a broken symbolic link (to {tmp_path / 'gone.md'})")
    assert path_problem(loop) == "a symbolic link loop"
    assert path_problem(tmp_path) is None


def test_pipes_devices_sockets_and_folders_are_not_files(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    device = tmp_path / "null.txt"
    device.symlink_to("/dev/null")
    folder = tmp_path / "folder.md"
    folder.mkdir()
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(tmp_path / "sock.md"))
        assert refusal(tmp_path / "sock.md").endswith("a socket, not a file")
    assert refusal(fifo).endswith("a named pipe (FIFO), not a file")
    assert refusal(device).endswith("a character device, not a file")
    assert refusal(folder).endswith("a folder, not a file")


def test_binary_is_skipped_and_other_encodings_are_read_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "blob.txt").write_bytes(b"PK\x03\x04\x00\x00binary")
    (tmp_path / "latin.txt").write_bytes("Caf\xe9 cr\xe8me\n".encode("latin-1"))
    (tmp_path / "big.md").write_bytes(b"# Big\n" + b"text " * 1000)
    errors: list[DocumentError] = []
    documents = list(iter_documents([tmp_path], errors=errors, max_bytes=1000))
    assert [document.file for document in documents] == ["latin.txt"]
    assert "not valid UTF-8" in documents[0].notes[0]
    assert sorted(type(error).__name__ for error in errors) == ["DocumentError", "FileTooLarge"]
    assert any("looks binary" in str(error) for error in errors)
    with pytest.raises(FileTooLarge):
        load_document(tmp_path / "big.md", max_bytes=1000)
