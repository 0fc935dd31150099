"""Fixtures the tests of every package share (pytest loads this file for all of them)."""

from __future__ import annotations

import pytest

from codeweaver_corpus.pydocs import PACKAGED_INDEX
from codeweaver_corpus.pydocs.index import DocsIndex, read_index


@pytest.fixture(scope="session")
def index() -> DocsIndex:
    """The packaged Python documentation index, read and verified once for the session."""
    return read_index(PACKAGED_INDEX)
