"""Test support for CodeWeaver's packages: fakes a test injects instead of a provider.

A development dependency of the workspace only: no package's wheel depends on it, so nothing
here (nor `starlette` and `uvicorn`, which the model server needs) reaches an install.
"""

from codeweaver_testing.chat import RecordedCall, Responder, ScriptedChatModel, respond_with
from codeweaver_testing.embedders import DelegatingEmbedder, HashEmbedder

__all__ = [
    "DelegatingEmbedder",
    "HashEmbedder",
    "RecordedCall",
    "Responder",
    "ScriptedChatModel",
    "respond_with",
]
