"""`codeweaver chat`: a conversation in one thread, in the terminal."""

from __future__ import annotations

import uuid

from rich.markdown import Markdown

from codeweaver.cli.ask import RunReport
from codeweaver.cli.console import (
    err,
    full_disk_in_one_line,
    model_overrides,
    out,
    resolve_data_dir,
    sources_table,
    terminal_text,
)
from codeweaver.cli.options import (
    DEFAULT_SERVER_TIMEOUT_S,
    AnswerModelOption,
    DataDirOption,
    JudgeModelOption,
    ModelOption,
    PlannerModelOption,
    ThreadOption,
    TimeoutOption,
)
from codeweaver.cli.turns import ServerTurnFailed, ask_with_progress, through_server

CHAT_HELP = "/new starts a new thread · /sources lists the last answer's sources · /quit leaves"


def chat(
    thread: ThreadOption = None,
    model: ModelOption = None,
    planner_model: PlannerModelOption = None,
    judge_model: JudgeModelOption = None,
    answer_model: AnswerModelOption = None,
    data_dir: DataDirOption = None,
    timeout: TimeoutOption = DEFAULT_SERVER_TIMEOUT_S,
) -> None:
    """Chat in a thread: follow-ups see the conversation. /new, /sources, /quit."""
    overrides = model_overrides(model, planner_model, judge_model, answer_model)
    directory = resolve_data_dir(data_dir)
    thread_id = thread or str(uuid.uuid4())
    last: RunReport | None = None
    err.print(f"[dim]thread {thread_id} · {CHAT_HELP}[/dim]")
    while True:
        try:
            line = terminal_text(input("you> ")).strip()
        except (EOFError, KeyboardInterrupt):
            err.print()
            break
        if not line:
            continue
        command = line.lower()
        if command in ("/quit", "/exit", "/q"):
            break
        if command == "/new":
            thread_id, last = str(uuid.uuid4()), None
            err.print(f"[dim]new thread {thread_id}[/dim]")
            continue
        if command == "/sources":
            if last is None or not last.citations:
                err.print("[yellow]No sources yet: the last answer cited none.[/yellow]")
            else:
                out.print(sources_table(last.citations))
            continue
        if command.startswith("/"):
            err.print(f"[yellow]Unknown command {line}.[/yellow] {CHAT_HELP}")
            continue
        try:
            served = through_server(line, thread_id, directory, overrides, timeout_s=timeout)
        except ServerTurnFailed as exc:
            # One turn failed, not the conversation: the next question may well be answered.
            err.print(str(exc), style="red", markup=False)
            continue
        with full_disk_in_one_line(directory):
            last = served or ask_with_progress(line, thread_id, directory, overrides)
        out.print(Markdown(last.answer))
        if last.warning:
            err.print(f"[yellow]⚠ {last.warning}[/yellow]")
        hit = " · cache hit" if last.cache_hit else ""
        err.print(
            f"[dim]{len(last.citations)} source(s) (/sources) · route {last.route}{hit} · "
            f"{last.seconds:.1f}s[/dim]"
        )
    err.print(f"[dim]bye · resume with: codeweaver chat --thread {thread_id}[/dim]")
