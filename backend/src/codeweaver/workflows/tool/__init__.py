"""CodeWeaver as one tool: a question in, the cited answer out (LangGraph Server's `/mcp`)."""
