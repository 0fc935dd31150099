"""`POST /codeweaver/identity`: a server started by `codeweaver serve` proves it is that server.

`serve` gives its server a random secret (`CODEWEAVER_SERVER_IDENTITY`) and records it for the
CLI in the owner-only `server.json`. Before `ask` or `chat` send a token or a question, they send
a fresh nonce here and check the answer (`codeweaver.tokens.identity_proof`). The route is
public (`codeweaver.server.auth.PUBLIC_ROUTES`) and reveals nothing: the answer to a nonce the
caller chose is useless without the secret.
"""

from __future__ import annotations

import os
import re

from starlette.requests import Request
from starlette.responses import JSONResponse

from codeweaver.tokens import IDENTITY_SECRET_ENV, identity_proof

_NONCE = re.compile(r"[A-Za-z0-9_-]{16,128}")


async def prove_identity(request: Request) -> JSONResponse:
    """`{"nonce": ...}` in, `{"proof": HMAC(secret, port, nonce)}` out.

    The port is the one this connection reached, so a listener elsewhere that relays a client's
    challenge here gets an answer that client rejects.
    """
    secret = os.environ.get(IDENTITY_SECRET_ENV, "")
    if not secret:
        return JSONResponse(
            {"detail": "This server was not started by `codeweaver serve`: it has no identity."},
            status_code=404,
        )
    try:
        body = await request.json()
    except ValueError:
        body = None
    nonce = body.get("nonce") if isinstance(body, dict) else None
    if not isinstance(nonce, str) or not _NONCE.fullmatch(nonce):
        return JSONResponse(
            {"detail": "Send {\"nonce\": \"...\"}: 16 to 128 letters, digits, '-' or '_'."},
            status_code=422,
        )
    server = request.scope.get("server")
    if not server or server[1] is None:
        return JSONResponse({"detail": "This connection has no local port."}, status_code=400)
    return JSONResponse({"proof": identity_proof(secret, nonce, int(server[1]))})
