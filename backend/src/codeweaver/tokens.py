"""Client tokens, the local user's token, and how a server proves it is `codeweaver serve`'s.

Kept apart from the server's authentication (`codeweaver.server.auth`) so that a client (`ask`
through a running server) reads its token without importing the server side.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path

from codeweaver_runtime import default_data_dir

CLIENT_TOKEN_ENV = "CODEWEAVER_TOKEN"
LOCAL_TOKEN_FILE = "server-token"
IDENTITY_SECRET_ENV = "CODEWEAVER_SERVER_IDENTITY"
"""The secret `codeweaver serve` gives its server, and records for the CLI in `server.json`."""
IDENTITY_PATH = "/codeweaver/identity"
"""The route where a server proves it knows the secret (POST, public: it reveals nothing)."""


def local_token_path(data_dir: Path | None = None) -> Path:
    """Where the local user's token lives: `$CODEWEAVER_HOME/server-token`."""
    return (data_dir or default_data_dir()) / LOCAL_TOKEN_FILE


def client_token(data_dir: Path | None = None) -> str | None:
    """The token a CodeWeaver client sends: `CODEWEAVER_TOKEN`, else the local user's token."""
    configured = os.environ.get(CLIENT_TOKEN_ENV, "").strip()
    if configured:
        return configured
    path = local_token_path(data_dir)
    if path.is_file():
        return path.read_text(encoding="utf-8").strip() or None
    return None


def client_headers(token: str | None = None) -> dict[str, str]:
    """The headers of a client request: the given token, else `client_token()`, if any."""
    chosen = token or client_token()
    return {"Authorization": f"Bearer {chosen}"} if chosen else {}


def identity_proof(secret: str, nonce: str, port: int) -> str:
    """What only a server that knows `secret` answers to `nonce` on `port`: an HMAC-SHA256.

    The port is the one the server accepted the connection on, so a listener on another port
    cannot pass the client's challenge on to the real server and relay its answer.
    """
    message = f"codeweaver serve identity\n{port}\n{nonce}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
