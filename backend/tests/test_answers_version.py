"""The answer cache's scope follows the version of answers the engine stamps."""

from __future__ import annotations

from codeweaver.context import Context
from codeweaver_engine.stamp import answers_version


def test_runs_default_to_this_release_and_a_client_may_still_name_one() -> None:
    assert Context().cache_corpus_version == answers_version()
    assert Context(cache_corpus_version="team-docs-7").cache_corpus_version == "team-docs-7"
