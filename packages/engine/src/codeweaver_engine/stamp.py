"""Which corpus and engine an answer came from, for the answer cache's scope.

A cached answer is served only to a run of the same version: after an upgrade that changes the
bundled documentation index, the task index or the code that composes offline answers, the
entries written by the old release are invisible (not deleted) and answers are composed anew.
The installed packs are part of it too: once a library is ingested, upgraded or removed, the
answers cached with the packs of before are not served (`codeweaver_engine.packs.catalog`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from codeweaver_engine.packs import BUNDLED_PACK, DOCS_VERSION
from codeweaver_engine.packs.catalog import catalog, packs_folder
from codeweaver_runtime.context import default_data_dir

ENGINE = Path(__file__).resolve().parent
"""The offline answer engine's modules: what they say is what the cache stores."""


def answers_version(data_dir: Path | None = None) -> str:
    """This release's version of answers (`fingerprint`) with the installed packs there are.

    The release's part is computed once, when this module is imported: a run context is built
    inside the server's event loop (the auth handler validates one), where reading files would
    block it. The packs' part costs one `stat` of the packs folder while nothing changed there
    (`Catalog.listed`); with no installed pack it adds nothing.

    Args:
        data_dir: The data directory whose packs count; default: `$CODEWEAVER_HOME`.
    """
    packs = catalog(packs_folder(data_dir or default_data_dir())).stamp()
    return _ANSWERS_VERSION if packs == "none" else f"{_ANSWERS_VERSION}-packs-{packs}"


def fingerprint(manifest: Path, engine: Path) -> str:
    """`pydocs-3.11-<12 hex>`: a digest of an index's manifest and an engine's modules.

    The manifest holds the hashes of the documentation sources, the units, the task file and the
    vectors, so it changes with any of them; the engine's modules, its subpackages' included,
    are hashed as shipped.
    """
    digest = hashlib.sha256()
    digest.update(manifest.read_bytes() if manifest.is_file() else b"no bundled index")
    # Every module, those of `language/` and `packs/` too: which sentences are quotable
    # (`language/injection.py`) is as much the answer as how they are put together.
    for module in sorted(engine.rglob("*.py")):
        digest.update(module.relative_to(engine).as_posix().encode())
        digest.update(module.read_bytes())
    return f"pydocs-{DOCS_VERSION}-{digest.hexdigest()[:12]}"


_ANSWERS_VERSION = fingerprint(BUNDLED_PACK / "manifest.json", ENGINE)
