"""Whose cache entries and documents a run may use.

The `tenant` context field is a run setting, so under LangGraph Server any client could set it
to someone else's name. When the server authenticates the caller it writes the caller's
identity into the run config (`configurable.langgraph_auth_user_id`, a reserved key clients
cannot set), and that identity wins. Outside the server (the CLI, tests, a bare `invoke`) there
is no authenticated caller and the context's tenant applies.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol, TypeVar

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config

AUTH_USER_ID = "langgraph_auth_user_id"


class HasTenant(Protocol):
    """A run context with a tenant field."""

    @property
    def tenant(self) -> str:
        """The tenant the context names."""
        ...


ContextT = TypeVar("ContextT", bound=HasTenant)


def authenticated_user(config: RunnableConfig | None = None) -> str | None:
    """The identity LangGraph Server authenticated for this run, if any.

    Args:
        config: The run config; by default the one of the running graph, if one is running.
    """
    if config is None:
        try:
            config = get_config()
        except RuntimeError:
            return None
    user = (config.get("configurable") or {}).get(AUTH_USER_ID)
    return user if isinstance(user, str) and user else None


def run_tenant(context: HasTenant, config: RunnableConfig | None = None) -> str:
    """The authenticated caller's identity, else the context's tenant."""
    return authenticated_user(config) or context.tenant


def scoped_to_caller(context: ContextT, config: RunnableConfig | None = None) -> ContextT:
    """The context with its tenant replaced by the authenticated caller's identity, if any.

    Args:
        context: A dataclass run context with a `tenant` field.
        config: The run config; by default the one of the running graph.
    """
    tenant = run_tenant(context, config)
    if tenant == context.tenant:
        return context
    return replace(context, tenant=tenant)  # type: ignore[type-var]
