"""The HTTP apps CodeWeaver adds to LangGraph Server (`http.app`).

Both carry `/mcp`, the coding agents' tools (`codeweaver.server.agents`), whose session manager
runs while the app runs. Their routes go through the auth handler like the server's own
(`enable_custom_route_auth` in `langgraph.json`), which decides which are public.

`deployed` is what `langgraph.json` names, for a deployment: `/mcp` alone.

`app` is what `codeweaver serve` runs instead (`dev_server_config` names it), for LangGraph
Server runs a custom app's middleware around every request, its own routes included, so this is
where the development server acts on requests as a whole:

- `RefuseDevRoutes` (`codeweaver.server.guards`): `langgraph dev`'s test and deploy routes,
  which answer without a token (one wipes every thread), are not served.
- `LoopbackHostOnly` (`codeweaver.server.guards`): over loopback, a request must be addressed
  to a loopback name and the server's port, so a DNS-rebinding web page gets nothing.
- `JournalWrites` (`codeweaver.server.threads`): the threads and runs a request created or
  changed are on disk before the client hears of them, so a crash cannot lose them.

Besides `/mcp` it serves `POST /codeweaver/identity` (`codeweaver.server.identity`, public),
where the server proves to `ask`, `chat` and `codeweaver mcp` that it is the one `serve`
started.
"""

from __future__ import annotations

from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Route

from codeweaver.server.agents import McpEndpoint, agents_app, served_tools
from codeweaver.server.guards import LoopbackHostOnly, RefuseDevRoutes
from codeweaver.server.identity import prove_identity
from codeweaver.server.threads import JournalWrites
from codeweaver.tokens import IDENTITY_PATH

agents = McpEndpoint(served_tools())
"""`/mcp`, one per process (only one of the apps below runs in a server)."""

routes: list[BaseRoute] = [Route(IDENTITY_PATH, prove_identity, methods=["POST"])]
"""The development app's own routes; the auth handler's `PUBLIC_ROUTES` lists those open to
anyone."""

# Outermost first: what is refused is refused before anything is journaled.
app = agents_app(
    agents,
    routes=routes,
    middleware=[
        Middleware(RefuseDevRoutes),
        Middleware(LoopbackHostOnly),
        Middleware(JournalWrites),
    ],
)

deployed = agents_app(agents)

__all__ = ["app", "deployed", "routes"]
