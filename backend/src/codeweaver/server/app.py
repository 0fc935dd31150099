"""The HTTP app `codeweaver serve` adds to LangGraph Server (`http.app` in its config).

LangGraph Server runs a custom app's middleware around every request, its own routes included,
so this is where CodeWeaver's development server acts on requests as a whole:

- `RefuseDevRoutes` (`codeweaver.server.guards`): `langgraph dev`'s test and deploy routes,
  which answer without a token (one wipes every thread), are not served.
- `LoopbackHostOnly` (`codeweaver.server.guards`): over loopback, a request must be addressed
  to a loopback name and the server's port, so a DNS-rebinding web page gets nothing.
- `JournalWrites` (`codeweaver.server.threads`): the threads and runs a request created or
  changed are on disk before the client hears of them, so a crash cannot lose them.

Its routes (`routes`) go through the auth handler like the server's own
(`enable_custom_route_auth` in `langgraph.json`), which decides which are public:
`POST /codeweaver/identity` (`codeweaver.server.identity`), where the server proves to `ask`
and `chat` that it is the one `serve` started.

Production does not load it: `langgraph.json` names no app, and a deployment keeps its records
in Postgres.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Route

from codeweaver.server.guards import LoopbackHostOnly, RefuseDevRoutes
from codeweaver.server.identity import prove_identity
from codeweaver.server.threads import JournalWrites
from codeweaver.tokens import IDENTITY_PATH

routes: list[BaseRoute] = [Route(IDENTITY_PATH, prove_identity, methods=["POST"])]
"""Every route of the app; the auth handler's `PUBLIC_ROUTES` lists those open to anyone."""

# Outermost first: what is refused is refused before anything is journaled.
app = Starlette(
    routes=routes,
    middleware=[
        Middleware(RefuseDevRoutes),
        Middleware(LoopbackHostOnly),
        Middleware(JournalWrites),
    ],
)
