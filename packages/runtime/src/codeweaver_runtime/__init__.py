"""Shared providers of CodeWeaver: run context, chat models, embeddings, Qdrant, flow log."""

from codeweaver_runtime.chat import (
    ChatModels,
    ConfiguredChatModels,
    ModelCallCounter,
    ModelCallError,
    ModelRole,
    StaticChatModels,
    build_chat_model,
    call_structured,
    call_text,
    resolve_chat_models,
)
from codeweaver_runtime.context import (
    DEFAULT_EMBEDDING_MODEL,
    OFFLINE,
    RuntimeContext,
    default_chat_model_name,
    default_data_dir,
)
from codeweaver_runtime.embeddings import (
    Embedder,
    EmbeddingError,
    SentenceTransformerEmbedder,
    get_embedder,
)
from codeweaver_runtime.flow import add_flow_step, traced
from codeweaver_runtime.qdrant import get_qdrant, open_qdrant

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "OFFLINE",
    "ChatModels",
    "ConfiguredChatModels",
    "Embedder",
    "EmbeddingError",
    "ModelCallCounter",
    "ModelCallError",
    "ModelRole",
    "RuntimeContext",
    "SentenceTransformerEmbedder",
    "StaticChatModels",
    "add_flow_step",
    "build_chat_model",
    "call_structured",
    "call_text",
    "default_chat_model_name",
    "default_data_dir",
    "get_embedder",
    "get_qdrant",
    "open_qdrant",
    "resolve_chat_models",
    "traced",
]
