from __future__ import annotations

import pytest

from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, Embedder, get_embedder


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real default embedder, loaded once for the whole session."""
    return get_embedder(DEFAULT_EMBEDDING_MODEL)
