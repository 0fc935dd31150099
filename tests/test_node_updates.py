"""Each graph's update type is its state's keys, with the types a node may write to them.

Nodes return these types, so mypy rejects a misspelt key, which LangGraph would otherwise drop
without a word. The update types are written out beside their states; this holds them to the
states, so a field added to a state and not to its update (or the reverse) fails here.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import pytest
from langgraph.types import Overwrite

from codeweaver.workflows.orchestration.state import MainState, MainUpdate
from codeweaver_cache import CacheState, CacheUpdate, LookupUpdate
from codeweaver_cache.state import LookupState
from codeweaver_multi_question import MultiState, MultiUpdate
from codeweaver_schema import OrchestrationState, OrchestrationUpdate
from codeweaver_search import (
    SearchInput,
    SearchInterfaceUpdate,
    SearchOutput,
    SearchState,
    SearchUpdate,
)

PAIRS: list[tuple[type[Any], type[Any]]] = [
    (OrchestrationState, OrchestrationUpdate),
    (SearchState, SearchUpdate),
    (CacheState, CacheUpdate),
    (LookupState, LookupUpdate),
    (MultiState, MultiUpdate),
    (MainState, MainUpdate),
]


def _members(hint: Any) -> set[Any]:
    """The types a hint admits: the members of a union, else the hint itself."""
    if get_origin(hint) in (Union, types.UnionType):
        return set(get_args(hint))
    return {hint}


def _field(hint: Any) -> tuple[set[Any], bool]:
    """A state field's value types, and whether a reducer merges what nodes write to it."""
    if get_origin(hint) is Annotated:
        value, *metadata = get_args(hint)
        return _members(value), any(callable(m) for m in metadata)
    return _members(hint), False


def mismatches(state: type[Any], update: type[Any]) -> list[str]:
    fields = get_type_hints(state, include_extras=True)
    writes = get_type_hints(update, include_extras=True)
    problems = [f"{key}: not in the state" for key in writes.keys() - fields.keys()]
    problems += [f"{key}: not in the update" for key in fields.keys() - writes.keys()]
    for key in fields.keys() & writes.keys():
        values, reduced = _field(fields[key])
        written = _members(writes[key])
        if Overwrite in written and not reduced:
            problems.append(f"{key}: Overwrite on a channel without a reducer")
        if written - {Overwrite} != values:
            problems.append(f"{key}: writes {writes[key]}, holds {fields[key]}")
    return problems


@pytest.mark.parametrize(("state", "update"), PAIRS, ids=[u.__name__ for _, u in PAIRS])
def test_an_update_type_has_its_states_keys_and_types(state: type[Any], update: type[Any]) -> None:
    assert mismatches(state, update) == []


def test_the_search_interface_is_what_a_parent_holds() -> None:
    held = (get_type_hints(SearchInput).keys() | get_type_hints(SearchOutput).keys()) - (
        get_type_hints(OrchestrationState).keys()
    )
    assert get_type_hints(SearchInterfaceUpdate).keys() == held


def test_a_misspelt_or_mistyped_update_is_found() -> None:
    from typing_extensions import TypedDict

    class Misspelt(OrchestrationUpdate, total=False):
        evidense: list[str]

    assert mismatches(OrchestrationState, Misspelt) == ["evidense: not in the state"]

    class Stale(TypedDict, total=False):
        question: int
        plan: Overwrite

    found = mismatches(OrchestrationState, Stale)
    assert "question: writes <class 'int'>, holds <class 'str'>" in found
    assert "plan: Overwrite on a channel without a reducer" in found
    assert "messages: not in the update" in found
