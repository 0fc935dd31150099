"""Edges of the cache subgraphs."""

from __future__ import annotations

from typing import Literal

from codeweaver_cache.state import LookupState


def route_after_lookup(state: LookupState) -> Literal["cache_verify", "__end__"]:
    """Verify a candidate the guards let through when a verifier is configured; else end."""
    return "cache_verify" if state.get("cache_pending") is not None else "__end__"
