from __future__ import annotations

import pytest

from codeweaver_runtime import Embedder, get_embedder


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real default embedder, loaded once for the whole session."""
    return get_embedder("sentence-transformers/all-MiniLM-L6-v2")
