import asyncio
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from codeweaver_multi_question import MultiOutput, WorkerInput, build_multi_question_graph
from codeweaver_schema import Answer, Plan, QuestionAnswer, stable_id


class WorkerState(WorkerInput, MultiOutput, total=False):
    answer: Answer | None


def build_worker(delay_s: float, events: list[str] | None = None) -> Any:
    """A worker that takes `delay_s` to answer and appends `start`/`end` to `events`."""
    log = events if events is not None else []

    async def work(state: WorkerState) -> dict[str, Any]:
        log.append("start")
        await asyncio.sleep(delay_s)
        log.append("end")
        question = state["multi_question"]
        answer = Answer(text=f"answer to {question}", grounded=True)
        qa = QuestionAnswer(
            id=stable_id(str(state["multi_index"]), question),
            index=state["multi_index"],
            question=question,
            answer=answer,
        )
        # `answer` is a scalar the parent also has: it must not leak back.
        return {"answer": answer, "multi_answers": [qa]}

    builder = StateGraph(WorkerState, input_schema=WorkerInput, output_schema=MultiOutput)
    builder.add_node("work", work)
    builder.add_edge(START, "work")
    builder.add_edge("work", END)
    return builder.compile()


class Parent(TypedDict, total=False):
    plan: Plan | None
    answer: Answer | None
    multi_answers: list[QuestionAnswer]


def plan_of(*questions: str) -> Plan:
    return Plan(kind="multiple_questions", questions=list(questions), reason="test")


async def test_two_questions_run_in_parallel_and_write_back_only_answers() -> None:
    events: list[str] = []
    graph = build_multi_question_graph(worker=build_worker(0.05, events))
    out = await graph.ainvoke({"plan": plan_of("What is a list?", "What is a dict?")})
    # In parallel both workers start before either ends; one after the other would interleave.
    assert events == ["start", "start", "end", "end"], events
    assert set(out) == {"multi_answers"}
    assert sorted(qa.index for qa in out["multi_answers"]) == [0, 1]
    assert {qa.answer.text for qa in out["multi_answers"]} == {
        "answer to What is a list?",
        "answer to What is a dict?",
    }


async def test_as_a_node_of_a_parent_with_a_checkpointer() -> None:
    sub = build_multi_question_graph(worker=build_worker(0.0))
    builder = StateGraph(Parent)
    builder.add_node("multi_question", sub)
    builder.add_edge(START, "multi_question")
    builder.add_edge("multi_question", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config: RunnableConfig = {"configurable": {"thread_id": "t1"}}
    out = await graph.ainvoke({"plan": plan_of("a?", "b?"), "answer": None}, config)
    assert len(out["multi_answers"]) == 2
    assert out["answer"] is None


async def test_more_than_two_questions_are_never_fanned_out() -> None:
    graph = build_multi_question_graph(worker=build_worker(0.0))
    out = await graph.ainvoke({"plan": plan_of("a?", "b?", "c?")})
    assert len(out["multi_answers"]) == 2


async def test_no_plan_means_no_work() -> None:
    graph = build_multi_question_graph(worker=build_worker(0.0))
    out = await graph.ainvoke({"plan": None})
    assert not (out or {}).get("multi_answers")
