"""Reducers for the list channels of the shared state.

Subgraphs added as nodes hand their whole output lists back to the parent, and parallel `Send`
branches write to the same channel in one step. A reducer that only appended would duplicate
every item the parent already had, so every list here merges by the items' stable `id`.
`langgraph.types.Overwrite` bypasses these reducers when a turn starts afresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar


class HasId(Protocol):
    """Anything with a stable identifier."""

    @property
    def id(self) -> str:
        """The identifier two copies of the same item share."""
        ...


T = TypeVar("T", bound=HasId)


def merge_by_id(left: Sequence[T] | None, right: Sequence[T] | T | None) -> list[T]:
    """Merge two lists of records, keeping order of first appearance and one copy per id.

    A record that reappears replaces the earlier copy in place, so a later, richer version of the
    same evidence (say, reranked) wins without moving.
    """
    merged: dict[str, T] = {item.id: item for item in (left or [])}
    if right is None:
        incoming: Sequence[T] = []
    elif isinstance(right, Sequence):
        incoming = right
    else:
        incoming = [right]
    for item in incoming:
        merged[item.id] = item
    return list(merged.values())
