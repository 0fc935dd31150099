"""Run contexts built from whatever a client sends, for the tests of every package's context."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from codeweaver_runtime import ContextError

C = TypeVar("C")


def sane_or_refused(make: Callable[..., C], values: dict[str, Any]) -> C | None:
    """The context `make` builds from a client's `values`, or None when it refused them.

    A refusal must be clear: a `ContextError` whose message starts with "run context: ".
    """
    try:
        return make(**values)
    except ContextError as exc:
        refusal = str(exc)
    assert refusal.startswith("run context: ")
    return None
