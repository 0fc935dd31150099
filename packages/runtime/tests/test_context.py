"""Run-context values from a client: coerced when the meaning is plain, clamped, or refused."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.runtime import Runtime

from codeweaver_runtime import (
    ContextError,
    Infrastructure,
    RuntimeContext,
    infrastructure,
    run_context,
    setting,
)
from codeweaver_runtime.infrastructure import DEFAULT_CACHE_COLLECTION
from tests.contexts import client_settings, sane_or_refused


def test_plain_meanings_are_coerced() -> None:
    context = RuntimeContext(model_timeout_s="30", chat_model="  offline ")  # type: ignore[arg-type]
    assert context.model_timeout_s == 30.0
    assert context.chat_model == "offline"


def test_numbers_are_clamped_to_their_field_bounds() -> None:
    assert RuntimeContext(model_timeout_s=-5).model_timeout_s == 1.0
    assert RuntimeContext(model_timeout_s=10**9).model_timeout_s == 600.0


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"model_timeout_s": "soon"}, "model_timeout_s must be a number"),
        ({"model_timeout_s": math.inf}, "finite"),
        ({"model_timeout_s": True}, "model_timeout_s must be a number"),
        ({"chat_model": 42}, "chat_model must be text"),
        ({"tenant": "x" * 1000}, "at most 256"),
        ({"judge_model": ["openai:gpt-4o"]}, "judge_model must be text"),
    ],
)
def test_values_without_a_plain_meaning_are_refused(values: dict[str, Any], message: str) -> None:
    with pytest.raises(ContextError, match=message):
        RuntimeContext(**values)


def test_infrastructure_is_not_a_run_setting() -> None:
    names = {spec.name for spec in fields(RuntimeContext)}
    assert not names & {"qdrant_path", "qdrant_url", "embedding_model", "cache_collection"}
    with pytest.raises(TypeError):
        RuntimeContext(qdrant_path="/srv/anywhere")  # type: ignore[call-arg]


def test_infrastructure_comes_from_the_operator_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CODEWEAVER_HOME", str(tmp_path))
    monkeypatch.delenv("QDRANT_URL", raising=False)
    monkeypatch.delenv("CODEWEAVER_QDRANT_PATH", raising=False)
    monkeypatch.delenv("CODEWEAVER_CACHE_COLLECTION", raising=False)
    assert infrastructure().qdrant_location() == str(tmp_path / "qdrant")
    assert infrastructure().cache_collection == DEFAULT_CACHE_COLLECTION
    monkeypatch.setenv("QDRANT_URL", "http://qdrant.internal:6333")
    assert infrastructure().qdrant_location() == "http://qdrant.internal:6333"
    assert Infrastructure(qdrant_path=":memory:").qdrant_location() == ":memory:"


_SENT = st.one_of(
    st.text(max_size=300),
    st.lists(st.text(max_size=10), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(client_settings(RuntimeContext, _SENT))
def test_any_client_values_give_a_sane_context_or_a_clear_refusal(values: dict[str, Any]) -> None:
    context = sane_or_refused(RuntimeContext, values)
    if context is None:
        return
    assert 1.0 <= context.model_timeout_s <= 600.0
    for name in ("chat_model", "planner_model", "judge_model", "answer_model", "tenant"):
        value = getattr(context, name)
        assert isinstance(value, str)
        assert len(value) <= 256
        assert "\x00" not in value


@dataclass(kw_only=True)
class _PackageContext(RuntimeContext):
    rounds: int = setting(2, bounds=(1, 6), description="Rounds.")
    language: str = setting("", pattern="[a-z]{2}|", pattern_help="a code", description="Code.")
    reviewer_model: str = setting(factory=lambda: "offline", model_name=True, description="M.")
    sources: list[str] = setting(factory=lambda: ["docs"], description="Sources.")


def test_a_package_setting_is_checked_by_its_declaration() -> None:
    assert _PackageContext().sources == ["docs"]
    assert _PackageContext().sources is not _PackageContext().sources
    assert _PackageContext(rounds="9").rounds == 6  # type: ignore[arg-type]
    with pytest.raises(ContextError, match="language must be a code"):
        _PackageContext(language="english")
    with pytest.raises(ContextError, match="reviewer_model must be"):
        _PackageContext(reviewer_model="no-provider")
    (rounds,) = (f for f in fields(_PackageContext) if f.name == "rounds")
    assert dict(rounds.metadata) == {"description": "Rounds.", "bounds": (1, 6)}


def test_a_run_without_a_context_reads_the_defaults() -> None:
    given_context = _PackageContext(rounds=3)
    assert run_context(Runtime(context=given_context), _PackageContext) is given_context
    assert run_context(Runtime(context=None), _PackageContext).rounds == 2
