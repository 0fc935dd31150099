"""The `ask_codeweaver` graph: what the agents' `ask` tool runs, as a graph of its own.

One call is one fresh turn of the main graph (a tool call has no thread): a question in, the
cited answer out, with what an agent needs beside the Markdown: the citations (with the pack
and version each quotes), and whether CodeWeaver declined. A `library` restricts the search to
that pack; one CodeWeaver does not have is declined here, naming the packs it has, without a
search. A `version` other than the pack's is said at the top of the answer.

The MCP tools (`codeweaver.tools`) run it in process over stdio and in the server's `/mcp`
endpoint; REST clients can run it like any graph. LangGraph Server's own `/mcp`, which would
list every graph as a tool, is switched off (`http.disable_mcp` in `langgraph.json`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from codeweaver.context import Context, context_of
from codeweaver.packs import LocalPacks, PackInfo, Packs, find_pack, pack_of
from codeweaver.workflows.orchestration.nodes.common import message_text
from codeweaver_engine.libraries import known_libraries, libraries_named, mention, normalized
from codeweaver_runtime.tenancy import run_tenant
from codeweaver_schema import Citation
from codeweaver_schema.render import escape_markdown

TOOL_NAME = "ask_codeweaver"
"""The graph id in `langgraph.json`."""
LIBRARY_NOT_INDEXED = "library_not_indexed"
"""`decline_reason` when the question names a library CodeWeaver has no pack of."""

PacksFor = Callable[[str], Packs]
"""tenant -> the packs that tenant can search."""


class AskInput(BaseModel):
    """One programming question, optionally about one library and version."""

    question: str = Field(
        description="A programming question, in English or Korean, for example 'How do I "
        "reverse a list in Python?'. Put error messages and versions in it verbatim.",
        min_length=1,
    )
    library: str | None = Field(
        default=None,
        description="Answer from this library's documentation only (a name list_libraries "
        "gives, such as 'python'); default: every pack.",
    )
    version: str | None = Field(
        default=None,
        description="The library version the question is about; when CodeWeaver has "
        "another, the answer says so.",
    )


class CitationOut(TypedDict):
    """One numbered source of the answer."""

    n: int
    title: str
    url: str | None
    file: str | None
    source: str
    pack: str | None
    """The pack it quotes (`python`, `documents`); None for a web source."""
    version: str | None
    """That pack's version; None for web sources and ingested documents."""


class AskOutput(TypedDict):
    """The cited answer and what an agent needs to act on it."""

    answer: str
    """Markdown: the answer with inline citations [n], then a Sources list with their links."""
    citations: list[CitationOut]
    declined: bool
    """CodeWeaver found nothing that answers the question and said so instead."""
    decline_reason: str | None
    """`out_of_scope`, `below_relevance_floor`, `no_evidence` or `library_not_indexed`."""


class AskState(TypedDict, total=False):
    """The question and, once the main graph has run, its answer."""

    question: str
    library: str | None
    version: str | None
    answer: str
    citations: list[CitationOut]
    declined: bool
    decline_reason: str | None


def version_note(pack: PackInfo, asked: str | None) -> str | None:
    """What to say when the question's version is not the pack's ('3.12' against '3.11').

    A version the pack's starts with, or that starts with the pack's, is the same one
    (`3` and `3.11.4` are 3.11).
    """
    if not asked or not asked.strip() or pack.version is None:
        return None
    want = asked.strip().lstrip("vV")
    have = pack.version
    if want == have or want.startswith(have + ".") or have.startswith(want + "."):
        return None
    return (
        f"You asked about {pack.name} {escape_markdown(want)}; CodeWeaver has the {pack.name} "
        f"{have} documentation, so this quotes {have}: check what changed in "
        f"{escape_markdown(want)}."
    )


def not_indexed(library: str, packs: list[PackInfo]) -> str:
    """The decline for a library CodeWeaver has no pack of: what it does have."""
    have = ", ".join(f"`{p.name}`" + (f" {p.version}" if p.version else "") for p in packs)
    return (
        f"CodeWeaver has no documentation for **{escape_markdown(library)}**, so it did not "
        "search. It can "
        f"answer from: {have}. Ask again without `library` to search everything it has, or "
        "look the library's documentation up elsewhere."
    )


def citation_of(citation: Citation) -> CitationOut:
    """A citation of the answer with the pack and version it quotes.

    A citation of a documentation pack says which (`Citation.pack`); an older one (an answer
    cached before citations did) is told by its file or address.
    """
    pack, version = (
        (citation.pack, citation.version) if citation.pack else pack_of(citation.file, citation.url)
    )
    return {
        "n": citation.n,
        "title": citation.title,
        "url": citation.url,
        "file": citation.file,
        "source": citation.source,
        "pack": pack,
        "version": version,
    }


def naming_library(question: str, pack: PackInfo) -> str:
    """The question as the engine must read it when `library` chose the pack: naming it.

    The engine reads a question's library from its words (its scope, its floor, which pack
    answers): "how do I group by a column and sum another", asked with `library: pandas`, was
    declined as a question about SQL. A question that already names the library is kept as is.
    """
    libraries = [lib for lib in known_libraries() if normalized(pack.name) in lib.keys]
    if not libraries or any(lib in libraries_named(question) for lib in libraries):
        return question
    return f"{mention(libraries[0])}: {question}"


def build_ask_graph(
    main: CompiledStateGraph[Any, Context, Any, Any],
    *,
    packs_for: PacksFor | None = None,
) -> CompiledStateGraph[AskState, Context, AskInput, AskOutput]:
    """Compile the tool graph around `main`, the compiled main graph it runs for each call.

    Args:
        main: The main graph.
        packs_for: The packs of a tenant, to check a `library`; default: the bundled
            documentation and the tenant's ingested documents.
    """
    packs_of = packs_for or (lambda tenant: LocalPacks(tenant))

    async def ask(state: AskState, runtime: Runtime[Context]) -> AskState:
        context = context_of(runtime)
        library = (state.get("library") or "").strip()
        question = state.get("question", "")
        note: str | None = None
        if library:
            packs = await packs_of(run_tenant(context)).available()
            pack = find_pack(packs, library)
            if pack is None:
                return {
                    "answer": not_indexed(library, packs),
                    "citations": [],
                    "declined": True,
                    "decline_reason": LIBRARY_NOT_INDEXED,
                }
            note = version_note(pack, state.get("version"))
            question = naming_library(question, pack)
            context = replace(
                context,
                search_library=pack.name,
                search_sources=["local"],
                # Answers from one pack are kept apart from answers from all of them.
                cache_corpus_version=f"{context.cache_corpus_version}+{pack.name}",
            )
        result = await main.ainvoke({"messages": [HumanMessage(question)]}, context=context)
        replies = [m for m in result.get("messages", []) if isinstance(m, AIMessage)]
        if not replies:
            raise RuntimeError("CodeWeaver's main graph ended the turn without an answer")
        answer = result.get("answer")
        text = message_text(replies[-1])
        return {
            "answer": f"_{note}_\n\n{text}" if note else text,
            "citations": [citation_of(c) for c in (answer.citations if answer else [])],
            "declined": bool(answer and answer.declined),
            "decline_reason": answer.decline_reason if answer else None,
        }

    builder = StateGraph(
        AskState, input_schema=AskInput, output_schema=AskOutput, context_schema=Context
    )
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", END)
    return builder.compile(name=TOOL_NAME)
