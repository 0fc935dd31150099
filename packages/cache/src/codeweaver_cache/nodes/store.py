"""The store step: admit a grounded answer of a cacheable question."""

from __future__ import annotations

from langgraph.runtime import Runtime

from codeweaver_cache.context import CacheContext
from codeweaver_cache.nodes.common import CacheDeps, cache_context, error
from codeweaver_cache.state import CacheState, CacheUpdate, key_question
from codeweaver_cache.store import CacheUnavailableError, admission_refusal, failure_kind
from codeweaver_engine.language.subject import leans_on_pronoun
from codeweaver_runtime import Node, flow_step, run_tenant

STORE = "cache_store"


def make_store(deps: CacheDeps) -> Node[CacheState, CacheContext, CacheUpdate]:
    """The node that stores this turn's answer when the admission policy allows it."""

    @flow_step(STORE)
    async def cache_store(state: CacheState, runtime: Runtime[CacheContext]) -> CacheUpdate:
        context = cache_context(runtime)
        if not context.cache_enabled:
            return {"cache_stored": False, "cache_store_reason": "disabled"}
        answer, analysis = state.get("answer"), state.get("analysis")
        question = key_question(state)
        cache = deps.cache_for(context)
        if answer is None or not question:
            refusal = admission_refusal(answer, analysis) or "no_question"
            cache.stats.rejections[refusal] += 1
            return {"cache_stored": False, "cache_store_reason": refusal}
        if leans_on_pronoun(question):
            # A key that is only a pronoun would serve this answer to any later "fix it?".
            cache.stats.rejections["pronoun_subject"] += 1
            return {"cache_stored": False, "cache_store_reason": "pronoun_subject"}
        scope = cache.scope(run_tenant(context), context.cache_corpus_version)
        try:
            admission = await cache.admit(
                question, answer, scope, ttl_s=context.cache_ttl_s, analysis=analysis
            )
        except CacheUnavailableError as exc:
            kind = failure_kind(exc)
            return {
                "cache_stored": False,
                "cache_store_reason": f"unavailable: {exc}",
                "errors": [error(STORE, kind, exc)],
            }
        return {"cache_stored": admission.stored, "cache_store_reason": admission.reason}

    return cache_store
