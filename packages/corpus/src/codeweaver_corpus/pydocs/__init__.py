"""The Python documentation, bundled: parsed into answer units, embedded ahead of time."""

from pathlib import Path

DOCS_VERSION = "3.11"
"""The documentation version the bundled index was built from."""
DOCS_URL = f"https://docs.python.org/{DOCS_VERSION}/"
PACKAGED_INDEX = Path(__file__).resolve().parents[1] / "data" / f"python-docs-{DOCS_VERSION}"
"""Where the prebuilt index ships inside the package."""

__all__ = ["DOCS_URL", "DOCS_VERSION", "PACKAGED_INDEX"]
