"""The installed packs on disk, as the engine finds them: `<data dir>/packs/<folder>/`.

`codeweaver ingest --python` (`codeweaver_corpus.packs`) writes one folder per library and
embedding model under the data directory's `packs/` and puts a new pack in place with a rename,
so a change of the packs in use is a change of that folder's entries. Reading the folder's own
modification time tells whether anything changed since the last look: one `stat` per question,
which is why a server picks up a pack ingested while it runs without a restart and without
rereading manifests for every question.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from codeweaver_engine.packs.format import MANIFEST_FILE, Pack

PACKS_FOLDER = "packs"
"""The installed packs' folder under the data directory (`$CODEWEAVER_HOME/packs`)."""


@dataclass(frozen=True)
class Listed:
    """One pack folder under the packs folder, as its manifest says.

    Attributes:
        folder: The pack's folder.
        name: The distribution it documents (`pandas`).
        version: The version it documents (`3.1.1`).
        source: `installed` (read from an interpreter) or `ingested`.
        embedding_model: The model its vectors come from.
        import_names: The top-level names the library is imported by (`bs4`).
        interpreter: The interpreter it was read from, when it says.
        changed: The manifest's modification time (ns): a rebuilt pack is another pack.
    """

    folder: Path
    name: str
    version: str
    source: str
    embedding_model: str
    import_names: tuple[str, ...]
    interpreter: str | None
    changed: int

    @property
    def pack(self) -> Pack:
        """What the pack is, as a search of it says (`Pack`)."""
        return Pack(
            name=self.name,
            version=self.version,
            source=self.source,
            title=self.name,
            url=None,
            embedding_model=self.embedding_model,
            import_names=self.import_names,
        )


def packs_folder(data_dir: Path) -> Path:
    """Where installed packs live under a data directory."""
    return data_dir / PACKS_FOLDER


def _read(folder: Path) -> Listed | None:
    manifest_path = folder / MANIFEST_FILE
    try:
        changed = manifest_path.stat().st_mtime_ns
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or not manifest.get("name"):
        return None
    interpreter = manifest.get("interpreter")
    return Listed(
        folder=folder,
        name=str(manifest["name"]),
        version=str(manifest.get("version") or ""),
        source=str(manifest.get("source") or "installed"),
        embedding_model=str(manifest.get("embedding_model") or ""),
        import_names=tuple(str(n) for n in manifest.get("import_names") or ()),
        interpreter=str(interpreter.get("path")) if isinstance(interpreter, dict) else None,
        changed=changed,
    )


def _entries(root: Path) -> Iterator[Path]:
    try:
        with os.scandir(root) as found:
            for entry in found:
                if not entry.name.startswith(".") and entry.is_dir():
                    yield Path(entry.path)
    except OSError:
        return


class Catalog:
    """The packs under one packs folder, reread only when the folder changed.

    Thread-safe; `listed` costs one `stat` when nothing changed since the last call.
    """

    def __init__(self, root: Path) -> None:
        """Watch `root` (`$CODEWEAVER_HOME/packs`); it need not exist yet."""
        self.root = root
        self._lock = threading.Lock()
        self._seen: int | None = None
        self._listed: tuple[Listed, ...] = ()

    def _modified(self) -> int:
        try:
            return self.root.stat().st_mtime_ns
        except OSError:
            return -1

    def listed(self, embedding_model: str | None = None) -> tuple[Listed, ...]:
        """The packs there now, by folder name; only those of `embedding_model` when given."""
        modified = self._modified()
        with self._lock:
            if modified != self._seen:
                found = (_read(folder) for folder in sorted(_entries(self.root)))
                self._listed = tuple(p for p in found if p is not None)
                self._seen = modified
            listed = self._listed
        if embedding_model is None:
            return listed
        return tuple(p for p in listed if p.embedding_model == embedding_model)

    def stamp(self, embedding_model: str | None = None) -> str:
        """A digest of the packs there (of one model, when given); `none` when there are none.

        It changes when a pack is added, rebuilt or removed.
        """
        listed = self.listed(embedding_model)
        if not listed:
            return "none"
        digest = hashlib.sha256()
        for pack in listed:
            digest.update(f"{pack.folder.name}\0{pack.version}\0{pack.changed}\n".encode())
        return digest.hexdigest()[:12]


_CATALOGS: dict[Path, Catalog] = {}
_CATALOGS_LOCK = threading.Lock()


def catalog(root: Path) -> Catalog:
    """The one catalog of a packs folder in this process."""
    with _CATALOGS_LOCK:
        found = _CATALOGS.get(root)
        if found is None:
            found = _CATALOGS[root] = Catalog(root)
        return found
