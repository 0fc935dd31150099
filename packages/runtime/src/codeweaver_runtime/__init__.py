"""Shared providers of CodeWeaver: run context, chat models, embeddings, Qdrant, flow log.

Also the local document corpus: loading, chunking, hybrid search and its retrieval evaluation.
"""

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
)
from codeweaver_runtime.corpus import CorpusError, DocumentCorpus, IngestReport
from codeweaver_runtime.documents import (
    Chunk,
    DocumentError,
    FileTooLarge,
    SourceDocument,
    chunk_document,
    iter_documents,
    load_document,
)
from codeweaver_runtime.embeddings import (
    Embedder,
    EmbeddingError,
    SentenceTransformerEmbedder,
    get_embedder,
)
from codeweaver_runtime.flow import add_flow_step, traced
from codeweaver_runtime.graphs import add_node_with_fallback
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
from codeweaver_runtime.qdrant import close_qdrant_clients, get_qdrant, open_qdrant
from codeweaver_runtime.replies import json_object_from_text, strip_thinking
from codeweaver_runtime.retrieval_eval import RetrievalReport, evaluate_retrieval
from codeweaver_runtime.secrets import install_log_redaction, redact
from codeweaver_runtime.structured import METHODS, MethodMemory
from codeweaver_runtime.tenancy import authenticated_user, run_tenant, scoped_to_caller

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "INTERNAL_TAG",
    "METHODS",
    "OFFLINE",
    "OPERATOR_SETTINGS",
    "ChatModels",
    "Chunk",
    "ConfiguredChatModels",
    "ContextError",
    "CorpusError",
    "DocumentCorpus",
    "DocumentError",
    "Embedder",
    "EmbeddingError",
    "FileTooLarge",
    "Infrastructure",
    "IngestReport",
    "MethodMemory",
    "ModelCallCounter",
    "ModelCallError",
    "ModelNameError",
    "ModelRole",
    "ModelSpec",
    "RetrievalReport",
    "RoleUsage",
    "RuntimeContext",
    "SentenceTransformerEmbedder",
    "SourceDocument",
    "StaticChatModels",
    "WithoutThinking",
    "add_flow_step",
    "add_node_with_fallback",
    "authenticated_user",
    "build_chat_model",
    "call_structured",
    "call_text",
    "chunk_document",
    "close_qdrant_clients",
    "default_chat_model_name",
    "default_data_dir",
    "evaluate_retrieval",
    "get_embedder",
    "get_qdrant",
    "infrastructure",
    "install_log_redaction",
    "is_private",
    "iter_documents",
    "json_object_from_text",
    "load_document",
    "model_base_url",
    "open_qdrant",
    "operator_model_names",
    "parse_model_name",
    "private_dir",
    "private_file",
    "redact",
    "resolve_chat_models",
    "run_tenant",
    "scoped_to_caller",
    "strip_thinking",
    "tighten",
    "traced",
]
