"""The lookup steps: embedding candidates and detail guards, then the optional verifier."""

from __future__ import annotations

from langgraph.runtime import Runtime

from codeweaver_cache.context import CacheContext
from codeweaver_cache.nodes.common import CacheDeps, cache_context, error, hit, miss
from codeweaver_cache.state import LookupState, LookupUpdate, key_question
from codeweaver_cache.store import CacheUnavailableError, failure_kind
from codeweaver_cache.verifier import PendingHit, resolve_verifier, verify
from codeweaver_engine.language.subject import leans_on_pronoun
from codeweaver_runtime import ModelCallError, Node, flow_step, run_tenant
from codeweaver_schema import CacheDecision

LOOKUP = "cache_lookup"
VERIFY = "cache_verify"


def make_lookup(deps: CacheDeps) -> Node[LookupState, CacheContext, LookupUpdate]:
    """The node that searches the cache and applies the guards."""

    @flow_step(LOOKUP)
    async def cache_lookup(state: LookupState, runtime: Runtime[CacheContext]) -> LookupUpdate:
        context = cache_context(runtime)
        update: LookupUpdate = {"cache_pending": None}
        if not context.cache_enabled:
            return update | miss("disabled: the cache is turned off for this run")
        analysis = state.get("analysis")
        if analysis is not None and not analysis.should_cache:
            reason = (
                "clarification" if analysis.question_type == "clarification" else "not_cacheable"
            )
            return update | miss(f"{reason}: analysis marked this question as not cacheable")
        question = key_question(state)
        if not question:
            return update | miss("no_question: nothing to look up")
        if leans_on_pronoun(question):
            # "How do I pretty-print it?" meant a JSON file in one thread, anything in the next.
            return update | miss("pronoun_subject: the question's subject is only a pronoun")
        cache = deps.cache_for(context)
        scope = cache.scope(run_tenant(context), context.cache_corpus_version)
        try:
            result = await cache.lookup(question, scope, context.cache_rule())
        except CacheUnavailableError as exc:
            cache.record_miss("unavailable")
            kind = failure_kind(exc)
            return update | miss(f"unavailable: {exc}") | {"errors": [error(LOOKUP, kind, exc)]}
        decision, candidate = result.decision, result.candidate
        if not decision.hit or candidate is None:
            return update | {"cache_decision": decision}
        if resolve_verifier(context, deps.models) is not None:
            pending = PendingHit(
                query=question,
                entry_id=candidate.entry_id,
                matched_question=candidate.question,
                similarity=round(candidate.similarity, 4),
                answer=candidate.answer,
                reason=decision.reason,
            )
            return {"cache_pending": pending}
        cache.record_hit()
        return update | hit(candidate.answer, decision)

    return cache_lookup


def make_verify(deps: CacheDeps) -> Node[LookupState, CacheContext, LookupUpdate]:
    """The node that asks the verifier model about the candidate the guards let through."""

    @flow_step(VERIFY)
    async def cache_verify(state: LookupState, runtime: Runtime[CacheContext]) -> LookupUpdate:
        context = cache_context(runtime)
        pending = state.get("cache_pending")
        update: LookupUpdate = {"cache_pending": None}
        cache = deps.cache_for(context)
        model = resolve_verifier(context, deps.models)
        if pending is None or model is None:
            return update | miss("no_candidate: nothing to verify")
        details = {
            "entry_id": pending.entry_id,
            "similarity": pending.similarity,
            "matched_question": pending.matched_question,
        }
        try:
            verdict = await verify(model, pending, timeout_s=context.model_timeout_s)
        except ModelCallError as exc:
            cache.record_miss("verifier_failed")
            return (
                update
                | miss(f"verifier_failed: {exc}", **details)
                | {"errors": [error(VERIFY, "model", exc)]}
            )
        if not verdict.same_question:
            cache.record_miss("verifier_rejected")
            return update | miss(f"verifier_rejected: {verdict.reason}", **details)
        cache.record_hit()
        decision = CacheDecision(
            hit=True, reason=f"{pending.reason}; verified: {verdict.reason}", **details
        )
        return update | hit(pending.answer, decision)

    return cache_verify
