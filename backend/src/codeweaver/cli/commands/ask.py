"""`codeweaver ask`: one question, with live progress, the answer and a sources table."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from pathlib import Path
from typing import Annotated

import typer

from codeweaver.cli.ask import run_question, start_up
from codeweaver.cli.console import (
    data_dir_path,
    err,
    full_disk_in_one_line,
    model_overrides,
    read_question,
    resolve_data_dir,
)
from codeweaver.cli.options import (
    DEFAULT_SERVER_TIMEOUT_S,
    AnswerModelOption,
    DataDirOption,
    JsonOption,
    JudgeModelOption,
    ModelOption,
    PlannerModelOption,
    ThreadOption,
    TimeoutOption,
)
from codeweaver.cli.turns import ServerTurnFailed, ask_with_progress, print_report, through_server


def ask(
    question: Annotated[
        str | None,
        typer.Argument(
            help="Your programming question; `-` reads it from standard input.",
            show_default=False,
        ),
    ] = None,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file", help="Read the question from this file (UTF-8), however long it is."
        ),
    ] = None,
    thread: ThreadOption = None,
    as_json: JsonOption = False,
    model: ModelOption = None,
    planner_model: PlannerModelOption = None,
    judge_model: JudgeModelOption = None,
    answer_model: AnswerModelOption = None,
    data_dir: DataDirOption = None,
    timeout: TimeoutOption = DEFAULT_SERVER_TIMEOUT_S,
) -> None:
    """Ask one question: streams which step is running, then the answer and its sources."""
    question = read_question(question, file)
    if not question.strip():
        err.print("[red]The question is empty.[/red] Ask something, for example:")
        err.print('  codeweaver ask "How do I reverse a list in Python?"')
        raise typer.Exit(code=2)
    overrides = model_overrides(model, planner_model, judge_model, answer_model)
    thread_id = thread or str(uuid.uuid4())
    # A running server on this data directory answers first: this process then imports nothing
    # of the graph, the store or the embedding stack.
    try:
        served = through_server(
            question, thread_id, data_dir_path(data_dir), overrides, timeout_s=timeout
        )
    except ServerTurnFailed as exc:
        err.print(str(exc), style="red", markup=False)
        raise typer.Exit(code=1) from exc
    folder = data_dir_path(data_dir)
    with full_disk_in_one_line(folder):
        with start_up():
            directory = resolve_data_dir(data_dir) if served is None else folder
        if as_json:
            report = served or asyncio.run(
                run_question(
                    question, thread_id=thread_id, data_dir=directory, context_overrides=overrides
                )
            )
            sys.stdout.write(json.dumps(report.__dict__, ensure_ascii=False, indent=2) + "\n")
            return
        report = served or ask_with_progress(question, thread_id, directory, overrides)
    print_report(report)
