"""Files only their owner may read: CodeWeaver's data directory and what it holds.

The data directory holds conversations, the answer cache, the corpus and the local server token,
so it is 0700 and its files 0600. Whoever owns a file makes it private when opening it, which
also tightens folders and files that earlier versions left 0755 and 0644: the directory itself
(`private_dir`), databases and single files (`private_file`), and stores that create files of
their own, such as embedded Qdrant, after they do (`tighten`).

Only CodeWeaver's own files are changed, never whatever else shares a folder with them, and
never a shared folder such as /tmp (sticky bit) even when the data directory is set to one.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def private_dir(path: Path) -> Path:
    """Create `path` if needed (missing parents as usual) and make it the owner's alone.

    Returns:
        The path.
    """
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    _chmod(path, PRIVATE_DIR)
    return path


def private_file(path: Path) -> Path:
    """Create `path` empty, readable by its owner only, or make an existing one so.

    A SQLite database created here keeps its journal, WAL and shared-memory files private too
    (SQLite gives them the database file's mode); ones left by an earlier version (`<name>-wal`)
    are tightened with it.

    Returns:
        The path.
    """
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), PRIVATE_FILE)
    os.close(fd)
    _chmod(path, PRIVATE_FILE)
    for companion in path.parent.glob(f"{path.name}-*"):
        _chmod(companion, PRIVATE_FILE)
    return path


def tighten(root: Path, entries: Iterable[str] | None = None) -> None:
    """Make folders 0700 and files 0600: `root` and, below it, `entries` (default: everything).

    Symbolic links are neither followed nor changed, and what may not be changed (another
    user's files) is left as it is: tightening never fails a command.

    Args:
        root: A folder.
        entries: Names of the files and folders in `root` to tighten, each folder with all it
            holds; None for everything in `root`.
    """
    if not root.is_dir() or root.is_symlink():
        return
    _chmod(root, PRIVATE_DIR)
    names = [entry.name for entry in root.iterdir()] if entries is None else list(entries)
    for name in names:
        path = root / name
        if path.is_symlink() or not path.exists():
            continue
        if not path.is_dir():
            _chmod(path, PRIVATE_FILE)
            continue
        for folder, _, files in os.walk(path, followlinks=False):
            _chmod(Path(folder), PRIVATE_DIR)
            for file in files:
                _chmod(Path(folder, file), PRIVATE_FILE)


def is_private(path: Path) -> bool:
    """True when neither group nor others have any permission on `path`."""
    return stat.S_IMODE(path.lstat().st_mode) & 0o077 == 0


def _chmod(path: Path, mode: int) -> None:
    try:
        info = path.lstat()
    except OSError:
        return
    kind = stat.S_IFMT(info.st_mode)
    # Only plain files and folders; never a shared folder such as /tmp, or the root.
    if kind not in (stat.S_IFDIR, stat.S_IFREG) or info.st_mode & stat.S_ISVTX:
        return
    if stat.S_IMODE(info.st_mode) == mode or path == Path(path.anchor):
        return
    try:
        os.chmod(path, mode)
    except OSError:
        return
