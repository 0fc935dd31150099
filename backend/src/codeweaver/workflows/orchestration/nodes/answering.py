"""Answering: the cited answer, its grounding check, follow-ups from history, and combining.

Every node that ends a turn delivers its answer as an AI message (`answer_message`), with the
run's notices and failures made visible, so what the user reads is what the state holds.
"""

from __future__ import annotations

import re

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from codeweaver.context import (
    Clock,
    Context,
    context_of,
    max_regenerations,
    run_deadline,
    wall_clock,
)
from codeweaver.libraries import LibrariesFor, operator_libraries
from codeweaver.workflows.orchestration.nodes.common import ANSWER_TAG as ANSWER_TAG
from codeweaver.workflows.orchestration.nodes.common import (
    MainNode,
    deliver_message,
    message_text,
    model_error,
    model_failure,
    split_turn,
)
from codeweaver.workflows.orchestration.prompts import (
    GradeVerdict,
    answer_messages,
    grade_messages,
    history_messages,
)
from codeweaver.workflows.orchestration.state import MainState, MainUpdate, WorkerState
from codeweaver_engine.compose import extractive_answer
from codeweaver_engine.decline import source_lines
from codeweaver_engine.embedding import with_embedder_or_without
from codeweaver_engine.follow_up import follow_up_answer
from codeweaver_engine.grounding import (
    MODEL_SUPPORT_THRESHOLD,
    SUPPORT_THRESHOLD,
    check_grounding,
    cited_numbers,
)
from codeweaver_engine.packs.shelf import bundled_shelf
from codeweaver_engine.strings import texts
from codeweaver_runtime import (
    Collaborators,
    ModelCallError,
    call_structured,
    call_text,
)
from codeweaver_schema import (
    SOURCE_LABELS,
    Analysis,
    Answer,
    Citation,
    ErrorRecord,
    Evidence,
    Grade,
    QuestionAnswer,
    stable_id,
)
from codeweaver_schema.render import safe_markdown

_ROUND_PREFIX = re.compile(r"^round \d+: ")


def citations_for(text: str, evidence: list[Evidence]) -> list[Citation]:
    """The citations a model's text uses, each `[n]` mapped to the n-th evidence item."""
    used = sorted(set(cited_numbers(text)))
    return [Citation.of(n, evidence[n - 1]) for n in used if 1 <= n <= len(evidence)]


def failure_summary(errors: list[ErrorRecord], language: str = "en") -> str | None:
    """A sentence naming the sources and models that failed this turn (skips are not failures).

    A used-up quota or rate limit is told with its reason and reset time, since the user can
    act on it (wait, or set a key).
    """
    failed = [e for e in errors if e.kind not in ("skipped", "input")]
    if not failed:
        return None
    parts = []
    for e in failed:
        what = SOURCE_LABELS[e.source] if e.source else e.node
        detail: str = e.kind
        if e.kind == "rate_limited":
            reason = _ROUND_PREFIX.sub("", e.message).split(" [", 1)[0]
            detail = f"rate_limited: {reason}"
        elif e.kind == "model":
            detail = model_failure(e.message)
        parts.append(f"{what} ({detail})")
    listed = ", ".join(dict.fromkeys(parts))
    return texts(language, "turn")["failures"].format(failures=listed)


def out_of_time(state: MainState, clock: Clock = wall_clock) -> bool:
    """Whether the run's time budget is spent by `clock`."""
    deadline = state.get("run_deadline")
    return deadline is not None and clock() >= deadline


def budget_notice(ctx: Context, *, rewrite_skipped: bool, language: str = "en") -> str:
    """What the user is told when the run's time budget cut optional work short."""
    said = texts(language, "turn")
    skipped = said["budget_rewrites"] if rewrite_skipped else said["budget_rounds"]
    return said["budget"].format(budget=ctx.run_budget_s, skipped=skipped)


def as_delivered(answer: Answer, state: MainState, grade: Grade | None = None) -> Answer:
    """The answer as the user will see it: notices first, failures and doubts as a warning."""
    warnings = [w for w in (answer.warning,) if w]
    if grade is not None and not grade.grounded and answer.citations:
        warnings.append(texts(answer.language, "turn")["ungrounded"].format(reason=grade.reason))
    # A decline lists what was not searched; the warning still tells a failed model or source,
    # so a client reading `degraded` knows the decline may be the failure's doing.
    failures = failure_summary(state.get("errors", []), answer.language)
    if failures:
        warnings.append(failures)
    text = answer.text
    notices = state.get("notices", [])
    if notices:
        text = "\n".join(f"_{n}_" for n in notices) + "\n\n" + text
    if not answer.declined and not answer.from_cache:
        _, skipped = source_lines(state.get("errors", []), answer.language, skipped_only=True)
        if skipped:
            text += "\n\n_" + texts(answer.language, "turn")["not_searched"] + skipped + "._"
    return answer.model_copy(
        update={
            # Evidence can carry raw HTML and script links; not every client sanitises.
            "text": safe_markdown(text),
            "warning": " ".join(warnings) or None,
            "grounded": grade.grounded if grade is not None else answer.grounded,
            "degraded": answer.degraded or failures is not None,
        }
    )


def _could_regenerate(state: MainState, ctx: Context) -> bool:
    grade = state.get("grade")
    answer = state.get("answer")
    if grade is None or answer is None or grade.grounded or answer.offline:
        return False
    return state.get("answer_attempts", 0) <= max_regenerations(ctx)


def wants_regeneration(state: MainState, ctx: Context) -> bool:
    """Whether to rewrite an ungrounded model answer.

    At most `answer_max_regenerations` times (never more than `MAX_REGENERATIONS`), and only
    while the run's time budget lasts.
    """
    return _could_regenerate(state, ctx) and not out_of_time(state)


def make_answer_node(
    collaborators: Collaborators, libraries: LibrariesFor = operator_libraries
) -> MainNode:
    """The `answer` node: intent-specific, cited, in the user's language.

    Args:
        collaborators: Models and the embedder.
        libraries: The installed packs and the user's environment, by embedding model (for a
            question that names a library).
    """

    async def answer(state: MainState, runtime: Runtime[Context]) -> MainUpdate:
        ctx = context_of(runtime)
        analysis = state["analysis"]
        assert analysis is not None, "answer runs after analyze"
        evidence = state.get("evidence", [])
        question = state.get("question", "") or analysis.standalone_question
        attempts = state.get("answer_attempts", 0) + 1
        errors: list[ErrorRecord] = []
        model = collaborators.chat_model("answer", ctx)
        drafted: Answer | None = None
        if model is not None and evidence:
            grade = state.get("grade")
            feedback = grade.reason if grade is not None and attempts > 1 else None
            try:
                text = await call_text(
                    model,
                    answer_messages(
                        question, analysis.intent, analysis.language, evidence, feedback
                    ),
                    timeout_s=ctx.model_timeout_s,
                    tags=[ANSWER_TAG],
                    role="answer",
                )
                drafted = Answer(
                    text=text,
                    citations=citations_for(text, evidence),
                    intent=analysis.intent,
                    language=analysis.language,
                )
            except ModelCallError as exc:
                errors.append(model_error("answer", exc))
        if drafted is None:
            seen = [*state.get("errors", []), *errors]
            drafted = await _extractive(
                question, analysis, evidence, collaborators, ctx, errors, seen, libraries
            )
        return {"answer": drafted, "answer_attempts": attempts, "errors": errors}

    return answer


async def _extractive(
    question: str,
    analysis: Analysis,
    evidence: list[Evidence],
    collaborators: Collaborators,
    ctx: Context,
    errors: list[ErrorRecord],
    seen: list[ErrorRecord],
    libraries: LibrariesFor,
) -> Answer:
    floor = ctx.answer_relevance_floor
    known = libraries(collaborators.sentence_embedder().model_id)
    return await with_embedder_or_without(
        lambda: extractive_answer(
            question,
            analysis,
            evidence,
            collaborators.sentence_embedder(),
            errors=seen,
            floor=floor,
            libraries=known,
        ),
        lambda: extractive_answer(
            question, analysis, evidence, None, errors=seen, floor=floor, libraries=known
        ),
        errors,
        node="answer",
        instead="sentences ranked by shared words",
    )


def make_grade_node(collaborators: Collaborators) -> MainNode:
    """The `grade` node: citations must resolve and cited claims must be in the evidence."""

    async def grade(state: MainState, runtime: Runtime[Context]) -> MainUpdate:
        ctx = context_of(runtime)
        answer = state["answer"]
        assert answer is not None, "grade runs after answer"
        evidence = state.get("evidence", [])
        verdict = check_grounding(
            answer,
            evidence,
            min_support=SUPPORT_THRESHOLD if answer.offline else MODEL_SUPPORT_THRESHOLD,
        )
        errors: list[ErrorRecord] = []
        model = collaborators.chat_model("judge", ctx)
        if model is not None and not answer.offline and verdict.grounded:
            try:
                judged = await call_structured(
                    model,
                    GradeVerdict,
                    grade_messages(answer.text, evidence),
                    timeout_s=ctx.model_timeout_s,
                    role="judge",
                )
                verdict = Grade(
                    grounded=judged.grounded,
                    unsupported_claims=judged.unsupported_claims,
                    reason=judged.reason or verdict.reason,
                )
            except ModelCallError as exc:
                errors.append(model_error("grade", exc))
        update: MainUpdate = {"grade": verdict, "errors": errors}
        graded: MainState = {**state, "grade": verdict}
        if wants_regeneration(graded, ctx):
            return update
        notices = list(state.get("notices", []))
        rewrite_skipped = _could_regenerate(graded, ctx)
        if rewrite_skipped or state.get("search_out_of_time"):
            notices.append(
                budget_notice(ctx, rewrite_skipped=rewrite_skipped, language=answer.language)
            )
            update["notices"] = notices
        delivered: MainState = {
            **state,
            "notices": notices,
            "errors": [*state.get("errors", []), *errors],
        }
        final = as_delivered(answer, delivered, verdict)
        return {**update, "answer": final, "messages": [await deliver_message(final, state)]}

    return grade


def _previous_answer(state: MainState) -> tuple[AIMessage | None, list[Citation]]:
    history, _ = split_turn(state.get("messages", []))
    for message in reversed(history):
        if isinstance(message, AIMessage):
            raw = message.additional_kwargs.get("citations", [])
            return message, [Citation.model_validate(c) for c in raw]
    return None, []


def make_answer_with_history_node(collaborators: Collaborators) -> MainNode:
    """The `answer_with_history` node: a follow-up answered from the thread, no search."""

    async def answer_with_history(state: MainState, runtime: Runtime[Context]) -> MainUpdate:
        ctx = context_of(runtime)
        analysis = state["analysis"]
        assert analysis is not None, "answer_with_history runs after analyze"
        question = state.get("question", "")
        previous, earlier_citations = _previous_answer(state)
        errors: list[ErrorRecord] = []
        text: str | None = None
        model = collaborators.chat_model("answer", ctx)
        if model is not None:
            history, _ = split_turn(state.get("messages", []))
            try:
                text = await call_text(
                    model,
                    history_messages(history[-12:], question, analysis.language),
                    timeout_s=ctx.model_timeout_s,
                    tags=[ANSWER_TAG],
                    role="answer",
                )
            except ModelCallError as exc:
                errors.append(model_error("answer_with_history", exc))
        offline = text is None
        if text is None:
            previous_text = message_text(previous) if previous is not None else None
            text, added = follow_up_answer(
                question, previous_text, earlier_citations, analysis.language, bundled_shelf
            )
            earlier_citations = [*earlier_citations, *added]
        by_n = {c.n: c for c in earlier_citations}
        used = [by_n[n] for n in sorted(set(cited_numbers(text))) if n in by_n]
        unresolved = [n for n in cited_numbers(text) if n not in by_n]
        answer = Answer(
            text=text,
            citations=used,
            intent=analysis.intent,
            language=analysis.language,
            grounded=not unresolved,
            offline=offline,
        )
        final = as_delivered(answer, {**state, "errors": [*state.get("errors", []), *errors]})
        message = await deliver_message(final, state)
        return {"answer": final, "messages": [message], "errors": errors}

    return answer_with_history


_RENUMBER = re.compile(r"\[(\d{1,3})\]")


def _renumber(text: str, mapping: dict[int, int]) -> str:
    def replace(match: re.Match[str]) -> str:
        n = int(match.group(1))
        return f"[{mapping.get(n, n)}]"

    return _RENUMBER.sub(replace, text)


def combine_answers(answers: list[QuestionAnswer]) -> Answer:
    """One Markdown answer with a section per question and globally numbered citations."""
    sections: list[str] = []
    citations: list[Citation] = []
    offset = 0
    for qa in sorted(answers, key=lambda a: a.index):
        mapping = {c.n: c.n + offset for c in qa.answer.citations}
        text = _renumber(qa.answer.text, mapping)
        section = f"## {qa.index + 1}. {qa.question}\n\n{text}"
        if qa.answer.warning:
            section += f"\n\n> ⚠️ {qa.answer.warning}"
        sections.append(section)
        citations += [c.model_copy(update={"n": mapping[c.n]}) for c in qa.answer.citations]
        offset += len(qa.answer.citations)
    parts = [qa.answer for qa in answers]
    # Declined only when every part is: one answered part is an answer worth caching and showing.
    declined = bool(parts) and all(a.declined for a in parts)
    return Answer(
        text="\n\n".join(sections),
        citations=citations,
        language=parts[0].language if parts else "en",
        grounded=bool(parts) and all(a.grounded for a in parts),
        degraded=any(a.degraded for a in parts),
        offline=any(a.offline for a in parts),
        from_cache=bool(parts) and all(a.from_cache for a in parts),
        declined=declined,
        decline_reason=next((a.decline_reason for a in parts if a.decline_reason), None)
        if declined
        else None,
    )


async def combine(state: MainState) -> MainUpdate:
    """The `combine` node: the two answers as one message."""
    answers = state.get("multi_answers", [])
    worker_errors = [e for qa in answers for e in qa.errors]
    everything = [*state.get("errors", []), *worker_errors]
    final = as_delivered(combine_answers(answers), {**state, "errors": everything})
    message = await deliver_message(final, state)
    return {"answer": final, "messages": [message], "errors": worker_errors}


async def prepare_question(state: WorkerState, runtime: Runtime[Context]) -> MainUpdate:
    """A worker's first step: its question becomes the turn's question.

    Workers start as soon as the turn is planned, so the run's budget counts from here.
    """
    index = state.get("multi_index", 0)
    plan = state.get("plan")
    analysis = plan.analyses[index] if plan is not None and len(plan.analyses) > index else None
    deadline = run_deadline(context_of(runtime))
    return {
        "question": state.get("multi_question", ""),
        "analysis": analysis,
        "run_deadline": deadline,
        "search_deadline": deadline,
    }


async def emit(state: WorkerState) -> MainUpdate:
    """A worker's last step: its answer, written back through the reducer channel only."""
    question = state.get("multi_question", "")
    index = state.get("multi_index", 0)
    answer = state.get("answer") or Answer(text="No answer was produced.", degraded=True)
    qa = QuestionAnswer(
        id=stable_id(str(index), question),
        index=index,
        question=question,
        answer=answer,
        errors=state.get("errors", []),
    )
    return {"multi_answers": [qa]}
