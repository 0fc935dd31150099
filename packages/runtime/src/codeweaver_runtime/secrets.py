"""Keep API keys out of logs: HTTP client libraries log full request URLs at INFO."""

from __future__ import annotations

import logging
import os
import re

SECRET_ENV_VARS = (
    "OPENAI_API_KEY",
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "CODEWEAVER_MODEL_SERVER_KEY",
    "GITHUB_TOKEN",
    "TAVILY_API_KEY",
    "STACKEXCHANGE_KEY",
    "LANGSMITH_API_KEY",
    "CODEWEAVER_API_KEYS",
    "CODEWEAVER_TOKEN",
)
_SECRET_PARAM = re.compile(
    r"(?i)\b(key|api_key|apikey|access_token|token|client_secret)=([^&\s'\"]+)"
)


def redact(text: str) -> str:
    """The text with secret query parameters and the configured keys' values masked."""
    masked = _SECRET_PARAM.sub(r"\1=***", text)
    for name in SECRET_ENV_VARS:
        for value in _secret_values(os.environ.get(name, "")):
            masked = masked.replace(value, "***")
    return masked


def _secret_values(setting: str) -> list[str]:
    """The values of a setting worth masking, longest first.

    Each comma-separated entry, and the token of an `identity:token` entry on its own (it
    travels alone in an Authorization header).
    """
    values: list[str] = []
    for entry in setting.split(","):
        entry = entry.strip()
        values.append(entry)
        if ":" in entry:
            values.append(entry.split(":", 1)[1].strip())
    # Longest first, so a whole entry is masked before its token part.
    return sorted((v for v in values if len(v) >= 8), key=len, reverse=True)


class RedactSecrets(logging.Filter):
    """A logging filter that masks secrets in a record's message before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the message when it holds a secret; never drop the record."""
        message = record.getMessage()
        masked = redact(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


def install_log_redaction(*names: str) -> None:
    """Add the filter to the named loggers (default: the HTTP client libraries), once each."""
    for name in names or ("httpx", "httpx2", "httpcore", "openai", "google_genai", "langsmith"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
