"""CodeWeaver: the main orchestration graph, the offline engine, the CLI and server wiring."""

from codeweaver.context import Context

__all__ = ["Context"]
