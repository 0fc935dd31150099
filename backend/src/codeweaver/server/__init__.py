"""LangGraph Server wiring: what `langgraph.json` serves and how `codeweaver serve` runs it.

The graphs (`graphs`, `feedback`), who may call them (`auth`), the crash-safe threads of
`langgraph dev` (`threads`) and the example assistants a client creates (`assistants`).
"""
