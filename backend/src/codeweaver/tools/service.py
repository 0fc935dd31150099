"""The tools run in this process: the `ask_codeweaver` graph and the documentation packs.

`codeweaver mcp` runs them for the local user; LangGraph Server's `/mcp` endpoint for each
authenticated caller. The caller's identity is the tenant everything runs as (its ingested
documents, its answer cache): it reaches the graph the way LangGraph Server passes it to a run
(`configurable.langgraph_auth_user_id`, which `codeweaver_runtime.tenancy` reads first), and the
packs directly. No argument of any tool can name another tenant.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from codeweaver.tools.protocol import AskArgs, ListArgs, SearchArgs, ToolArgs, ToolOutput

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig
    from langgraph.graph.state import CompiledStateGraph

    from codeweaver.context import Context
    from codeweaver.packs import Packs

logger = logging.getLogger(__name__)

PacksFor = Callable[[str], "Packs"]
"""tenant -> the packs that tenant can search."""
AskGraph = Callable[[], Awaitable["CompiledStateGraph[Any, Any, Any, Any]"]]
"""Returns the compiled `ask_codeweaver` graph (built on first use)."""


def build_local_ask_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The `ask_codeweaver` graph around a main graph of its own, without a checkpointer."""
    from codeweaver.workflows.orchestration.graph import build_main_graph
    from codeweaver.workflows.tool.graph import build_ask_graph

    return build_ask_graph(build_main_graph())


class LocalTools:
    """`ask`, `search_docs` and `list_libraries`, run here."""

    def __init__(
        self,
        *,
        context: Callable[[], Context] | None = None,
        ask_graph: AskGraph | None = None,
        packs_for: PacksFor | None = None,
        prepare: Callable[[], object] | None = None,
        after_call: Callable[[], Awaitable[None]] | None = None,
        concurrency: int | None = None,
    ) -> None:
        """Bind the collaborators; each is built on first use.

        Args:
            context: The run context of an `ask` (before the caller's tenant is set);
                default: the defaults, as LangGraph Server gives a run without one.
            ask_graph: Returns the compiled `ask_codeweaver` graph; default: one built here.
            packs_for: The packs of a tenant; default: the bundled documentation and the
                tenant's ingested documents.
            prepare: Runs once, off the event loop, before the first call (`codeweaver mcp`
                makes the data directory private).
            after_call: Runs after each call (`codeweaver mcp` lets go of the store).
            concurrency: How many calls run at once; more wait their turn. None: no bound.
        """
        self._context = context
        self._ask_graph = ask_graph
        self._packs_for = packs_for
        self._prepare = prepare
        self._after_call = after_call
        self._graph: CompiledStateGraph[Any, Any, Any, Any] | None = None
        self._lock = asyncio.Lock()
        self._prepared = False
        self._concurrency = concurrency
        self._slots: asyncio.Semaphore | None = None

    async def prepared(self) -> None:
        """Run `prepare` once."""
        async with self._lock:
            if not self._prepared:
                if self._prepare is not None:
                    await asyncio.to_thread(self._prepare)
                self._prepared = True

    async def warm_up(self) -> None:
        """Prepare, compile the graph and load the documentation before the first call.

        A failure is left for the call that needs the same thing to report.
        """
        from codeweaver_runtime import get_embedder, infrastructure

        try:
            await self.prepared()
            await self.graph()
            embedder = get_embedder(infrastructure().embedding_model)
            await asyncio.to_thread(embedder.preload)
            await self.packs(self.context(None).tenant).warm_up()
        except Exception:  # the call that needs it reports it
            logger.warning("warming up failed; the first call will try again", exc_info=True)

    async def graph(self) -> CompiledStateGraph[Any, Any, Any, Any]:
        """The `ask_codeweaver` graph, compiled once."""
        async with self._lock:
            if self._graph is None:
                if self._ask_graph is not None:
                    self._graph = await self._ask_graph()
                else:
                    self._graph = await asyncio.to_thread(build_local_ask_graph)
            return self._graph

    def packs(self, tenant: str) -> Packs:
        """The packs `tenant` can search."""
        if self._packs_for is not None:
            return self._packs_for(tenant)
        from codeweaver.packs import LocalPacks

        return LocalPacks(tenant)

    def context(self, identity: str | None) -> Context:
        """The run context of a call: the configured one, as the caller's tenant."""
        if self._context is not None:
            base = self._context()
        else:
            from codeweaver.context import Context

            base = Context()
        return replace(base, tenant=identity) if identity else base

    async def call(self, arguments: ToolArgs, identity: str | None) -> ToolOutput:
        """Run one checked call as `identity` (None: the local user, the context's tenant)."""
        await self.prepared()
        if self._concurrency is not None and self._slots is None:
            self._slots = asyncio.Semaphore(self._concurrency)
        async with self._slots or contextlib.nullcontext():
            return await self._run(arguments, identity)

    async def _run(self, arguments: ToolArgs, identity: str | None) -> ToolOutput:
        try:
            if isinstance(arguments, AskArgs):
                return await self.ask(arguments, identity)
            if isinstance(arguments, SearchArgs):
                return await self.search_docs(arguments, identity)
            assert isinstance(arguments, ListArgs)
            return await self.list_libraries(identity)
        finally:
            if self._after_call is not None:
                await self._after_call()

    async def ask(self, arguments: AskArgs, identity: str | None) -> ToolOutput:
        """The cited answer, as the `ask_codeweaver` graph gives it."""
        from codeweaver_runtime.tenancy import AUTH_USER_ID

        graph = await self.graph()
        config: RunnableConfig = {"configurable": {AUTH_USER_ID: identity}} if identity else {}
        payload: dict[str, Any] = {"question": arguments.question}
        if arguments.library:
            payload["library"] = arguments.library
        if arguments.version:
            payload["version"] = arguments.version
        output = await graph.ainvoke(payload, config, context=self.context(identity))
        structured = {
            "answer": output["answer"],
            "citations": list(output.get("citations", [])),
            "declined": bool(output.get("declined")),
            "decline_reason": output.get("decline_reason"),
        }
        return ToolOutput(text=output["answer"], structured=structured)

    async def search_docs(self, arguments: SearchArgs, identity: str | None) -> ToolOutput:
        """The best documentation entries, quoted with their sources."""
        from codeweaver.packs import PackError, find_pack
        from codeweaver.tools.render import quoted, render_search, search_structured
        from codeweaver.workflows.tool.graph import not_indexed, version_note

        packs = self.packs(self.context(identity).tenant)
        library = arguments.library
        note: str | None = None
        if library is not None:
            known = await packs.available()
            pack = find_pack(known, library)
            if pack is None:
                message = not_indexed(library, known)
                return ToolOutput(
                    text=message,
                    structured=search_structured(arguments.query, library, [], message),
                )
            library = pack.name
            note = version_note(pack, arguments.version)
        try:
            results = await packs.search(arguments.query, library=library, limit=arguments.limit)
        except PackError as exc:
            message = f"The documentation could not be searched: {exc}."
            return ToolOutput(
                text=message,
                structured=search_structured(arguments.query, library, [], message),
                is_error=True,
            )
        results = [quoted(result, arguments.query) for result in results]
        return ToolOutput(
            text=render_search(arguments.query, library, results, note),
            structured=search_structured(arguments.query, library, results, note),
        )

    async def list_libraries(self, identity: str | None) -> ToolOutput:
        """The packs the caller can search."""
        from codeweaver.tools.render import libraries_structured, render_libraries

        found = await self.packs(self.context(identity).tenant).available()
        return ToolOutput(text=render_libraries(found), structured=libraries_structured(found))
