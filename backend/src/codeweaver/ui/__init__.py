"""The chat web UI: a Gradio page that talks to LangGraph Server through `langgraph-sdk`.

`codeweaver ui` starts it. It never imports a graph; see `session` for the server protocol.
"""

from codeweaver.ui.session import ChatServer, ServerError, ThreadSnapshot, TurnView

__all__ = ["ChatServer", "ServerError", "ThreadSnapshot", "TurnView"]
