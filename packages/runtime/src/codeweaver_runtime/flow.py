"""The per-run flow log and progress: every node records when it ran and for how long.

While a node runs, clients of the `custom` stream get `{"type": "progress", "node": ...,
"status": "started"}` and, when it is done, `"status": "finished"` with its duration: what
standard clients (agent-chat-ui's `onCustomEvent`, the SDK's `stream_mode="custom"`) can show
while an answer is being prepared.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ParamSpec, TypeVar, cast

from langgraph.config import get_stream_writer
from langgraph.types import Overwrite, StreamWriter

from codeweaver_schema import FlowStep

P = ParamSpec("P")
Update = dict[str, Any]
U = TypeVar("U", bound=Mapping[str, Any])


def add_flow_step(update: Update, step: FlowStep) -> Update:
    """Add a flow step to a node's update, inside an `Overwrite` if the node resets the log."""
    current = update.get("flow")
    if isinstance(current, Overwrite):
        update["flow"] = Overwrite([*current.value, step])
    else:
        update["flow"] = [*(current or []), step]
    return update


PROGRESS_EVENT = "progress"
"""The `type` of the progress events a node sends on the `custom` stream."""


def _writer() -> StreamWriter | None:
    try:
        return get_stream_writer()
    except RuntimeError:
        # Called outside a graph run (a node function tested on its own): nobody listens.
        return None


def flow_step(
    name: str,
) -> Callable[[Callable[P, Awaitable[U]]], Callable[P, Awaitable[U]]]:
    """Decorate an async node: its update carries a `FlowStep`, and it reports its progress.

    The node's update type is kept, so its keys stay checked where the node is used.
    """

    def decorate(node: Callable[P, Awaitable[U]]) -> Callable[P, Awaitable[U]]:
        @functools.wraps(node)
        async def timed(*args: P.args, **kwargs: P.kwargs) -> U:
            started = time.time()
            clock = time.perf_counter()
            write = _writer()
            if write is not None:
                write({"type": PROGRESS_EVENT, "node": name, "status": "started"})
            update = await node(*args, **kwargs)
            step = FlowStep(
                node=name, started_at=started, duration_ms=(time.perf_counter() - clock) * 1000
            )
            if write is not None:
                write(
                    {
                        "type": PROGRESS_EVENT,
                        "node": name,
                        "status": "finished",
                        "duration_ms": round(step.duration_ms, 1),
                    }
                )
            # The same update plus `flow`, which every graph's update type declares.
            return cast(U, add_flow_step(dict(update), step))

        return timed

    return decorate
