"""`codeweaver ingest` killed mid-folder leaves nothing orphaned; every bad path is a clean skip."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeweaver.cli.ingest import Manifest, ingest_paths
from codeweaver.cli.main import app
from codeweaver.persistence import MANIFEST
from codeweaver_corpus import DocumentCorpus, load_document
from codeweaver_runtime import is_private, open_qdrant
from codeweaver_testing import HashEmbedder

runner = CliRunner()

# The real `ingest_paths` in a process of its own, whose embedder kills that process (SIGKILL:
# no clean-up of any kind) when the corpus asks it to embed the third document.
KILLED_MID_FOLDER = """
import asyncio, os, signal, sys
from pathlib import Path
from codeweaver.cli.ingest import Manifest, ingest_paths
from codeweaver.persistence import MANIFEST
from codeweaver_corpus import DocumentCorpus
from codeweaver_runtime import open_qdrant
from codeweaver_testing import HashEmbedder

class DiesOnTheThirdDocument(HashEmbedder):
    embedded = 0

    async def embed(self, texts):
        DiesOnTheThirdDocument.embedded += 1
        if DiesOnTheThirdDocument.embedded == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        return self.embed_sync(texts)

async def main(home, folder):
    corpus = DocumentCorpus(open_qdrant(str(home / "qdrant")), DiesOnTheThirdDocument())
    await ingest_paths([folder], corpus, Manifest(home / MANIFEST, "default"))

asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
"""

# Walk and load a folder as ingest does, printing what loaded and what was skipped.
WALK_AND_LOAD = """
import json, sys
from pathlib import Path
from codeweaver.cli.ingest import document_files
from codeweaver_corpus import iter_documents

failures, errors = [], []
documents = iter_documents(document_files(Path(sys.argv[1]), failures), errors=errors)
print(json.dumps({
    "documents": [Path(document.file).name for document in documents],
    "failures": failures + [str(error) for error in errors],
}))
"""


def folder_of(tmp_path: Path, names: Sequence[str]) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in names:
        (folder / name).write_text(f"# {name}\n\nAbout {name}.\n", encoding="utf-8")
    return folder


async def store_and_manifest(home: Path) -> tuple[dict[str, str], dict[str, str]]:
    client = open_qdrant(str(home / "qdrant"))
    try:
        stored = await DocumentCorpus(client, HashEmbedder()).stored_files()
    finally:
        await client.close()
    return stored, Manifest(home / MANIFEST, "default").documents


def orphaned(stored: dict[str, str], listed: dict[str, str]) -> set[str]:
    """Stored documents the manifest does not list, or whose file is gone."""
    return {
        doc_id for doc_id, file in stored.items() if doc_id not in listed or not Path(file).exists()
    }


async def test_a_run_killed_mid_folder_leaves_nothing_orphaned(tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = folder_of(tmp_path, ["a.md", "b.md", "c.md", "d.md", "e.md"])
    killed = await asyncio.create_subprocess_exec(
        sys.executable, "-c", KILLED_MID_FOLDER, str(home), str(folder)
    )
    assert await killed.wait() == -signal.SIGKILL
    stored, listed = await store_and_manifest(home)
    print(f"\nafter the kill: {len(stored)} stored, {len(listed)} in the manifest")
    assert sorted(Path(file).name for file in stored.values()) == ["a.md", "b.md"]
    assert set(stored) <= set(listed)

    # A document stored before the kill, whose file is then deleted, goes on the next run.
    (folder / "a.md").unlink()
    client = open_qdrant(str(home / "qdrant"))
    try:
        corpus = DocumentCorpus(client, HashEmbedder())
        outcome = await ingest_paths([folder], corpus, Manifest(home / MANIFEST, "default"))
    finally:
        await client.close()
    stored, listed = await store_and_manifest(home)
    left = orphaned(stored, listed)
    print(
        f"after the next ingest: {len(stored)} stored, {len(listed)} listed, {len(left)} orphaned"
    )
    assert outcome.removed == 1
    assert left == set()
    assert stored == listed
    assert sorted(Path(file).name for file in stored.values()) == ["b.md", "c.md", "d.md", "e.md"]


async def test_documents_no_manifest_knows_are_found_in_the_store(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, ["a.md", "b.md"])
    client = open_qdrant(":memory:")
    try:
        corpus = DocumentCorpus(client, HashEmbedder())
        # As a killed run of an earlier version left them: stored, and in no manifest.
        await corpus.ingest([load_document(folder / "a.md"), load_document(folder / "b.md")])
        (folder / "a.md").unlink()
        manifest = Manifest(tmp_path / MANIFEST, "default")
        outcome = await ingest_paths([folder], corpus, manifest)
        stored = await corpus.stored_files()
    finally:
        await client.close()
    assert outcome.removed == 1
    assert (
        stored
        == manifest.documents
        == {load_document(folder / "b.md").doc_id: str(folder / "b.md")}
    )


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_every_bad_path_is_a_clean_skip(tmp_path: Path) -> None:
    home = tmp_path / "home"
    docs = folder_of(tmp_path, ["good.md"])
    (docs / "latin.txt").write_bytes("Caf\xe9 cr\xe8me\n".encode("latin-1"))
    (docs / "blob.txt").write_bytes(b"PK\x03\x04\x00\x00 binary")
    (docs / "big.txt").write_text("word " * 60_000, encoding="utf-8")
    (docs / "loop.md").symlink_to(docs / "loop.md")
    (docs / "broken.md").symlink_to(docs / "gone.md")
    os.mkfifo(docs / "pipe.md")
    (docs / "null.txt").symlink_to("/dev/null")
    (docs / "up").symlink_to(docs)  # a link to a folder is not followed: no loop
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    broken = tmp_path / "broken.md"
    broken.symlink_to(tmp_path / "nowhere.md")
    fifo = tmp_path / "fifo.md"
    os.mkfifo(fifo)

    result = runner.invoke(
        app,
        ["ingest", str(docs), str(loop), str(broken), str(fifo),
         "--max-file-mb", "0.1", "--data-dir", str(home)],
    )  # fmt: skip
    output = " ".join(result.output.split())
    assert result.exit_code == 0, output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for skipped in (
        f"{loop}: a symbolic link loop",
        f"{broken}: a broken symbolic link (to {tmp_path / 'nowhere.md'})",
        f"{fifo}: a named pipe (FIFO), not a file",
        f"{docs / 'loop.md'}: a symbolic link loop",
        f"{docs / 'broken.md'}: a broken symbolic link",
        f"{docs / 'pipe.md'}: a named pipe (FIFO), not a file",
        f"{docs / 'null.txt'}: a character device, not a file",
        f"{docs / 'blob.txt'}: looks binary",
        f"{docs / 'big.txt'}: 0.3 MB, over the limit of 0.1 MB per file",
    ):
        assert f"skipped {skipped}" in output, skipped
    assert "1 file(s) over 0.1 MB skipped; raise the limit with --max-file-mb" in output
    assert f"note {docs / 'latin.txt'}: not valid UTF-8" in output
    assert "2 added" in output
    assert "Traceback" not in output
    manifest = json.loads((home / MANIFEST).read_text(encoding="utf-8"))["default"]
    assert sorted(Path(file).name for file in manifest.values()) == ["good.md", "latin.txt"]
    # The data directory, the manifest and the store are the owner's alone.
    assert [path for path in (home, *home.rglob("*")) if not is_private(path)] == []


def test_unreadable_files_and_folders_are_skipped(tmp_path: Path) -> None:
    docs = folder_of(tmp_path, ["readable.md", "secret.md"])
    (docs / "locked").mkdir()
    (docs / "locked" / "inside.md").write_text("# Inside\n", encoding="utf-8")
    command = [sys.executable, "-c", WALK_AND_LOAD, str(docs)]
    if os.geteuid() == 0:
        # Root reads everything: run without the capabilities that let it, like any user.
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: permissions cannot apply")
        command = [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--", *command]
    os.chmod(docs / "secret.md", 0)
    os.chmod(docs / "locked", 0)
    try:
        walked = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    finally:
        os.chmod(docs / "locked", 0o700)
        os.chmod(docs / "secret.md", 0o600)
    found = json.loads(walked.stdout)
    assert found["documents"] == ["readable.md"]
    assert sorted(found["failures"]) == [
        f"{docs / 'locked'}: cannot list the folder: Permission denied",
        f"{docs / 'secret.md'}: cannot read: Permission denied",
    ]
