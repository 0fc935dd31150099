"""The `codeweaver` command line."""

from __future__ import annotations

import asyncio
import json
import sys
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

app = typer.Typer(
    help="CodeWeaver answers programming questions with cited, grounded answers.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)
out = Console()

DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        help="Where threads, the vector store and the cache live "
        "(default: $CODEWEAVER_HOME or ~/.local/share/codeweaver).",
    ),
]


@app.callback()
def _group() -> None:
    """CodeWeaver answers programming questions with cited, grounded answers."""


@dataclass
class RunReport:
    """What one `ask` produced, in the shape of `--json`."""

    answer: str
    citations: list[dict[str, Any]]
    route: str | None
    routing_reason: str | None
    question_type: str | None
    intent: str | None
    cache_hit: bool
    errors: list[dict[str, Any]]
    model_calls: int
    nodes: list[str]
    thread_id: str
    seconds: float
    warning: str | None = None
    flow: list[dict[str, Any]] = field(default_factory=list)


def _node_path(namespace: tuple[str, ...], node: str) -> str:
    parents = [part.split(":", 1)[0] for part in namespace]
    return "/".join([*parents, node])


async def run_question(
    question: str,
    *,
    thread_id: str,
    data_dir: Path,
    context_overrides: dict[str, Any],
    on_node: Any = None,
) -> RunReport:
    """Ask one question in a thread, streaming node progress to `on_node`."""
    from langchain_core.messages import HumanMessage

    from codeweaver.context import Context
    from codeweaver.persistence import open_checkpointer
    from codeweaver.workflows.orchestration.graph import build_main_graph
    from codeweaver_runtime import ModelCallCounter, close_qdrant_clients

    context = replace(Context(), **context_overrides)
    if not context.qdrant_url and not context.qdrant_path:
        context = replace(context, qdrant_path=str(data_dir / "qdrant"))
    counter = ModelCallCounter()
    started = time.perf_counter()
    nodes: list[str] = []
    async with open_checkpointer(data_dir) as saver:
        graph = build_main_graph(checkpointer=saver)
        config: Any = {"configurable": {"thread_id": thread_id}, "callbacks": [counter]}
        stream: Any = graph.astream(
            {"messages": [HumanMessage(question)]},
            config,
            context=context,
            stream_mode="updates",
            subgraphs=True,
        )
        async for namespace, update in stream:
            for node in update or {}:
                path = _node_path(namespace, node)
                nodes.append(path)
                if on_node is not None:
                    on_node(path)
        values = (await graph.aget_state(config)).values
    await close_qdrant_clients()
    answer = values.get("answer")
    routing = values.get("routing")
    analysis = values.get("analysis")
    decision = values.get("cache_decision")
    return RunReport(
        answer=answer.text if answer else "",
        citations=[
            {
                "n": c.n,
                "title": c.title,
                "url": c.url,
                "file": c.file,
                "source": c.source,
                "evidence_id": c.evidence_id,
            }
            for c in (answer.citations if answer else [])
        ],
        route=routing.route if routing else None,
        routing_reason=routing.reason if routing else None,
        question_type=analysis.question_type if analysis else None,
        intent=analysis.intent if analysis else None,
        cache_hit=bool(decision and decision.hit),
        errors=[e.model_dump(exclude={"id"}) for e in values.get("errors", [])],
        model_calls=counter.calls,
        nodes=nodes,
        thread_id=thread_id,
        seconds=round(time.perf_counter() - started, 3),
        warning=answer.warning if answer else None,
        flow=[{"node": s.node, "ms": round(s.duration_ms, 1)} for s in values.get("flow", [])],
    )


def _resolve_data_dir(data_dir: Path | None) -> Path:
    from codeweaver_runtime import default_data_dir

    return (data_dir or default_data_dir()).expanduser()


def _print_report(report: RunReport) -> None:
    out.print(Markdown(report.answer))
    if report.warning:
        err.print(f"[yellow]⚠ {report.warning}[/yellow]")
    if report.citations:
        table = Table(title="Sources", show_lines=False)
        table.add_column("#", justify="right")
        table.add_column("Title")
        table.add_column("Source")
        table.add_column("Where")
        for c in report.citations:
            table.add_row(str(c["n"]), c["title"], c["source"], c["url"] or c["file"] or "")
        out.print(table)
    hit = " · cache hit" if report.cache_hit else ""
    err.print(
        f"[dim]route {report.route} ({report.routing_reason}){hit} · "
        f"{report.model_calls} model call(s) · {report.seconds:.1f}s · "
        f"thread {report.thread_id}[/dim]"
    )


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="Your programming question.")],
    thread: Annotated[
        str | None, typer.Option("--thread", help="Continue this thread (default: a new one).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    model: Annotated[
        str | None,
        typer.Option("--model", help="provider:model (openai:gpt-4o-mini, ...) or 'offline'."),
    ] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Ask one question: streams which step is running, then the answer and its sources."""
    if not question.strip():
        err.print("[red]The question is empty.[/red] Ask something, for example:")
        err.print('  codeweaver ask "How do I reverse a list in Python?"')
        raise typer.Exit(code=2)
    overrides: dict[str, Any] = {}
    if model:
        overrides["chat_model"] = model
    directory = _resolve_data_dir(data_dir)
    thread_id = thread or str(uuid.uuid4())

    if as_json:
        report = asyncio.run(
            run_question(
                question, thread_id=thread_id, data_dir=directory, context_overrides=overrides
            )
        )
        sys.stdout.write(json.dumps(report.__dict__, ensure_ascii=False, indent=2) + "\n")
        return

    with err.status("planning…") as status:

        def progress(path: str) -> None:
            status.update(f"{path} done…")

        report = asyncio.run(
            run_question(
                question,
                thread_id=thread_id,
                data_dir=directory,
                context_overrides=overrides,
                on_node=progress,
            )
        )
    _print_report(report)


def main() -> None:
    """Entry point."""
    app()
