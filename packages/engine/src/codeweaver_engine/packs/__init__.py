"""Documentation packs: what the engine knows, one pack per documented distribution.

A pack is a folder (`format.py` names its files) of units (`units.py`: API entries and
passages), their vectors and a task index, with a manifest that says which distribution and
version it documents and where it came from. `index.py` searches one pack, `shelf.py` the
packs in use together, and `retrieval.py` turns what they find into cited evidence. The Python
documentation ships as the bundled pack (`BUNDLED_PACK`); `codeweaver_corpus` builds packs.
"""

from pathlib import Path

DOCS_VERSION = "3.11"
"""The Python documentation version of the bundled pack."""
DOCS_URL = f"https://docs.python.org/{DOCS_VERSION}/"
"""Where the bundled pack's pages are online."""
BUNDLED_PACK = Path(__file__).resolve().parents[1] / "data" / "packs" / f"python-{DOCS_VERSION}"
"""The bundled pack's folder: the Python documentation, prebuilt, inside this package."""

__all__ = ["BUNDLED_PACK", "DOCS_URL", "DOCS_VERSION"]
