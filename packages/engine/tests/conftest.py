from __future__ import annotations

import pytest

from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, Embedder, get_embedder


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real default embedder, loaded once for the whole session."""
    return get_embedder(DEFAULT_EMBEDDING_MODEL)


@pytest.fixture
def evidence_score_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answers held to the floor by their evidence's score alone, not by what they speak of.

    For tests of the floors themselves (the library's, the glossary's); `answer_coverage` has
    tests of its own.
    """
    from codeweaver_engine import compose

    monkeypatch.setattr(compose, "COVERAGE_WEIGHT", 0.0)
