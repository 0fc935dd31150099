"""`$CODEWEAVER_HOME` is private: 0700, and every file CodeWeaver keeps in it 0600."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from codeweaver.persistence import open_checkpointer, secure_data_dir
from codeweaver.server.auth import ensure_local_token
from codeweaver_runtime import is_private


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


async def test_the_cli_threads_database_is_private(tmp_path: Path) -> None:
    home = tmp_path / "home"
    async with open_checkpointer(home):
        # Open, in WAL mode: the database, its write-ahead log and its shared memory.
        written = [home, *home.iterdir()]
        assert {path.name for path in written} >= {"home", "threads.sqlite", "threads.sqlite-wal"}
        assert [path for path in written if not is_private(path)] == []


def test_an_install_of_an_earlier_version_is_tightened(tmp_path: Path) -> None:
    home = tmp_path / "home"
    store = home / "qdrant" / "collection" / "codeweaver_docs"
    store.mkdir(parents=True)
    for name in ("threads.sqlite", "threads.sqlite-wal", "server-token", "ingested.json"):
        (home / name).write_text("x" * 40, encoding="utf-8")
    (home / "qdrant" / "meta.json").write_text("{}", encoding="utf-8")
    (store / "storage.sqlite").write_bytes(b"")
    (home / "notes.txt").write_text("not ours", encoding="utf-8")
    for path in (home, *home.rglob("*")):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)

    secure_data_dir(home)
    ours = [path for path in (home, *home.rglob("*")) if path.name != "notes.txt"]
    assert [path for path in ours if not is_private(path)] == []
    assert mode(home) == 0o700
    assert mode(store / "storage.sqlite") == 0o600
    assert mode(home / "notes.txt") == 0o644


def test_an_existing_local_token_is_tightened(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    token = home / "server-token"
    token.write_text("t" * 43 + "\n", encoding="utf-8")
    os.chmod(home, 0o755)
    os.chmod(token, 0o644)
    assert ensure_local_token(home) == "t" * 43
    assert (mode(home), mode(token)) == (0o700, 0o600)
