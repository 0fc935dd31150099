"""CodeWeaver's tools for coding agents over MCP: `ask`, `search_docs`, `list_libraries`.

`protocol.py` defines them (schemas, argument checks, results) as one MCP server; `service.py`
runs them in this process (the `ask_codeweaver` graph and the documentation packs); `render.py`
writes what an agent reads; `stdio.py` serves them to an agent that starts `codeweaver mcp`.
LangGraph Server serves the same server at `/mcp` (`codeweaver.server.app`).
"""
