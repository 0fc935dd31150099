"""How every CodeWeaver graph is wired: injected collaborators, and the type of its nodes.

A `build_*_graph(...)` factory takes optional collaborators and hands them to its node
factories as one `Collaborators` value (a package extends it with what only it needs: the
search sources, the cache). A collaborator left None is built from the run context when the
node runs, so the same compiled graph serves the CLI, LangGraph Server and tests with fakes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime
from langgraph.typing import ContextT, StateT_contra
from typing_extensions import TypeVar

from codeweaver_runtime.chat import ChatModels, ModelRole, resolve_chat_models
from codeweaver_runtime.context import RuntimeContext
from codeweaver_runtime.embedder_registry import get_embedder
from codeweaver_runtime.embeddings import Embedder
from codeweaver_runtime.infrastructure import infrastructure

UpdateT_co = TypeVar(
    "UpdateT_co", bound=Mapping[str, Any], covariant=True, default=Mapping[str, Any]
)
"""What the node returns: its graph's update type (a `TypedDict` of the state's keys, so a
misspelt key is a type error)."""


class Node(Protocol[StateT_contra, ContextT, UpdateT_co]):
    """A node over a graph's state and run context, as LangGraph's `add_node` takes it."""

    def __call__(
        self, state: StateT_contra, *, runtime: Runtime[ContextT]
    ) -> Awaitable[UpdateT_co]:
        """Run the node and return its update."""
        ...


@dataclass(frozen=True)
class Collaborators:
    """What a graph's nodes need from outside; None means "build it from the run context"."""

    models: ChatModels | None = None
    """Chat models by role; None: the ones the context names (the offline engine when none)."""
    embedder: Embedder | None = None
    """Sentence embedder; None: the operator's embedding model, loaded once per process."""

    def chat_model(self, role: ModelRole, context: RuntimeContext) -> BaseChatModel | None:
        """The chat model for `role`, or None when the role runs on the offline engine."""
        return resolve_chat_models(self.models, context).for_role(role)

    def sentence_embedder(self) -> Embedder:
        """The injected embedder, else the operator's (a run's context never chooses it)."""
        if self.embedder is not None:
            return self.embedder
        return get_embedder(infrastructure().embedding_model)
