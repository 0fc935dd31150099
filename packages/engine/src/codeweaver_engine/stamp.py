"""Which corpus and engine an answer came from, for the answer cache's scope.

A cached answer is served only to a run of the same version: after an upgrade that changes the
bundled documentation index, the task index or the code that composes offline answers, the
entries written by the old release are invisible (not deleted) and answers are composed anew.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from codeweaver_engine.packs import BUNDLED_PACK, DOCS_VERSION

ENGINE = Path(__file__).resolve().parent
"""The offline answer engine's modules: what they say is what the cache stores."""


def answers_version() -> str:
    """This release's version of answers: see `fingerprint`.

    Computed once, when this module is imported: a run context is built inside the server's
    event loop (the auth handler validates one), where reading files would block it.
    """
    return _ANSWERS_VERSION


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
