"""Planning and analysis: how many questions, and what each one is.

With a planner model, one structured call produces the plan and each question's analysis
together; `analyze` then only checks it. Offline, `plan` scans the text and `analyze` runs the
offline engine. Either way the deterministic guard forces `too_many` for three or more
questions, whatever a model says.
"""

from __future__ import annotations

from langchain_core.messages import AIMessage, AnyMessage
from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from codeweaver.context import Context, context_of, run_deadline
from codeweaver.workflows.orchestration.nodes.common import (
    MainNode,
    model_error,
    split_turn,
)
from codeweaver.workflows.orchestration.prompts import PlanAndAnalysis, planner_messages
from codeweaver.workflows.orchestration.state import MainState, MainUpdate, fresh_main_fields
from codeweaver_cache import fresh_cache_fields
from codeweaver_engine.analysis import (
    analyze_offline,
    classify_turn,
    is_code_only,
)
from codeweaver_engine.embedding import with_embedder_or_without
from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.subject import with_shared_subject
from codeweaver_engine.language.words import clean_text, truncate
from codeweaver_engine.questions import guard_too_many, scan_questions
from codeweaver_engine.strings import texts
from codeweaver_multi_question import fresh_multi_fields
from codeweaver_runtime import (
    Collaborators,
    ModelCallError,
    call_structured,
)
from codeweaver_schema import Analysis, ErrorRecord, Plan, fresh_turn
from codeweaver_search import fresh_search_fields


def bounded_question(raw: str, limit: int) -> tuple[str, list[str]]:
    """The question cleaned of control characters and cut to `limit`, with notices."""
    cleaned = clean_text(raw).strip()
    if len(cleaned) <= limit:
        return cleaned, []
    kept = truncate(cleaned, limit)
    notice = texts(detect_language(kept), "turn")["truncated"].format(n=len(cleaned), limit=limit)
    return kept, [notice]


def offline_plan(question: str) -> Plan:
    """Plan from the deterministic scan alone."""
    if not question:
        return Plan(kind="single_topic", questions=[], reason="the message is empty")
    scan = scan_questions(question)
    if guard_too_many(scan):
        return Plan(
            kind="too_many",
            questions=scan.candidates,
            reason=f"{scan.question_marks} question marks, {len(scan.candidates)} question "
            "candidates: three or more",
            guard_applied=True,
        )
    if len(scan.candidates) == 2:
        # "What is X, and how do I change it?": the second is about X, and is answered and
        # cached as such.
        return Plan(
            kind="multiple_questions",
            questions=with_shared_subject(scan.candidates),
            reason="two independent questions",
        )
    return Plan(kind="single_topic", questions=[question], reason="one question")


def _model_plan(result: PlanAndAnalysis, question: str) -> Plan:
    scan = scan_questions(question)
    if guard_too_many(scan):
        return Plan(
            kind="too_many",
            questions=scan.candidates or [q.question for q in result.questions],
            reason=f"guard: {scan.question_marks} question marks, {len(scan.candidates)} "
            f"candidates (model said {result.kind})",
            guard_applied=True,
        )
    planned = result.questions[:2]
    kind = result.kind
    if kind == "multiple_questions" and len(planned) < 2:
        kind = "single_topic"
    if kind == "too_many":
        return Plan(
            kind="too_many", questions=[q.question for q in result.questions], reason=result.reason
        )
    if kind == "single_topic":
        planned = planned[:1]
    analyses = [
        Analysis(
            question_type=q.question_type,
            should_cache=q.should_cache and q.question_type != "clarification",
            standalone_question=q.standalone_question or q.question,
            intent=q.intent,
            language=q.language or detect_language(q.question),
            reason="planned by the model",
        )
        for q in planned
    ]
    questions = [question] if kind == "single_topic" else [q.question for q in planned]
    return Plan(kind=kind, questions=questions, reason=result.reason, analyses=analyses)


def needs_planner(question: str, history: list[AnyMessage], planned: Plan) -> bool:
    """Whether a planner model would decide anything the offline scan cannot.

    A thread's first message is its own standalone question, and the scan already counts its
    questions; a follow-up the offline engine recognises goes to the history answer. Only a new
    message in a thread needs the model, to rewrite it to stand alone. This is what keeps a
    cache hit at zero model calls and a clarification at one.
    """
    if planned.kind == "too_many" or not any(isinstance(m, AIMessage) for m in history):
        return False
    return classify_turn(question, history)[0] != "clarification"


def make_plan_node(collaborators: Collaborators) -> MainNode:
    """The `plan` node: starts the turn afresh and decides how many questions it holds."""

    async def plan(state: MainState, runtime: Runtime[Context]) -> MainUpdate:
        ctx = context_of(runtime)
        history, raw = split_turn(state.get("messages", []))
        question, notices = bounded_question(raw, ctx.max_question_chars)
        errors: list[ErrorRecord] = []
        planned = offline_plan(question)
        model = (
            collaborators.chat_model("planner", ctx)
            if question and needs_planner(question, history, planned)
            else None
        )
        if model is not None:
            try:
                result = await call_structured(
                    model,
                    PlanAndAnalysis,
                    planner_messages(history[-12:], question),
                    timeout_s=ctx.model_timeout_s,
                    role="planner",
                )
                planned = _model_plan(result, question)
            except ModelCallError as exc:
                errors.append(model_error("plan", exc))
        update: MainUpdate = {
            **fresh_turn(question, notices),
            **fresh_search_fields(),
            **fresh_cache_fields(),
            **fresh_multi_fields(),
            **fresh_main_fields(),
            "plan": planned,
            **deadline_fields(ctx),
        }
        if errors:
            update["errors"] = Overwrite(errors)
        return update

    return plan


def deadline_fields(ctx: Context) -> MainUpdate:
    """The run's deadline, for the main graph and (prefixed) for the search subgraph."""
    deadline = run_deadline(ctx)
    return {"run_deadline": deadline, "search_deadline": deadline}


def make_analyze_node(collaborators: Collaborators) -> MainNode:
    """The `analyze` node: the question's type in the thread, intent, language, cache key."""

    async def analyze(state: MainState, runtime: Runtime[Context]) -> MainUpdate:
        ctx = context_of(runtime)
        plan = state.get("plan")
        question = state.get("question", "")
        analysis = state.get("analysis")
        if analysis is None and plan is not None and plan.kind == "single_topic" and plan.analyses:
            analysis = plan.analyses[0]
        errors: list[ErrorRecord] = []
        if analysis is None:
            history, _ = split_turn(state.get("messages", []))
            offline = collaborators.chat_model("answer", ctx) is None
            analysis = await with_embedder_or_without(
                lambda: analyze_offline(
                    question, history, collaborators.sentence_embedder(), offline_answer=offline
                ),
                lambda: analyze_offline(question, history, None, offline_answer=offline),
                errors,
                node="analyze",
                instead="analysed by rules only",
            )
        if ctx.answer_language:
            analysis = analysis.model_copy(update={"language": ctx.answer_language})
        update: MainUpdate = {"analysis": analysis, "errors": errors}
        if is_code_only(question):
            notice = texts(analysis.language, "turn")["code_only"]
            update["notices"] = [*state.get("notices", []), notice]
        return update

    return analyze
