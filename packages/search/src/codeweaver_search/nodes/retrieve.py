"""One node per source, fanned out with `Send`; failures become records, never exceptions."""

from __future__ import annotations

import asyncio
from typing import Literal

from langgraph.errors import NodeError, NodeTimeoutError
from langgraph.runtime import Runtime
from langgraph.types import Command

from codeweaver_engine.search import normalise_query
from codeweaver_runtime import flow_step
from codeweaver_schema import ErrorKind, ErrorRecord, SourceName
from codeweaver_search.context import SearchContext
from codeweaver_search.nodes.deps import SearchDeps, SourceNode, search_context
from codeweaver_search.sources import NeedsWarmUp, PartialResults, SourceError
from codeweaver_search.state import SearchUpdate, SourceTask, SourceTaskState


def node_name(source: SourceName) -> str:
    """The node that asks a source: `search_stackoverflow`, `search_github`, ..."""
    return f"search_{source}"


def make_source_node(source: SourceName, deps: SearchDeps) -> SourceNode:
    """A node that asks one source and adds what it found to the pool.

    It raises on failure, so that the retry policy can decide and a cached response is never a
    failure; the node's error handler (`record_source_failure`) turns the last failure into an
    `ErrorRecord`.
    """

    @flow_step(node_name(source))
    async def search_source(
        state: SourceTaskState, runtime: Runtime[SearchContext]
    ) -> SearchUpdate:
        context = search_context(runtime)
        task = state["search_task"]
        client = deps.sources_for(context).get(source)
        if client is None:
            raise SourceError(source, "skipped", f"no {source} source is configured")
        if isinstance(client, NeedsWarmUp):
            # One-time setup (loading the documentation) is not part of a search's time budget; the
            # node's own timeout still bounds it.
            await client.warm_up()
        try:
            async with asyncio.timeout(context.search_source_timeout_s):
                found = await client.search(
                    task.query, intent=task.intent, language=task.language, limit=task.limit
                )
        except TimeoutError as exc:
            raise SourceError(
                source, "timeout", f"no answer within {context.search_source_timeout_s:g} s"
            ) from exc
        except PartialResults as partial:
            record = ErrorRecord(
                node=node_name(source),
                kind=partial.kind,
                message=f"round {task.iteration}: {partial.message}",
                source=source,
            )
            return {"search_pool": partial.found, "errors": [record]}
        return {"search_pool": found}

    return search_source


def raw_response_key(state: SourceTaskState) -> str:
    """Cache key of a source's raw results: everything that decides them.

    The source's scope (whose documents in which store for the local corpus, the API's address
    and key for a web source: `result_scope`), the normalised query and what shapes the request.
    Without the scope, one tenant was served another's ingested documents for an hour.
    """
    task: object = state.get("search_task")
    if not isinstance(task, SourceTask):
        # Graph drawing probes the key with placeholder input.
        return ""
    return "|".join(
        [
            task.source,
            task.scope,
            normalise_query(task.query),
            task.intent,
            task.language,
            str(task.limit),
        ]
    )


async def record_source_failure(
    state: SourceTaskState, error: NodeError
) -> Command[Literal["rerank"]]:
    """Error handler of the source nodes: the failure, as a record the run carries on with.

    A handler does not inherit its node's edges, so it names `rerank` itself: when every source
    fails, the round still ends in a verdict and a (possibly empty) evidence list.
    """
    task = state["search_task"]
    exc = error.error
    kind: ErrorKind
    if isinstance(exc, SourceError):
        kind, message = exc.kind, exc.message
        if exc.retry_after is not None:
            message += f" (retry after {exc.retry_after:.0f} s)"
    elif isinstance(exc, NodeTimeoutError):
        kind, message = "timeout", f"node timed out after {exc.elapsed:.1f} s"
    else:
        kind, message = "http", f"{type(exc).__name__}: {exc}"
    return Command(
        goto="rerank",
        update={
            "errors": [
                ErrorRecord(
                    node=error.node,
                    kind=kind,
                    message=f"round {task.iteration}: {message}",
                    source=task.source,
                )
            ]
        },
    )
