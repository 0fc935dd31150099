"""The HTTP app `codeweaver serve` adds to LangGraph Server (`http.app` in its config).

It has no routes of its own: LangGraph Server runs a custom app's middleware around every
request, its own routes included, so this is where CodeWeaver's development server acts on
requests as a whole:

- `RefuseDevRoutes` (`codeweaver.server.guards`): `langgraph dev`'s test and deploy routes,
  which answer without a token (one wipes every thread), are not served.
- `LoopbackHostOnly` (`codeweaver.server.guards`): over loopback, a request must be addressed
  to a loopback name and the server's port, so a DNS-rebinding web page gets nothing.
- `JournalWrites` (`codeweaver.server.threads`): the threads and runs a request created or
  changed are on disk before the client hears of them, so a crash cannot lose them.

Production does not load it: `langgraph.json` names no app, and a deployment keeps its records
in Postgres.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware

from codeweaver.server.guards import LoopbackHostOnly, RefuseDevRoutes
from codeweaver.server.threads import JournalWrites

# Outermost first: what is refused is refused before anything is journaled.
app = Starlette(
    middleware=[
        Middleware(RefuseDevRoutes),
        Middleware(LoopbackHostOnly),
        Middleware(JournalWrites),
    ]
)
