"""Run contexts built from whatever a client sends, for the tests of every package's context."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

from hypothesis import strategies as st

from codeweaver_runtime import ContextError

C = TypeVar("C")


def client_settings(
    context: type, values: st.SearchStrategy[Any], *, max_size: int | None = None
) -> st.SearchStrategy[dict[str, Any]]:
    """Whatever a client may send as a run context.

    Any of `context`'s fields, set to a JSON scalar of any kind (NaN and infinities too) or to
    one of `values`.
    """
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**15), max_value=10**15),
        st.floats(allow_nan=True, allow_infinity=True),
    )
    names = st.sampled_from([f.name for f in fields(context)])
    return st.dictionaries(names, scalars | values, max_size=max_size)


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
