"""The per-run flow log: every node records when it ran and for how long."""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec

from langgraph.types import Overwrite

from codeweaver_schema import FlowStep

P = ParamSpec("P")
Update = dict[str, Any]


def add_flow_step(update: Update, step: FlowStep) -> Update:
    """Add a flow step to a node's update, inside an `Overwrite` if the node resets the log."""
    current = update.get("flow")
    if isinstance(current, Overwrite):
        update["flow"] = Overwrite([*current.value, step])
    else:
        update["flow"] = [*(current or []), step]
    return update


def traced(
    name: str,
) -> Callable[[Callable[P, Awaitable[Update]]], Callable[P, Awaitable[Update]]]:
    """Decorate an async node so its update carries a `FlowStep` with its duration."""

    def decorate(node: Callable[P, Awaitable[Update]]) -> Callable[P, Awaitable[Update]]:
        @functools.wraps(node)
        async def timed(*args: P.args, **kwargs: P.kwargs) -> Update:
            started = time.time()
            clock = time.perf_counter()
            update = await node(*args, **kwargs)
            step = FlowStep(
                node=name, started_at=started, duration_ms=(time.perf_counter() - clock) * 1000
            )
            return add_flow_step(dict(update), step)

        return timed

    return decorate
