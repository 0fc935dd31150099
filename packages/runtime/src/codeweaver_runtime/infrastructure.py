"""The operator's settings: where data lives and which model embeds it.

These reach files, processes and network addresses, so they are never run settings: under
LangGraph Server any authenticated client writes the run context, and a client that could name
the store's folder, the Qdrant URL or the embedding model could make the server create folders
anywhere, call any address (server-side request forgery) or load files as a model. They come
from the environment of the process (the operator's), are read when needed, and are the same for
every run of that process. A client that sends one of `OPERATOR_SETTINGS` in a run's or an
assistant's context is refused (`codeweaver.server.auth`).

| variable | setting |
|---|---|
| `CODEWEAVER_HOME` | data directory (default `$XDG_DATA_HOME/codeweaver`) |
| `QDRANT_URL` | a Qdrant server or cluster instead of embedded Qdrant |
| `CODEWEAVER_QDRANT_PATH` | embedded Qdrant folder, or `:memory:` (default `<data dir>/qdrant`) |
| `CODEWEAVER_EMBEDDING_MODEL` | sentence-transformers model name or path |
| `CODEWEAVER_CACHE_COLLECTION` | Qdrant collection of cached answers |
| `CODEWEAVER_{CHAT,PLANNER,JUDGE,ANSWER}_MODEL` | may name a model's server: `provider:model@URL` |
| `OPENAI_BASE_URL` | the OpenAI-compatible server of `openai:` models without a URL |
| `CODEWEAVER_MODEL_SERVER_KEY` | the key sent to a model's own server (none if unset) |

Model names without a URL are ordinary run settings; a name that carries one
(`codeweaver_runtime.model_names`) is an address, so a served client may only repeat one the
operator configured (`operator_model_names`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from codeweaver_runtime.context import DEFAULT_EMBEDDING_MODEL, default_data_dir

DEFAULT_CACHE_COLLECTION = "codeweaver_cache"

OPERATOR_SETTINGS = frozenset(
    {
        "data_dir",
        "qdrant_url",
        "qdrant_path",
        "embedding_model",
        "cache_collection",
        "collection",
        "base_url",
        "api_key",
    }
)
"""Names a client might send to steer infrastructure; each is refused in a served run context."""

MODEL_ENV_VARS = (
    "CODEWEAVER_CHAT_MODEL",
    "CODEWEAVER_PLANNER_MODEL",
    "CODEWEAVER_JUDGE_MODEL",
    "CODEWEAVER_ANSWER_MODEL",
)


@dataclass(frozen=True, kw_only=True)
class Infrastructure:
    """Where the vector store lives and which model embeds, as the operator set them."""

    data_dir: Path = field(default_factory=default_data_dir)
    qdrant_url: str = ""
    qdrant_path: str = ""
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    cache_collection: str = DEFAULT_CACHE_COLLECTION

    def qdrant_location(self) -> str:
        """A URL, ':memory:', or a folder path: where the vector store lives."""
        if self.qdrant_url:
            return self.qdrant_url
        if self.qdrant_path:
            return self.qdrant_path
        return str(self.data_dir / "qdrant")


def operator_model_names() -> frozenset[str]:
    """The model names the operator configured in this process's environment, per role."""
    return frozenset(
        value for value in (os.environ.get(name, "").strip() for name in MODEL_ENV_VARS) if value
    )


def infrastructure() -> Infrastructure:
    """The operator's settings, from this process's environment."""
    env = os.environ
    return Infrastructure(
        data_dir=default_data_dir(),
        qdrant_url=env.get("QDRANT_URL", "").strip(),
        qdrant_path=env.get("CODEWEAVER_QDRANT_PATH", "").strip(),
        embedding_model=env.get("CODEWEAVER_EMBEDDING_MODEL", "").strip()
        or DEFAULT_EMBEDDING_MODEL,
        cache_collection=env.get("CODEWEAVER_CACHE_COLLECTION", "").strip()
        or DEFAULT_CACHE_COLLECTION,
    )
