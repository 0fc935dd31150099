"""Model names: `provider:model`, optionally `@base_url` for a model on a server of one's own.

`openai:gpt-4o-mini` is OpenAI's model (or whatever `OPENAI_BASE_URL` serves);
`openai:qwen2.5-coder@http://127.0.0.1:11434/v1` is the model of that name on an
OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio); `google_genai:gemini-2.5-flash`
is Gemini, and `google_genai:...@https://gateway.example/gemini` Gemini through a gateway.
`offline` (or nothing) is the built-in engine.

A base URL is an address, so a name that carries one is the operator's to give (the
environment, the command line), never a served client's (`codeweaver.server.auth`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

OFFLINE = "offline"
PROVIDERS = ("openai", "google_genai")
_NAME = re.compile(r"(?P<provider>[A-Za-z0-9_.-]+):(?P<model>\S+?)(?:@(?P<url>https?://\S+))?")
MODEL_NAME_HELP = (
    "'offline' or provider:model (openai, google_genai), optionally @http(s)://host[:port]/path"
)


class ModelNameError(ValueError):
    """A model name that names no provider, no model, or an unusable base URL."""


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model name."""

    provider: str
    model: str
    base_url: str | None = None

    def __str__(self) -> str:
        suffix = f"@{self.base_url}" if self.base_url else ""
        return f"{self.provider}:{self.model}{suffix}"


def parse_model_name(name: str) -> ModelSpec | None:
    """The model a name means, or None for the offline engine ('' or 'offline').

    Raises:
        ModelNameError: the name is not `provider:model[@url]` with a known provider and an
            http(s) URL without credentials, query or fragment.
    """
    text = name.strip()
    if not text or text == OFFLINE:
        return None
    match = _NAME.fullmatch(text)
    if match is None:
        raise ModelNameError(f"model name {name!r} is not of the form provider:model")
    provider, model, url = match["provider"], match["model"], match["url"]
    if provider not in PROVIDERS:
        raise ModelNameError(
            f"unknown model provider {provider!r} in {name!r} ({', '.join(PROVIDERS)})"
        )
    return ModelSpec(provider, model, _checked_url(url, name) if url else None)


def _checked_url(url: str, name: str) -> str:
    parts = urlsplit(url)
    if not parts.hostname:
        raise ModelNameError(f"the base URL of {name!r} names no host")
    if parts.username or parts.password:
        raise ModelNameError(
            f"the base URL of {name!r} carries credentials; give the key in "
            "CODEWEAVER_MODEL_SERVER_KEY instead (URLs end up in logs)"
        )
    if parts.query or parts.fragment:
        raise ModelNameError(f"the base URL of {name!r} may not have a query or fragment")
    return url.rstrip("/")


def model_base_url(name: str) -> str | None:
    """The base URL a model name carries, if it looks like one; never raises."""
    match = _NAME.fullmatch(name.strip()) if isinstance(name, str) else None
    return match["url"] if match is not None else None
