"""The optional model verifier: one structured call on the best candidate that passed the guards."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field

from codeweaver_cache.context import CacheContext
from codeweaver_cache.prompts import VERIFY_SYSTEM, VERIFY_USER
from codeweaver_engine.language.words import truncate
from codeweaver_runtime import (
    ChatModels,
    ModelRole,
    build_chat_model,
    call_structured,
    resolve_chat_models,
)
from codeweaver_schema import Answer

JUDGE_ROLE: ModelRole = "judge"


class CacheVerdict(BaseModel):
    """The verifier's answer: may the cached answer serve the new question?"""

    same_question: bool = Field(description="True only if the cached answer answers it exactly.")
    reason: str = Field(default="", description="One sentence: what agrees or differs.")


class PendingHit(BaseModel):
    """A candidate that passed the guards and waits for the verifier (lookup graph only)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    query: str
    entry_id: str
    matched_question: str
    similarity: float
    answer: Answer
    reason: str


def resolve_verifier(context: CacheContext, models: ChatModels | None) -> BaseChatModel | None:
    """The verifier model a context names, or None when verification is off.

    '' turns it off; 'judge' takes the judge role's model; anything else is a provider:model
    name. Models injected into the graph win over names, so tests pass fakes.
    """
    name = context.cache_verifier_model
    if not name:
        return None
    if models is not None or name == JUDGE_ROLE:
        return resolve_chat_models(models, context).for_role(JUDGE_ROLE)
    return build_chat_model(name, timeout_s=context.model_timeout_s)


async def verify(model: BaseChatModel, pending: PendingHit, *, timeout_s: float) -> CacheVerdict:
    """Ask the verifier whether the cached answer serves the query.

    Raises:
        ModelCallError: the model failed, timed out or answered malformed.
    """
    messages = [
        SystemMessage(VERIFY_SYSTEM),
        HumanMessage(
            VERIFY_USER.format(
                query=pending.query,
                cached=pending.matched_question,
                answer=truncate(pending.answer.text, 1200),
            )
        ),
    ]
    return await call_structured(
        model,
        CacheVerdict,
        messages,
        timeout_s=timeout_s,
        tags=["codeweaver:internal"],
        role=JUDGE_ROLE,
    )
