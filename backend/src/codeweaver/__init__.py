"""CodeWeaver: the main orchestration graph, the offline engine, the CLI and server wiring."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codeweaver.context import Context

__all__ = ["Context"]


def __getattr__(name: str) -> Any:
    # Imported on first use: `codeweaver ask` through a running server needs none of it.
    if name == "Context":
        from codeweaver.context import Context

        return Context
    raise AttributeError(f"module 'codeweaver' has no attribute {name!r}")
