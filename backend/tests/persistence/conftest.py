"""A real PostgreSQL server for the persistence tests, started from Debian's binaries."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_USER = "codeweaver-pg"


def _pg_bin() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(Path(p).parent.parent.name),
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user(argv: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as an unprivileged user made for the purpose."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", PG_USER, "--", *argv]


def _ensure_user() -> None:
    try:
        pwd.getpwnam(PG_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_USER],
            check=True,
            capture_output=True,
        )


@pytest.fixture(scope="session")
def postgres_uri() -> Iterator[str]:
    """A connection string to a throwaway PostgreSQL cluster on a free loopback port."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL binaries absent (apt-get install postgresql; .ci/run does this)")
    root = Path(tempfile.mkdtemp(prefix="codeweaver-pg-"))
    data, log = root / "data", root / "server.log"
    if os.geteuid() == 0:
        _ensure_user()
        os.chmod(root, 0o755)
        shutil.chown(root, PG_USER)
    port = _free_port()
    subprocess.run(
        _as_server_user(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
            ]
        ),
        check=True,
        capture_output=True,
    )
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off"
    subprocess.run(
        _as_server_user(
            [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]
        ),
        check=True,
        capture_output=True,
        timeout=60,
    )
    try:
        deadline = time.monotonic() + 30
        while (
            subprocess.run(
                [str(bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                capture_output=True,
            ).returncode
            != 0
        ):
            if time.monotonic() > deadline:
                raise RuntimeError(log.read_text(errors="replace")[-2000:])
            time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)
