"""The version of answers: a digest of everything that can change what the offline engine says.

A cached answer is served only to a run of the same version (the answer cache's scope,
`cache_corpus_version`). The version digests every file of the packages whose code or data
decide an answer (the engine with its data, and the corpus package, which builds the packs and
reads the user's documents) and the manifest of every pack in use, which holds the hashes of
the pack's units, vectors and task index. Any edit (a word of the Korean vocabulary, a ranking
constant, a string the user reads, a rebuilt pack) makes another version, so an upgraded install
never serves an answer the new release would not give: the old entries are invisible, not
deleted. The installed packs are part of it too: once a library is ingested, upgraded or
removed, the answers cached with the packs of before are not served (`packs.catalog`).
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Sequence
from pathlib import Path

from codeweaver_engine.packs import BUNDLED_PACK
from codeweaver_engine.packs.catalog import catalog, packs_folder
from codeweaver_engine.packs.format import MANIFEST_FILE
from codeweaver_runtime.context import default_data_dir

ANSWERING_PACKAGES = ("codeweaver_engine", "codeweaver_corpus")
"""The packages whose every file is part of the version (the corpus only when installed)."""
_SKIPPED_DIRS = frozenset({"__pycache__"})
_SKIPPED_SUFFIXES = frozenset({".pyc", ".pyo"})


def package_folder(name: str) -> Path | None:
    """Where an installed package's files are, found without importing it; None if absent."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def package_files(folder: Path) -> list[Path]:
    """A package's files, by path: its code and its data.

    Compiled bytecode is left out (it follows the code). Inside a pack's folder (one that holds
    a `manifest.json`) only the manifest counts: it holds the hashes of the pack's other files.
    """
    packs = {manifest.parent for manifest in folder.rglob(MANIFEST_FILE)}
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and _SKIPPED_DIRS.isdisjoint(path.relative_to(folder).parts)
        and path.suffix not in _SKIPPED_SUFFIXES
        and (path.parent not in packs or path.name == MANIFEST_FILE)
    )


def stamp(packages: Sequence[Path], manifests: Sequence[Path]) -> str:
    """`answers-<16 hex>`: a digest of the packages' files and the packs' manifests.

    Args:
        packages: The folders of the packages whose files decide answers.
        manifests: The manifests of the packs in use.
    """
    digest = hashlib.sha256()
    for folder in packages:
        digest.update(folder.name.encode() + b"\0")
        for path in package_files(folder):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    for manifest in manifests:
        digest.update(b"pack\0")
        digest.update(manifest.read_bytes() if manifest.is_file() else b"no pack")
    return f"answers-{digest.hexdigest()[:16]}"


def _this_release() -> str:
    folders = [package_folder(name) for name in ANSWERING_PACKAGES]
    return stamp([f for f in folders if f is not None], [BUNDLED_PACK / MANIFEST_FILE])


def answers_version(data_dir: Path | None = None) -> str:
    """This install's version of answers (`stamp`), with the installed packs there are.

    The install's part (its packages and the bundled pack) is computed once, when this module is
    imported: a run context is built inside the server's event loop (the auth handler validates
    one), where reading files would block it. The installed packs' part costs one `stat` of the
    packs folder while nothing changed there (`Catalog.listed`); with no installed pack it adds
    nothing.

    Args:
        data_dir: The data directory whose packs count; default: `$CODEWEAVER_HOME`.
    """
    packs = catalog(packs_folder(data_dir or default_data_dir())).stamp()
    return _ANSWERS_VERSION if packs == "none" else f"{_ANSWERS_VERSION}-packs-{packs}"


_ANSWERS_VERSION = _this_release()
