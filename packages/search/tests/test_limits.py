"""Limits of the search subgraph: the loop's ceiling, the run's time budget, used-up quotas."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

from codeweaver_runtime import StaticChatModels
from codeweaver_schema import Evidence, SourceName
from codeweaver_search import MAX_ROUNDS, SearchContext, build_search_graph
from codeweaver_search.graph import RECURSION_LIMIT
from codeweaver_search.prompts import Assessment
from codeweaver_testing import HashEmbedder, ScriptedChatModel

from .helpers import FakeSource, fixed, make_evidence

QUESTION = "How do I reverse a list in Python?"


def ctx(**overrides: Any) -> SearchContext:
    return SearchContext(
        chat_model="offline", search_sources=["stackoverflow", "docs"], **overrides
    )


def sources(latency_s: float = 0.0) -> dict[SourceName, FakeSource]:
    item = "Reverse a list in Python with list.reverse() or items[::-1]."
    names: tuple[SourceName, ...] = ("stackoverflow", "docs")
    return {
        name: FakeSource(name, fixed(make_evidence(name, "a", item)), latency_s=latency_s)
        for name in names
    }


def never_satisfied() -> ScriptedChatModel:
    """A judge that always wants more and always has a new query to suggest."""
    counter = itertools.count(1)

    def respond(messages: list[BaseMessage], schema: str | None) -> Any:
        return Assessment(
            items=[],
            sufficiency_score=0.1,
            sufficient=False,
            missing_aspects=["something else"],
            refined_query=f"python list reverse variant {next(counter)}",
        )

    return ScriptedChatModel(responder=respond)


async def test_a_huge_round_setting_is_capped(embedder: HashEmbedder) -> None:
    model = never_satisfied()
    fakes = sources()
    graph = build_search_graph(models=StaticChatModels(model), sources=fakes, embedder=embedder)
    assert graph.config is not None
    assert graph.config["recursion_limit"] == RECURSION_LIMIT
    out = await graph.ainvoke({"question": QUESTION}, context=ctx(search_max_iterations=10_000))
    assert out["search_iteration"] == MAX_ROUNDS
    assert len(fakes["docs"].queries) == MAX_ROUNDS
    assert len(model.calls) == MAX_ROUNDS
    assert out["evidence"]


async def test_a_spent_budget_skips_further_rounds(embedder: HashEmbedder) -> None:
    fakes = sources()
    graph = build_search_graph(models=StaticChatModels(None), sources=fakes, embedder=embedder)
    out = await graph.ainvoke(
        {"question": QUESTION, "search_deadline": time.time() - 1},
        context=ctx(search_max_iterations=4, search_sufficiency_threshold=1.01),
    )
    assert out["search_iteration"] == 1
    assert out["search_out_of_time"] is True
    assert any("time budget" in r for r in out["search_refinements"])
    assert out["evidence"], "the answer is still written from what the first round found"


@dataclass
class FakeClock:
    now: float = 1_000.0

    def __call__(self) -> float:
        return self.now


async def test_slow_sources_use_up_the_budget_mid_loop(embedder: HashEmbedder) -> None:
    clock = FakeClock()
    fakes = sources()
    item = fakes["docs"].respond("", 1)

    def slow(_query: str, _limit: int) -> list[Evidence]:
        clock.now += 0.5  # each of the two sources takes half a second of the run's clock
        return list(item)

    for fake in fakes.values():
        fake.respond = slow
    graph = build_search_graph(
        models=StaticChatModels(None), sources=fakes, embedder=embedder, clock=clock
    )
    out = await graph.ainvoke(
        {"question": QUESTION, "search_deadline": clock.now + 1.6},
        context=ctx(search_max_iterations=5, search_sufficiency_threshold=1.01),
    )
    # Round 1 ends at +1 s (budget left), round 2 at +2 s (spent): no third round.
    assert out["search_iteration"] == 2
    assert out["search_out_of_time"] is True
    assert len(fakes["docs"].queries) == 2


async def test_no_deadline_means_no_budget(embedder: HashEmbedder) -> None:
    graph = build_search_graph(models=StaticChatModels(None), sources=sources(), embedder=embedder)
    out = await graph.ainvoke(
        {"question": QUESTION},
        context=ctx(search_max_iterations=2, search_sufficiency_threshold=1.01),
    )
    assert out["search_iteration"] == 2
    assert not out.get("search_out_of_time")


@dataclass
class QuotaSource(FakeSource):
    """A fake source whose quota is used up until `limited` is cleared."""

    limited: str | None = None

    def rate_limit_reason(self) -> str | None:
        return self.limited

    def unavailable_reason(self) -> str | None:
        return self.limited or self.reason


async def test_a_used_up_quota_is_reported_as_rate_limited_and_not_asked(
    embedder: HashEmbedder,
) -> None:
    item = make_evidence("docs", "a", "Reverse a list in Python with list.reverse().")
    exhausted = QuotaSource(
        "stackoverflow",
        fixed(),
        limited="Stack Overflow daily quota exhausted; next request allowed at 00:00 UTC",
    )
    fakes: dict[SourceName, FakeSource] = {
        "stackoverflow": exhausted,
        "docs": FakeSource("docs", fixed(item)),
    }
    graph = build_search_graph(models=StaticChatModels(None), sources=fakes, embedder=embedder)
    out = await graph.ainvoke(
        {"question": QUESTION},
        context=ctx(search_max_iterations=3, search_sufficiency_threshold=1.01),
    )
    assert exhausted.queries == []
    [record] = [e for e in out["errors"] if e.source == "stackoverflow"]
    assert record.kind == "rate_limited"
    assert "daily quota exhausted" in record.message
    assert out["evidence"]
