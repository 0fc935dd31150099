"""Installed packs on disk: `$CODEWEAVER_HOME/packs/<dist>-<version>-<model>/`, and the list.

A pack folder has the bundled index's files (`pydocs.build.write_pack_files`) and a manifest
that says what it is (`name`, `version`, `source: installed`, `import_names`, the interpreter
it was read from), what built it (embedding model, extractor version, the task file's hash,
when) and what went wrong (`failures`, `missing_targets`: task targets the installed version
lacks). A pack is written into a temporary folder beside its place and renamed into it, so a
reader sees the old pack or the new one, never half of either; an interrupted build leaves a
`.building-*` folder that the next build removes.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from codeweaver_corpus.packs.environment import normalized
from codeweaver_corpus.pydocs.build import write_pack_files
from codeweaver_corpus.pydocs.tasks import Task
from codeweaver_engine.packs import BUNDLED_PACK, DOCS_VERSION
from codeweaver_engine.packs.format import (
    FORMAT_VERSION,
    MANIFEST_FILE,
    TASK_VECTORS_FILE,
    VECTORS_FILE,
    sha256_of,
)
from codeweaver_engine.packs.units import DocUnit

PACKS_FOLDER = "packs"
EMBEDDED_FILE = "embedded.json.gz"
"""The texts a pack's vectors encode, in order (`units`, `phrases`): a later build of the same
library with the same model takes the vector of a text it has already embedded from here."""
_BUILDING = ".building-"
_REPLACED = ".replaced-"


class NoSpaceLeft(OSError):
    """The disk under the packs folder is full; the message says where."""


@dataclass(frozen=True)
class StoredPack:
    """One pack as `codeweaver packs` lists it.

    Attributes:
        name: The distribution it documents (`python` for the bundled documentation).
        version: The version it documents.
        source: `bundled`, `installed` or `ingested`.
        units: How many units it holds (documents, for ingested ones).
        built_at: When it was built (ISO 8601), if known.
        path: Its folder (or the data file, for ingested documents).
        embedding_model: The model its vectors come from.
        failures: How many things could not be read while building it.
    """

    name: str
    version: str
    source: str
    units: int
    built_at: str | None
    path: str
    embedding_model: str = ""
    failures: int = 0

    def as_json(self) -> dict[str, Any]:
        """The pack as JSON-ready data."""
        return {
            "name": self.name,
            "version": self.version,
            "source": self.source,
            "units": self.units,
            "built_at": self.built_at,
            "path": self.path,
            "embedding_model": self.embedding_model,
            "failures": self.failures,
        }


def packs_root(home: Path) -> Path:
    """Where installed packs live under a data directory."""
    return home / PACKS_FOLDER


def model_slug(model_id: str) -> str:
    """A model id as a folder name's part (`all-MiniLM-L6-v2@st6` -> `all-minilm-l6-v2-st6`)."""
    return re.sub(r"[^a-z0-9]+", "-", model_id.lower()).strip("-")


def pack_folder(home: Path, name: str, version: str, model_id: str) -> Path:
    """The folder of a distribution's pack at a version, for an embedding model."""
    version_part = re.sub(r"[^A-Za-z0-9.+]+", "-", version)
    return packs_root(home) / f"{normalized(name)}-{version_part}-{model_slug(model_id)}"


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """A pack's manifest, or None when there is no readable one."""
    try:
        data = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_current(folder: Path, expected: Mapping[str, Any]) -> bool:
    """Whether the pack in `folder` was built from what `expected` says, and is whole.

    `expected` holds the manifest fields a rebuild would change (`name`, `version`,
    `embedding_model`, `extractor_version`, `tasks_file_sha256`, `format`).
    """
    manifest = read_manifest(folder)
    if manifest is None:
        return False
    if any(manifest.get(key) != value for key, value in expected.items()):
        return False
    files = manifest.get("files")
    return isinstance(files, dict) and all((folder / name).is_file() for name in files)


def write_pack(
    folder: Path,
    units: Sequence[DocUnit],
    tasks: Sequence[Task],
    unit_vectors: np.ndarray,
    task_vectors: np.ndarray,
    manifest: Mapping[str, Any],
    *,
    embedded: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """Write a pack into `folder` atomically (replacing what is there); returns its manifest.

    `embedded` (the texts of the unit vectors and of the phrase vectors, `units` and `phrases`)
    is kept beside them (`EMBEDDED_FILE`) for the next build to reuse (`known_vectors`).

    Raises:
        NoSpaceLeft: the disk is full (nothing is left behind).
    """
    root = folder.parent
    root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f"{_BUILDING}{folder.name}-", dir=root))
    try:
        files = write_pack_files(building, units, tasks, unit_vectors, task_vectors)
        if embedded is not None:
            payload = {"units": list(embedded["units"]), "phrases": list(embedded["phrases"])}
            # mtime=0: the same texts give the same bytes.
            with gzip.GzipFile(building / EMBEDDED_FILE, "wb", mtime=0) as handle:
                handle.write(json.dumps(payload, ensure_ascii=False).encode("utf-8"))
            files[EMBEDDED_FILE] = sha256_of(building / EMBEDDED_FILE)
        written = {
            "format": FORMAT_VERSION,
            **manifest,
            "dimension": int(unit_vectors.shape[1]) if unit_vectors.ndim == 2 else 0,
            "units": len(units),
            "tasks": len(tasks),
            "phrases": sum(len(task.phrases) for task in tasks),
            "files": files,
        }
        (building / MANIFEST_FILE).write_text(
            json.dumps(written, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        _replace(building, folder)
    except OSError as exc:
        shutil.rmtree(building, ignore_errors=True)
        if exc.errno == errno.ENOSPC:
            raise NoSpaceLeft(errno.ENOSPC, f"no space left on the disk of {root}") from exc
        raise
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return written


def _replace(new: Path, folder: Path) -> None:
    """Put `new` at `folder`: two renames, so `folder` is always a whole pack or absent."""
    if not folder.exists():
        new.rename(folder)
        return
    old = folder.with_name(f"{_REPLACED}{folder.name}-{os.getpid()}")
    folder.rename(old)
    new.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def remove_leftovers(home: Path) -> None:
    """Remove what interrupted builds left (`.building-*`, `.replaced-*`)."""
    root = packs_root(home)
    if not root.is_dir():
        return
    for entry in root.iterdir():
        if entry.name.startswith((_BUILDING, _REPLACED)) and entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)


def remove_superseded(home: Path, current: Path, manifest: Mapping[str, Any]) -> list[Path]:
    """Remove the other packs of a distribution read from the same interpreter.

    They are of another version or embedding model: the library was upgraded, and the old
    pack answers about an API that is no longer installed there. Packs read from other
    interpreters (another project's environment) stay. Returns the folders removed.
    """
    removed = []
    interpreter = (manifest.get("interpreter") or {}).get("path")
    for folder, other in installed_packs(home):
        if folder == current or other.get("source") != "installed":
            continue
        same = normalized(str(other.get("name", ""))) == normalized(str(manifest["name"]))
        if same and (other.get("interpreter") or {}).get("path") == interpreter:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def known_vectors(home: Path, name: str, model_id: str) -> dict[str, np.ndarray]:
    """The vectors a distribution's packs already hold, by the text they encode.

    Every pack of the distribution built with `model_id` (any version, any interpreter) that
    kept its texts (`EMBEDDED_FILE`): an upgraded library, a rebuild after CodeWeaver's reader
    changed, or `--force` embeds only the texts no earlier build embedded. A pack that cannot be
    read is passed over (it is rebuilt, not trusted).
    """
    known: dict[str, np.ndarray] = {}
    for folder, manifest in installed_packs(home):
        if (
            manifest.get("source") != "installed"
            or normalized(str(manifest.get("name", ""))) != normalized(name)
            or manifest.get("embedding_model") != model_id
            or EMBEDDED_FILE not in (manifest.get("files") or {})
        ):
            continue
        try:
            if sha256_of(folder / EMBEDDED_FILE) != manifest["files"][EMBEDDED_FILE]:
                continue
            with gzip.open(folder / EMBEDDED_FILE, "rt", encoding="utf-8") as handle:
                texts = json.load(handle)
            for key, vectors_file in (("units", VECTORS_FILE), ("phrases", TASK_VECTORS_FILE)):
                vectors = np.load(folder / vectors_file)
                if vectors.ndim != 2 or len(vectors) != len(texts[key]):
                    continue
                known.update(zip(texts[key], vectors, strict=True))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return known


def installed_packs(home: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every installed pack folder under `home` with its manifest, by name."""
    root = packs_root(home)
    if not root.is_dir():
        return
    for folder in sorted(root.iterdir()):
        if folder.name.startswith(".") or not folder.is_dir():
            continue
        manifest = read_manifest(folder)
        if manifest is not None:
            yield folder, manifest


def bundled_pack() -> StoredPack:
    """The Python documentation shipped with CodeWeaver."""
    manifest = read_manifest(BUNDLED_PACK) or {}
    return StoredPack(
        name=str(manifest.get("name") or "python"),
        version=str(manifest.get("version") or DOCS_VERSION),
        source=str(manifest.get("source") or "bundled"),
        units=int(manifest.get("units") or 0),
        built_at=manifest.get("built_at"),
        path=str(BUNDLED_PACK),
        embedding_model=str(manifest.get("embedding_model") or ""),
    )


def list_packs(home: Path) -> list[StoredPack]:
    """The bundled pack and the installed packs under `home`, by name and version."""
    packs = [bundled_pack()]
    for folder, manifest in installed_packs(home):
        packs.append(
            StoredPack(
                name=str(manifest.get("name") or folder.name),
                version=str(manifest.get("version") or ""),
                source=str(manifest.get("source") or "installed"),
                units=int(manifest.get("units") or 0),
                built_at=manifest.get("built_at"),
                path=str(folder),
                embedding_model=str(manifest.get("embedding_model") or ""),
                failures=len(manifest.get("failures") or ()),
            )
        )
    return packs
