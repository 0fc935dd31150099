"""A full disk is one line naming where, not a traceback (186 lines on `ingest`, 137 on `ask`).

The commands run on a real file system that fills up: a small tmpfs mounted in a mount namespace
of their own (`unshare`), so nothing on the machine fills and nothing outlives the command. The
classifier is checked on real failures too: ENOSPC from /dev/full, SQLite's own "database or
disk is full", and an I/O error judged by the free space a test passes in.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from codeweaver.cli.console import LOW_SPACE_BYTES, out_of_space

pytestmark = pytest.mark.slow


def _unshare() -> list[str]:
    """The command that runs a shell in a private mount namespace where it may mount a tmpfs."""
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux) to mount a small file system privately")
    mapping = [] if os.getuid() == 0 else ["--user", "--map-root-user"]
    command = ["unshare", *mapping, "--mount", "--propagation", "private"]
    probe = subprocess.run([*command, "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a mount namespace here: {probe.stderr.decode().strip()}")
    return command


def on_a_small_disk(
    disk: Path, size: str, args: list[str], *, fill: bool = False
) -> subprocess.CompletedProcess[str]:
    """`codeweaver ARGS` with `CODEWEAVER_HOME` on a tmpfs of `size` at `disk` (full if `fill`)."""
    disk.mkdir(exist_ok=True)
    home = disk / "home"
    script = (
        'mount -t tmpfs -o size="$1" tmpfs "$2" && mkdir -m 700 "$2/home" || exit 99\n'
        'if [ "$3" = fill ]; then cat /dev/zero > "$2/filler" 2>/dev/null; fi\n'
        "shift 3\n"
        'exec "$@"\n'
    )
    env = {
        **os.environ,
        "CODEWEAVER_HOME": str(home),
        "CODEWEAVER_CHAT_MODEL": "offline",
        "HF_HUB_OFFLINE": "1",
    }
    done = subprocess.run(
        [
            *_unshare(),
            "sh",
            "-c",
            script,
            "sh",
            size,
            str(disk),
            "fill" if fill else "-",
            sys.executable,
            "-m",
            "codeweaver",
            *args,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode != 99, done.stderr
    return done


def _one_line_naming(stderr: str, home: Path) -> None:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr[-3000:]
    assert lines[0].startswith(f"No space left on the disk of {home}"), lines
    assert "CODEWEAVER_HOME" in lines[0]


def test_ingest_onto_a_disk_that_fills_says_so_in_one_line(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(5):
        paragraphs = (
            f"Paragraph {j} of note {i} about spinning frobnicators. " * 20 for j in range(30)
        )
        (docs / f"note{i}.md").write_text(f"# Note {i}\n\n" + "\n\n".join(paragraphs))
    done = on_a_small_disk(tmp_path / "disk", "200k", ["ingest", str(docs)])
    assert done.returncode == 1, done.stderr[-3000:]
    _one_line_naming(done.stderr, tmp_path / "disk" / "home")


def test_ask_on_a_full_disk_says_so_in_one_line(tmp_path: Path) -> None:
    done = on_a_small_disk(
        tmp_path / "disk", "1m", ["ask", "How do I reverse a list in Python?"], fill=True
    )
    assert done.returncode == 1, done.stderr[-3000:]
    _one_line_naming(done.stderr, tmp_path / "disk" / "home")
    assert done.stdout == ""


def test_a_write_the_kernel_refuses_for_space_names_its_folder(tmp_path: Path) -> None:
    full = Path("/dev/full")
    if not full.exists():
        pytest.skip("/dev/full is Linux's")
    with pytest.raises(OSError, match="No space") as raised, full.open("wb", buffering=0) as device:
        device.write(b"x")
    assert raised.value.errno == errno.ENOSPC
    wrapped = RuntimeError("the store failed")
    wrapped.__cause__ = raised.value
    assert out_of_space(wrapped, tmp_path) == tmp_path
    named = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "qdrant" / "x"))
    assert out_of_space(named, Path("/elsewhere")) == tmp_path / "qdrant"


def test_sqlite_out_of_room_is_a_full_disk(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "small.sqlite") as db:
        db.execute("PRAGMA max_page_count = 2")
        db.execute("CREATE TABLE t (x BLOB)")
        with pytest.raises(sqlite3.OperationalError) as raised:
            db.execute("INSERT INTO t VALUES (?)", (b"x" * 100_000,))
    assert "database or disk is full" in str(raised.value)
    assert out_of_space(raised.value, tmp_path) == tmp_path


def test_an_io_error_counts_only_when_the_disk_is_nearly_full(tmp_path: Path) -> None:
    failure = sqlite3.OperationalError("disk I/O error")
    assert out_of_space(failure, tmp_path, free=lambda _: 4096) == tmp_path
    assert out_of_space(failure, tmp_path, free=lambda _: LOW_SPACE_BYTES * 10) is None
    # Other failures are not about space, whatever the disk holds.
    assert out_of_space(ValueError("bad"), tmp_path, free=lambda _: 0) is None
    assert out_of_space(PermissionError(errno.EACCES, "no"), tmp_path, free=lambda _: 0) is None
