"""Shared providers of CodeWeaver: run context, chat models, embeddings, Qdrant, flow log."""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codeweaver_runtime.chat import (
        INTERNAL_TAG,
        ChatModels,
        ConfiguredChatModels,
        ModelCallCounter,
        ModelCallError,
        ModelRole,
        RoleUsage,
        StaticChatModels,
        WithoutThinking,
        build_chat_model,
        call_structured,
        call_text,
        resolve_chat_models,
    )
    from codeweaver_runtime.context import (
        DEFAULT_EMBEDDING_MODEL,
        ContextError,
        RuntimeContext,
        default_chat_model_name,
        default_data_dir,
        run_context,
        setting,
    )
    from codeweaver_runtime.delivery import DELIVERY_TAG, chunks_of, speak
    from codeweaver_runtime.embedder_registry import get_embedder
    from codeweaver_runtime.embeddings import (
        Embedder,
        EmbeddingError,
        SentenceTransformerEmbedder,
    )
    from codeweaver_runtime.flow import add_flow_step, flow_step
    from codeweaver_runtime.graphs import add_node_with_fallback, hide_error_handlers
    from codeweaver_runtime.infrastructure import (
        OPERATOR_SETTINGS,
        Infrastructure,
        infrastructure,
        operator_model_names,
    )
    from codeweaver_runtime.model_names import (
        OFFLINE,
        ModelNameError,
        ModelSpec,
        model_base_url,
        parse_model_name,
    )
    from codeweaver_runtime.private import is_private, private_dir, private_file, tighten
    from codeweaver_runtime.qdrant import (
        close_qdrant_clients,
        get_qdrant,
        open_qdrant,
        release_embedded_stores,
    )
    from codeweaver_runtime.replies import json_object_from_text, strip_thinking
    from codeweaver_runtime.secrets import install_log_redaction, redact
    from codeweaver_runtime.structured import METHODS, MethodMemory
    from codeweaver_runtime.tenancy import authenticated_user, run_tenant, scoped_to_caller
    from codeweaver_runtime.wiring import Collaborators, Node

# `infrastructure` is both a submodule and the function it exports: bound now, because importing
# the submodule (for any of its names) would otherwise leave the module under that name.
from codeweaver_runtime.infrastructure import infrastructure

_HOMES = {
    "ChatModels": "codeweaver_runtime.chat",
    "Collaborators": "codeweaver_runtime.wiring",
    "ConfiguredChatModels": "codeweaver_runtime.chat",
    "ContextError": "codeweaver_runtime.context",
    "DEFAULT_EMBEDDING_MODEL": "codeweaver_runtime.context",
    "DELIVERY_TAG": "codeweaver_runtime.delivery",
    "Embedder": "codeweaver_runtime.embeddings",
    "EmbeddingError": "codeweaver_runtime.embeddings",
    "INTERNAL_TAG": "codeweaver_runtime.chat",
    "Infrastructure": "codeweaver_runtime.infrastructure",
    "METHODS": "codeweaver_runtime.structured",
    "MethodMemory": "codeweaver_runtime.structured",
    "ModelCallCounter": "codeweaver_runtime.chat",
    "ModelCallError": "codeweaver_runtime.chat",
    "ModelNameError": "codeweaver_runtime.model_names",
    "ModelRole": "codeweaver_runtime.chat",
    "ModelSpec": "codeweaver_runtime.model_names",
    "Node": "codeweaver_runtime.wiring",
    "OFFLINE": "codeweaver_runtime.model_names",
    "OPERATOR_SETTINGS": "codeweaver_runtime.infrastructure",
    "RoleUsage": "codeweaver_runtime.chat",
    "RuntimeContext": "codeweaver_runtime.context",
    "SentenceTransformerEmbedder": "codeweaver_runtime.embeddings",
    "StaticChatModels": "codeweaver_runtime.chat",
    "WithoutThinking": "codeweaver_runtime.chat",
    "add_flow_step": "codeweaver_runtime.flow",
    "add_node_with_fallback": "codeweaver_runtime.graphs",
    "authenticated_user": "codeweaver_runtime.tenancy",
    "build_chat_model": "codeweaver_runtime.chat",
    "call_structured": "codeweaver_runtime.chat",
    "call_text": "codeweaver_runtime.chat",
    "chunks_of": "codeweaver_runtime.delivery",
    "close_qdrant_clients": "codeweaver_runtime.qdrant",
    "release_embedded_stores": "codeweaver_runtime.qdrant",
    "default_chat_model_name": "codeweaver_runtime.context",
    "default_data_dir": "codeweaver_runtime.context",
    "get_embedder": "codeweaver_runtime.embedder_registry",
    "get_qdrant": "codeweaver_runtime.qdrant",
    "hide_error_handlers": "codeweaver_runtime.graphs",
    "infrastructure": "codeweaver_runtime.infrastructure",
    "install_log_redaction": "codeweaver_runtime.secrets",
    "is_private": "codeweaver_runtime.private",
    "json_object_from_text": "codeweaver_runtime.replies",
    "model_base_url": "codeweaver_runtime.model_names",
    "open_qdrant": "codeweaver_runtime.qdrant",
    "operator_model_names": "codeweaver_runtime.infrastructure",
    "parse_model_name": "codeweaver_runtime.model_names",
    "private_dir": "codeweaver_runtime.private",
    "private_file": "codeweaver_runtime.private",
    "redact": "codeweaver_runtime.secrets",
    "resolve_chat_models": "codeweaver_runtime.chat",
    "run_context": "codeweaver_runtime.context",
    "run_tenant": "codeweaver_runtime.tenancy",
    "scoped_to_caller": "codeweaver_runtime.tenancy",
    "setting": "codeweaver_runtime.context",
    "speak": "codeweaver_runtime.delivery",
    "strip_thinking": "codeweaver_runtime.replies",
    "tighten": "codeweaver_runtime.private",
    "flow_step": "codeweaver_runtime.flow",
}
"""Where each exported name lives: imported on first use, so a light command (a client of a
running server) does not pay for Qdrant, LangChain and the embedding stack."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'codeweaver_runtime' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "DELIVERY_TAG",
    "INTERNAL_TAG",
    "METHODS",
    "OFFLINE",
    "OPERATOR_SETTINGS",
    "ChatModels",
    "Collaborators",
    "ConfiguredChatModels",
    "ContextError",
    "Embedder",
    "EmbeddingError",
    "Infrastructure",
    "MethodMemory",
    "ModelCallCounter",
    "ModelCallError",
    "ModelNameError",
    "ModelRole",
    "ModelSpec",
    "Node",
    "RoleUsage",
    "RuntimeContext",
    "SentenceTransformerEmbedder",
    "StaticChatModels",
    "WithoutThinking",
    "add_flow_step",
    "add_node_with_fallback",
    "authenticated_user",
    "build_chat_model",
    "call_structured",
    "call_text",
    "chunks_of",
    "close_qdrant_clients",
    "default_chat_model_name",
    "default_data_dir",
    "flow_step",
    "get_embedder",
    "get_qdrant",
    "hide_error_handlers",
    "infrastructure",
    "install_log_redaction",
    "is_private",
    "json_object_from_text",
    "model_base_url",
    "open_qdrant",
    "operator_model_names",
    "parse_model_name",
    "private_dir",
    "private_file",
    "redact",
    "release_embedded_stores",
    "resolve_chat_models",
    "run_context",
    "run_tenant",
    "scoped_to_caller",
    "setting",
    "speak",
    "strip_thinking",
    "tighten",
]
