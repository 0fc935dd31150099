"""The data directory and its files are their owner's alone, earlier installs included."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from codeweaver_runtime import is_private, open_qdrant, private_dir, private_file, tighten
from codeweaver_runtime.qdrant import EmbeddedQdrant


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_a_new_data_directory_is_private(tmp_path: Path) -> None:
    home = private_dir(tmp_path / "share" / "codeweaver")
    assert mode(home) == 0o700
    database = private_file(home / "threads.sqlite")
    assert mode(database) == 0o600
    assert database.read_bytes() == b""


def test_an_earlier_install_is_tightened(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    os.chmod(home, 0o755)
    database = home / "threads.sqlite"
    database.write_bytes(b"data")
    (home / "threads.sqlite-wal").write_bytes(b"wal")
    for file in home.iterdir():
        os.chmod(file, 0o644)
    private_file(database)
    assert [mode(home), mode(database), mode(home / "threads.sqlite-wal")] == [0o700, 0o600, 0o600]
    assert database.read_bytes() == b"data"


def test_only_the_named_entries_are_tightened(tmp_path: Path) -> None:
    (tmp_path / "store" / "collection").mkdir(parents=True)
    (tmp_path / "store" / "collection" / "storage.sqlite").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("someone else's", encoding="utf-8")
    os.chmod(tmp_path / "notes.txt", 0o644)
    (tmp_path / "link").symlink_to(tmp_path / "notes.txt")
    tighten(tmp_path, ["store", "link"])
    assert mode(tmp_path / "store" / "collection") == 0o700
    assert mode(tmp_path / "store" / "collection" / "storage.sqlite") == 0o600
    # Neither a file it was not given nor one it reaches through a link.
    assert mode(tmp_path / "notes.txt") == 0o644


def test_a_shared_folder_is_never_changed(tmp_path: Path) -> None:
    shared = tmp_path / "tmp"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    private_dir(shared)
    assert mode(shared) == 0o1777


async def test_embedded_qdrant_keeps_its_files_private(tmp_path: Path) -> None:
    from qdrant_client import models

    folder = tmp_path / "qdrant"
    client = open_qdrant(str(folder))
    # `open_qdrant` types the facade as the client it imitates; a folder must get the facade.
    opened: object = client
    assert isinstance(opened, EmbeddedQdrant)
    try:
        await client.create_collection(
            "answers", vectors_config=models.VectorParams(size=4, distance=models.Distance.COSINE)
        )
    finally:
        await client.close()
    written = [folder, *folder.rglob("*")]
    assert any(path.name == "storage.sqlite" for path in written)
    assert [path for path in written if not is_private(path)] == []
