"""The pack format: its files, its manifest, and the text each unit's vector encodes.

A pack folder holds `manifest.json`, `units.jsonl.gz` (one `DocUnit` per line), `unit_vectors.npy`
(one unit-length vector per unit), `tasks.json` (the task index: targets and phrasings) and
`task_vectors.npy` (one vector per phrasing). The manifest says what the pack is (`Pack`), which
embedding model its vectors come from, and the SHA-256 of every file, so a reader can refuse a
damaged pack and the answers' version stamp changes with any of them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codeweaver_engine.packs.units import DocUnit, first_sentence, prose_of

FORMAT_VERSION = 2
"""Version 2 added what the pack is to the manifest (`name`, `source`, `title`, `url`)."""
UNITS_FILE = "units.jsonl.gz"
VECTORS_FILE = "unit_vectors.npy"
TASKS_FILE = "tasks.json"
TASK_VECTORS_FILE = "task_vectors.npy"
MANIFEST_FILE = "manifest.json"
EMBEDDED_CHARS = 400
"""Characters of a unit's own words that its vector encodes, after its name or heading."""


@dataclass(frozen=True)
class Pack:
    """What a pack is, as its manifest says.

    Attributes:
        name: The distribution it documents (`python` for the Python documentation).
        version: The version documented (`3.11`).
        source: Where it came from: `bundled` (shipped prebuilt), `installed` (read from a
            library installed in the user's environment) or `ingested`.
        title: How answers name it (`Python`).
        url: The address its pages are under (`https://docs.python.org/3.11/`); None when its
            units have no page online.
        embedding_model: The model its vectors come from.
        import_names: The top-level names a library is imported by (`bs4` for
            `beautifulsoup4`); empty for the Python documentation.
    """

    name: str
    version: str
    source: str
    title: str
    url: str | None
    embedding_model: str
    import_names: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """How an answer names the pack it quotes: `pandas 3.1.1, installed`, `Python 3.11`."""
        if self.source == "bundled":
            return f"{self.title} {self.version}"
        return f"{self.title} {self.version}, {self.source}"

    @classmethod
    def from_manifest(cls, manifest: Mapping[str, Any]) -> Pack:
        """The pack a manifest describes.

        Raises:
            KeyError: a required field (`name`, `version`, `source`, `embedding_model`) is
                missing.
        """
        name = str(manifest["name"])
        return cls(
            name=name,
            version=str(manifest["version"]),
            source=str(manifest["source"]),
            title=str(manifest.get("title") or name),
            url=str(manifest["url"]) if manifest.get("url") else None,
            embedding_model=str(manifest["embedding_model"]),
            import_names=tuple(str(n) for n in manifest.get("import_names") or ()),
        )


def embedding_text(unit: DocUnit) -> str:
    """What a unit's vector encodes: its name or heading, then the start of its prose.

    An API unit is its qualified name and description, which is what a question about it
    shares; a passage is its page and section titles and its opening prose.
    """
    prose = " ".join(prose_of(unit.text).split())
    if unit.kind == "api":
        return f"{unit.name}: {prose}"[: EMBEDDED_CHARS + len(unit.name)]
    heading = (
        f"{unit.doc_title} — {unit.section}" if unit.section != unit.doc_title else unit.section
    )
    return f"{heading}: {prose or first_sentence(unit.text)}"[: EMBEDDED_CHARS + len(heading)]


def sha256_of(path: Path) -> str:
    """The hex SHA-256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
