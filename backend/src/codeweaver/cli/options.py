"""The options more than one command takes, each declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
HostOption = Annotated[str, typer.Option("--host", help="Interface to listen on.")]
ThreadOption = Annotated[
    str | None, typer.Option("--thread", help="Continue this thread (default: a new one).")
]
ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="provider:model (openai:gpt-4o-mini, ...), provider:model@URL for a model on a "
        "server of your own (openai:qwen2.5-coder@http://127.0.0.1:11434/v1), or 'offline'.",
    ),
]
PlannerModelOption = Annotated[
    str | None, typer.Option("--planner-model", help="Model for planning (as --model).")
]
JudgeModelOption = Annotated[
    str | None, typer.Option("--judge-model", help="Model for rerank and grading (as --model).")
]
AnswerModelOption = Annotated[
    str | None, typer.Option("--answer-model", help="Model that writes answers (as --model).")
]
DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        help="Where threads, the vector store and the cache live "
        "(default: $CODEWEAVER_HOME or ~/.local/share/codeweaver).",
    ),
]
DEFAULT_SERVER_URL = "http://127.0.0.1:2024"
ServerOption = Annotated[
    str | None,
    typer.Option(
        "--server",
        help=f"LangGraph Server URL (default: $CODEWEAVER_SERVER_URL or {DEFAULT_SERVER_URL}).",
    ),
]
DEFAULT_SERVER_TIMEOUT_S = 300.0
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        min=1.0,
        help="Seconds a running `codeweaver serve` may take to answer, in all, before giving up.",
    ),
]
