"""Run settings a client sends: the main graph's context is checked field by field, and the
server refuses the operator's settings and meaningless values before anything runs."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph_sdk import Auth

from codeweaver.context import MAX_REGENERATIONS, Context, run_deadline
from codeweaver.server.auth import check_run_settings
from codeweaver.workflows.orchestration.nodes.answering import out_of_time
from codeweaver_runtime import ContextError
from codeweaver_search import MAX_ROUNDS
from tests.contexts import client_settings, sane_or_refused

_SENT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["3", "0.5", "-1", "yes", "no", "true", "local,docs", "bing", "lots", ""]),
    st.lists(st.sampled_from(["local", "docs", "github", "stackoverflow", "bing", ""])),
)


@settings(max_examples=400, deadline=None)
@given(client_settings(Context, _SENT, max_size=6))
def test_every_context_is_sane_or_refused_clearly(values: dict[str, Any]) -> None:
    context = sane_or_refused(Context, values)
    if context is None:
        return
    assert isinstance(context.cache_enabled, bool)
    assert isinstance(context.search_intent_policy, bool)
    assert 1 <= context.search_max_iterations <= MAX_ROUNDS
    assert 0 <= context.answer_max_regenerations <= MAX_REGENERATIONS
    assert 0.5 <= context.search_source_timeout_s <= 120
    assert 0.1 <= context.cache_timeout_s <= 60
    assert context.max_question_chars >= 200
    assert context.run_budget_s >= 0
    assert 1 <= context.search_top_k <= 50
    assert set(context.search_sources) <= {"stackoverflow", "github", "docs", "local"}
    assert context.answer_language == "" or context.answer_language.isalpha()


def test_what_the_reliability_probe_sent_is_now_coerced_or_refused() -> None:
    with pytest.raises(ContextError, match="search_max_iterations must be an integer"):
        Context(search_max_iterations="lots")  # type: ignore[arg-type]
    with pytest.raises(ContextError, match=r"unknown value\(s\) 'bing'"):
        Context(search_sources=["bing"])  # type: ignore[list-item]
    with pytest.raises(ContextError, match="run_budget_s must be a number"):
        Context(run_budget_s="soon")  # type: ignore[arg-type]
    assert Context(cache_enabled="no").cache_enabled is False  # type: ignore[arg-type]
    assert Context(search_source_timeout_s=-3).search_source_timeout_s == 0.5
    assert Context(max_question_chars=0).max_question_chars == 200
    assert Context(run_budget_s=-1).run_budget_s == 0.0  # no budget, as documented


def sent(settings: dict[str, Any], where: str) -> dict[str, Any]:
    """A run request carrying `settings` in its context or in its config's `configurable`."""
    return {"context": settings} if where == "context" else {"config": {"configurable": settings}}


def refusal(request: dict[str, Any]) -> Auth.exceptions.HTTPException:
    """What the server answers a request whose run settings it refuses."""
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        check_run_settings(request)
    return refused.value


@pytest.mark.parametrize(
    "name", ["qdrant_path", "qdrant_url", "embedding_model", "cache_collection", "data_dir"]
)
@pytest.mark.parametrize("where", ["context", "configurable"])
def test_operator_settings_are_refused_with_403(name: str, where: str) -> None:
    refused = refusal(sent({name: "/srv/anywhere"}, where))
    assert refused.status_code == 403
    assert name in str(refused.detail)
    assert "operator" in str(refused.detail)


def test_meaningless_values_are_refused_with_422_and_good_ones_pass() -> None:
    refused = refusal({"context": {"search_sources": ["bing"]}})
    assert refused.status_code == 422
    assert "bing" in str(refused.detail)
    # The server's own keys in configurable (thread ids, the caller) are not run settings.
    check_run_settings(
        {
            "context": {"search_sources": ["local"], "cache_enabled": "false"},
            "config": {"configurable": {"thread_id": "t", "langgraph_auth_user_id": "alice"}},
        }
    )
    check_run_settings(None)


LOCAL = "openai:qwen2.5-coder@http://127.0.0.1:11434/v1"


@pytest.mark.parametrize("field", ["chat_model", "answer_model", "cache_verifier_model"])
@pytest.mark.parametrize("where", ["context", "configurable"])
def test_a_model_at_an_address_the_operator_did_not_set_is_refused_with_403(
    field: str, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEWEAVER_ANSWER_MODEL", LOCAL)
    refused = refusal(sent({field: "openai:gpt-4o@http://169.254.169.254/latest"}, where))
    assert refused.status_code == 403
    assert field in str(refused.detail)
    assert "operator" in str(refused.detail)


def test_the_operators_own_model_address_and_plain_names_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CODEWEAVER_ANSWER_MODEL", LOCAL)
    # Exactly the operator's name, for any role, and any model named without an address.
    check_run_settings({"context": {"judge_model": LOCAL, "chat_model": "openai:gpt-4o-mini"}})
    assert refusal({"context": {"judge_model": LOCAL.replace("11434", "11435")}}).status_code == 403
    unknown = refusal({"context": {"answer_model": "ollama:llama3"}})
    assert unknown.status_code == 422
    assert "provider" in str(unknown.detail)


def test_the_run_budget_is_counted_on_the_clock_given() -> None:
    assert run_deadline(Context(run_budget_s=30), clock=lambda: 1_000.0) == 1_030.0
    assert run_deadline(Context(run_budget_s=0), clock=lambda: 1_000.0) is None
    assert not out_of_time({"run_deadline": 1_030.0}, clock=lambda: 1_029.9)
    assert out_of_time({"run_deadline": 1_030.0}, clock=lambda: 1_030.0)
    assert not out_of_time({"run_deadline": None}, clock=lambda: 10.0**12)
