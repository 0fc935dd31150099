"""The `ask_codeweaver` graph: what the agents' `ask` tool runs, and who it runs as."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from codeweaver.context import Context, context_of
from codeweaver.packs import DocResult, PackInfo
from codeweaver.tools.protocol import AskArgs, ListArgs
from codeweaver.tools.service import LocalTools
from codeweaver.workflows.tool.graph import LIBRARY_NOT_INDEXED, build_ask_graph, version_note
from codeweaver_schema import Answer, Citation
from codeweaver_schema.render import answer_message

from .conftest import MakeHarness

PYTHON = PackInfo("python", "3.11", "bundled", "The Python 3.11 documentation", 12_918)


@dataclass
class FakePacks:
    tenant: str
    listed: list[PackInfo] = field(default_factory=lambda: [PYTHON])

    async def warm_up(self) -> None:
        return None

    async def available(self) -> list[PackInfo]:
        return self.listed

    async def search(self, query: str, *, library: str | None, limit: int) -> list[DocResult]:
        return []


class FakeMainState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    answer: Answer | None


@dataclass
class FakeMain:
    """A main graph that answers one fixed cited answer and records each run's context."""

    contexts: list[Context] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)

    def compiled(self) -> CompiledStateGraph[Any, Context, Any, Any]:
        async def answer(state: FakeMainState, runtime: Runtime[Context]) -> dict[str, Any]:
            self.contexts.append(context_of(runtime))
            self.questions.append(str(state["messages"][-1].content))
            final = Answer(
                text="**Use `reversed`** [1]",
                citations=[
                    Citation(
                        n=1,
                        evidence_id="e1",
                        title="Python 3.11 docs: reversed — Built-in Functions",
                        source="local",
                        url="https://docs.python.org/3.11/library/functions.html#reversed",
                        file="python-docs-3.11/library/functions.rst",
                        locator="https://docs.python.org/3.11/library/functions.html#reversed",
                    )
                ],
            )
            return {"answer": final, "messages": [answer_message(final)]}

        builder = StateGraph(FakeMainState, context_schema=Context)
        builder.add_node("answer", answer)
        builder.add_edge(START, "answer")
        builder.add_edge("answer", END)
        return builder.compile()


def graph_with(main: FakeMain, asked: list[str]) -> Any:
    def packs_for(tenant: str) -> FakePacks:
        asked.append(tenant)
        return FakePacks(tenant)

    return build_ask_graph(main.compiled(), packs_for=packs_for)


async def test_the_answer_comes_with_its_citations_packs_and_versions() -> None:
    main, tenants = FakeMain(), list[str]()
    output = await graph_with(main, tenants).ainvoke(
        {"question": "How do I reverse a list?"}, context=Context(chat_model="offline")
    )
    assert set(output) == {"answer", "citations", "declined", "decline_reason"}
    assert output["answer"].startswith("**Use `reversed`** [1]")
    assert "**Sources**" in output["answer"]
    assert output["citations"] == [
        {
            "n": 1,
            "title": "Python 3.11 docs: reversed — Built-in Functions",
            "url": "https://docs.python.org/3.11/library/functions.html#reversed",
            "file": "python-docs-3.11/library/functions.rst",
            "source": "local",
            "pack": "python",
            "version": "3.11",
        }
    ]
    assert (output["declined"], output["decline_reason"]) == (False, None)
    assert tenants == [], "no library: the packs are not consulted"


async def test_a_library_without_a_pack_is_declined_without_searching() -> None:
    main, tenants = FakeMain(), list[str]()
    output = await graph_with(main, tenants).ainvoke(
        {"question": "How do I drop NaN rows?", "library": "pandas"}, context=Context()
    )
    assert output["declined"] is True
    assert output["decline_reason"] == LIBRARY_NOT_INDEXED
    assert "no documentation for **pandas**" in output["answer"]
    assert "`python` 3.11" in output["answer"]
    assert main.contexts == []


async def test_a_library_restricts_the_run_to_its_pack_and_a_cache_of_its_own() -> None:
    main, tenants = FakeMain(), list[str]()
    base = Context(chat_model="offline")
    output = await graph_with(main, tenants).ainvoke(
        {"question": "How do I reverse a list?", "library": "Python", "version": "3.12"},
        context=base,
    )
    [ran] = main.contexts
    assert ran.search_library == "python"
    assert ran.search_sources == ["local"]
    assert ran.cache_corpus_version == f"{base.cache_corpus_version}+python"
    assert output["answer"].startswith("_You asked about python 3.12; CodeWeaver has the python")


async def test_a_library_the_question_does_not_name_is_named_for_the_engine() -> None:
    """With `library: pandas`, "group by a column" was declined as a question about SQL."""
    main = FakeMain()
    pandas = PackInfo("pandas", "3.1.1", "installed", "pandas 3.1.1", 3_569)

    def packs_for(tenant: str) -> FakePacks:
        return FakePacks(tenant, listed=[PYTHON, pandas])

    graph: Any = build_ask_graph(main.compiled(), packs_for=packs_for)
    for question in (
        "How do I group by a column and sum another?",
        "How do I drop NaN rows in a pandas DataFrame?",
        "How do I reverse a list?",
    ):
        library = "python" if "reverse" in question else "Pandas"
        await graph.ainvoke({"question": question, "library": library}, context=Context())
    assert main.questions == [
        "pandas: How do I group by a column and sum another?",
        "How do I drop NaN rows in a pandas DataFrame?",
        "How do I reverse a list?",
    ]


def test_a_version_note_only_for_another_version() -> None:
    assert version_note(PYTHON, "3.11") is None
    assert version_note(PYTHON, "v3.11.4") is None
    assert version_note(PYTHON, "3") is None
    assert version_note(PYTHON, None) is None
    note = version_note(PYTHON, "3.12")
    assert note is not None
    assert "3.12" in note
    assert "3.11" in note


async def test_the_tools_run_as_the_authenticated_caller_never_as_an_argument() -> None:
    main, tenants = FakeMain(), list[str]()
    tools = LocalTools(
        context=lambda: Context(chat_model="offline", tenant="default"),
        ask_graph=lambda: _ready(graph_with(main, tenants)),
        packs_for=lambda tenant: FakePacks(tenant),
    )
    await tools.ask(AskArgs("How do I reverse a list?", library="python"), "alice")
    await tools.ask(AskArgs("How do I reverse a list?", library="python"), None)
    assert [c.tenant for c in main.contexts] == ["alice", "default"]
    assert tenants == ["alice", "default"]


async def _ready(graph: Any) -> Any:
    return graph


async def test_the_real_main_graph_answers_through_the_tool_graph(
    make_harness: MakeHarness,
) -> None:
    h = make_harness()
    graph: Any = build_ask_graph(h.graph)
    output = await graph.ainvoke(
        {"question": "How do I reverse a list in Python?"},
        {"configurable": {"thread_id": "tool"}},
        context=h.context,
    )
    assert "**Sources**" in output["answer"]
    assert output["citations"]
    assert output["citations"][0]["file"].startswith("docs/")
    assert output["citations"][0]["pack"] == "documents"
    assert output["declined"] is False


@dataclass
class SlowPacks(FakePacks):
    """Packs that take a while to list, counting how many listings overlap."""

    state: dict[str, int] = field(default_factory=lambda: {"now": 0, "most": 0})

    async def available(self) -> list[PackInfo]:
        self.state["now"] += 1
        self.state["most"] = max(self.state["most"], self.state["now"])
        await asyncio.sleep(0.05)
        self.state["now"] -= 1
        return self.listed


async def test_calls_beyond_the_bound_wait_their_turn() -> None:
    shared: dict[str, int] = {"now": 0, "most": 0}
    bounded = LocalTools(packs_for=lambda tenant: SlowPacks(tenant, state=shared), concurrency=2)
    await asyncio.gather(*(bounded.call(ListArgs(), f"user{n}") for n in range(6)))
    assert shared["most"] == 2
    free: dict[str, int] = {"now": 0, "most": 0}
    unbounded = LocalTools(packs_for=lambda tenant: SlowPacks(tenant, state=free))
    await asyncio.gather(*(unbounded.call(ListArgs(), f"user{n}") for n in range(6)))
    assert free["most"] == 6
