"""Nodes that weigh the pool: `rerank` (the round's one model call), `judge`, `summarise`."""

from __future__ import annotations

from langgraph.runtime import Runtime

from codeweaver_engine import search as offline
from codeweaver_engine.embedding import with_embedder_or_without
from codeweaver_runtime import ModelCallError, call_structured, flow_step
from codeweaver_schema import ErrorRecord, Evidence, Intent, Sufficiency
from codeweaver_search.context import SearchContext, max_rounds
from codeweaver_search.nodes.deps import SearchDeps, SearchNode, search_context
from codeweaver_search.prompts import Assessment, judge_messages, labels
from codeweaver_search.state import SearchState, SearchUpdate


def _usable(state: SearchState) -> list[Evidence]:
    """The items of the pool an answer may use (`offline.usable`)."""
    return [e for e in state.get("search_pool", []) if offline.usable(e)]


def _kept(state: SearchState, context: SearchContext) -> list[Evidence]:
    """The evidence the search would end with now: the usable items, best first, the top k.

    The offline judge weighs exactly these, the ones `summarise` keeps.
    """
    return offline.ranked(_usable(state))[: context.search_top_k]


def make_rerank(deps: SearchDeps) -> SearchNode:
    """Score every usable item against the question; with a model, also judge and summarise.

    Offline: embedding cosine plus a small prior from the sources' signals. With a judge model:
    the best candidates by that score go to the model in ONE structured call that returns
    relevance, summaries, the sufficiency verdict and a refined query together.
    """

    @flow_step("rerank")
    async def rerank(state: SearchState, runtime: Runtime[SearchContext]) -> SearchUpdate:
        context = search_context(runtime)
        question = state.get("search_question", "")
        intent = state.get("search_intent", "learning")
        items = _usable(state)
        update: SearchUpdate = {"search_model_verdict": None, "search_suggested_query": None}
        errors: list[ErrorRecord] = []
        model = deps.judge_model(context)
        # With a judge model, the model scores relevance: a cheap lexical order is enough to
        # pick its candidates, and embedding every result first would cost more than the rest
        # of the graph put together. Offline (or when the model fails) embeddings rank.
        if model is not None:
            scores = offline.lexical_rank(
                question, items, intent=intent, intent_policy=context.search_intent_policy
            )
        else:
            scores = await _embedding_rank(deps, context, question, items, intent, errors)
        rescored = [e.model_copy(update={"rerank_score": scores.get(e.id)}) for e in items]
        if model is not None and rescored:
            candidates = offline.ranked(rescored)[: context.search_model_candidates]
            try:
                assessment = await call_structured(
                    model,
                    Assessment,
                    judge_messages(question, candidates),
                    timeout_s=context.model_timeout_s,
                    role="judge",
                )
            except ModelCallError as exc:
                errors.append(ErrorRecord(node="rerank", kind="model", message=str(exc)))
                scores = await _embedding_rank(deps, context, question, items, intent, errors)
                rescored = [e.model_copy(update={"rerank_score": scores.get(e.id)}) for e in items]
            else:
                rescored = _scored_by_model(assessment, candidates, rescored)
                update["search_model_verdict"] = Sufficiency(
                    score=assessment.sufficiency_score,
                    sufficient=assessment.sufficient,
                    missing_aspects=assessment.missing_aspects[: offline.MAX_ASPECTS],
                    reason=assessment.reason or "judged by the model",
                )
                update["search_suggested_query"] = (assessment.refined_query or "").strip() or None
        update["search_pool"] = rescored
        if errors:
            update["errors"] = errors
        return update

    return rerank


async def _embedding_rank(
    deps: SearchDeps,
    context: SearchContext,
    question: str,
    items: list[Evidence],
    intent: Intent,
    errors: list[ErrorRecord],
) -> dict[str, float]:
    policy = context.search_intent_policy

    async def lexical() -> dict[str, float]:
        return offline.lexical_rank(question, items, intent=intent, intent_policy=policy)

    return await with_embedder_or_without(
        lambda: offline.rank(
            question, items, deps.sentence_embedder(), intent=intent, intent_policy=policy
        ),
        lexical,
        errors,
        node="rerank",
    )


def _scored_by_model(
    assessment: Assessment, candidates: list[Evidence], everything: list[Evidence]
) -> list[Evidence]:
    by_label = labels(candidates)
    judged: dict[str, Evidence] = {}
    for item in assessment.items:
        evidence = by_label.get(item.item.strip().strip("[]"))
        if evidence is not None:
            judged[evidence.id] = evidence.model_copy(
                update={"rerank_score": item.relevance, "summary": item.summary.strip() or None}
            )
    # Items the model did not judge rank below those it did: their scores are on another scale.
    return [
        judged.get(e.id) or e.model_copy(update={"rerank_score": (e.rerank_score or 0.0) * 0.01})
        for e in everything
    ]


def make_judge(deps: SearchDeps) -> SearchNode:
    """Is the evidence enough? The model's verdict of this round, else the offline one."""

    @flow_step("judge")
    async def judge(state: SearchState, runtime: Runtime[SearchContext]) -> SearchUpdate:
        context = search_context(runtime)
        verdict = state.get("search_model_verdict")
        if verdict is None:
            verdict = offline.judge(
                state.get("search_question", ""),
                _kept(state, context),
                threshold=context.search_sufficiency_threshold,
            )
        update: SearchUpdate = {"search_sufficiency": verdict}
        deadline = state.get("search_deadline")
        iteration = state.get("search_iteration", 1)
        wants_more = not verdict.sufficient and iteration < max_rounds(context)
        if wants_more and deadline is not None and deps.clock() >= deadline:
            # The answer is still written, from what the rounds so far found.
            update["search_out_of_time"] = True
            update["search_refinements"] = [
                f"round {iteration + 1}: skipped, the run's time budget is spent"
            ]
        return update

    return judge


def make_summarise(deps: SearchDeps) -> SearchNode:
    """The final evidence: usable items, best first, top k, each with a summary."""

    @flow_step("summarise")
    async def summarise(state: SearchState, runtime: Runtime[SearchContext]) -> SearchUpdate:
        context = search_context(runtime)
        question = state.get("search_question", "")
        evidence = [
            e if e.summary else e.model_copy(update={"summary": offline.summarise(question, e)})
            for e in _kept(state, context)
        ]
        return {"evidence": evidence}

    return summarise
