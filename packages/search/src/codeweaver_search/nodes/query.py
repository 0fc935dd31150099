"""Nodes that decide what to ask: `prepare` (first round) and `refine` (later rounds)."""

from __future__ import annotations

from collections.abc import Mapping

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from codeweaver_engine.language.intent import classify_intent
from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.words import clean_text, collapse_whitespace, truncate
from codeweaver_engine.search import english_terms, refine
from codeweaver_runtime import EmbeddingError, flow_step
from codeweaver_schema import ErrorKind, ErrorRecord, Intent, SourceName
from codeweaver_search.context import SearchContext
from codeweaver_search.nodes.deps import SearchDeps, SearchNode, search_context
from codeweaver_search.sources import RateLimited, Source
from codeweaver_search.state import SearchState, SearchUpdate

MAX_QUESTION_CHARS = 2000


def _question(state: SearchState) -> str:
    analysis = state.get("analysis")
    if analysis is not None and analysis.standalone_question.strip():
        return analysis.standalone_question
    if question := state.get("question", ""):
        return question
    for message in reversed(state.get("messages", [])):
        if isinstance(message, HumanMessage) and isinstance(message.content, str):
            return message.content
    return ""


def available_sources(
    sources: Mapping[SourceName, Source],
    enabled: list[SourceName],
    *,
    node: str,
    already_skipped: set[SourceName],
) -> tuple[list[SourceName], list[ErrorRecord]]:
    """The enabled sources that can be asked now, and a skip record for each that cannot."""
    active: list[SourceName] = []
    skipped: list[ErrorRecord] = []
    for name in dict.fromkeys(enabled):
        source = sources.get(name)
        # An exhausted quota is not a missing key: the user is told, as for a failure.
        limited = source.rate_limit_reason() if isinstance(source, RateLimited) else None
        kind: ErrorKind = "rate_limited" if limited else "skipped"
        reason = (
            f"no {name} source is configured"
            if source is None
            else limited or source.unavailable_reason()
        )
        if reason is None:
            active.append(name)
        elif name not in already_skipped:
            skipped.append(ErrorRecord(node=node, kind=kind, message=reason, source=name))
    return active, skipped


async def _intent(question: str, deps: SearchDeps, context: SearchContext) -> Intent:
    """The intent the main graph's offline analysis would find: rules, then the embedder."""
    # The analysis falls back to rules alone when the embedder fails; so does a search alone.
    try:
        intent, _ = await classify_intent(question, deps.sentence_embedder())
    except EmbeddingError:
        intent, _ = await classify_intent(question, None)
    return intent


def make_prepare(deps: SearchDeps) -> SearchNode:
    """The first round's query: the analysed question, its intent and language."""

    @flow_step("prepare")
    async def prepare(state: SearchState, runtime: Runtime[SearchContext]) -> SearchUpdate:
        context = search_context(runtime)
        question = truncate(collapse_whitespace(clean_text(_question(state))), MAX_QUESTION_CHARS)
        analysis = state.get("analysis")
        intent = analysis.intent if analysis else await _intent(question, deps, context)
        language = analysis.language if analysis else detect_language(question)
        # Evidence is mostly English: a question in another language is searched with its
        # English terms (identifiers it writes, glossed words), when it has any.
        query = english_terms(question) or question
        update: SearchUpdate = {
            "search_question": question,
            "search_query": query,
            "search_intent": intent,
            "search_language": language,
            "search_iteration": 1,
        }
        if not question:
            update["search_active_sources"] = []
            update["errors"] = [
                ErrorRecord(node="prepare", kind="input", message="no question to search for")
            ]
            return update
        active, skipped = available_sources(
            deps.sources_for(context), context.search_sources, node="prepare", already_skipped=set()
        )
        update |= {"search_queries": [query], "search_active_sources": active}
        if skipped:
            update["errors"] = skipped
        return update

    return prepare


def make_refine(deps: SearchDeps) -> SearchNode:
    """The next round's query: the judge model's suggestion when it made one, else heuristics."""

    @flow_step("refine")
    async def refine_query(state: SearchState, runtime: Runtime[SearchContext]) -> SearchUpdate:
        context = search_context(runtime)
        question = state.get("search_question", "")
        tried = state.get("search_queries", [])
        iteration = state.get("search_iteration", 1) + 1
        suggested = state.get("search_suggested_query")
        tried_forms = {" ".join(q.lower().split()) for q in tried}
        if suggested and " ".join(suggested.lower().split()) not in tried_forms:
            choice: tuple[str, str] | None = (suggested, "the judge model's refined query")
        else:
            choice = refine(
                question,
                sufficiency=state.get("search_sufficiency"),
                tried=tried,
            )
        if choice is None:
            return {
                "search_active_sources": [],
                "search_refinements": [f"round {iteration}: no untried query left; stopping"],
            }
        query, why = choice
        # Sources already reported as unavailable this turn are not reported again.
        already = {
            e.source
            for e in state.get("errors", [])
            if e.source and e.node in ("prepare", "refine")
        }
        active, skipped = available_sources(
            deps.sources_for(context),
            context.search_sources,
            node="refine",
            already_skipped=already,
        )
        update: SearchUpdate = {
            "search_query": query,
            "search_queries": [query],
            "search_iteration": iteration,
            "search_active_sources": active,
            "search_refinements": [f"round {iteration}: {why} -> {query!r}"],
        }
        if skipped:
            update["errors"] = skipped
        return update

    return refine_query
