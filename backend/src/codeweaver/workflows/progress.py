"""What each node is doing, in words, for the progress lines of the CLI and the chat page."""

from __future__ import annotations

PROGRESS_LABELS: dict[str, str] = {
    "plan": "planning",
    "route": "choosing a route",
    "analyze": "analysing the question",
    "cache_lookup": "checking the answer cache",
    "verify": "verifying a cached answer",
    "search": "searching",
    "prepare": "preparing the search",
    "search_stackoverflow": "searching Stack Overflow",
    "search_github": "searching GitHub code",
    "search_docs": "searching official docs",
    "search_local": "searching your documents",
    "rerank": "ranking evidence",
    "judge": "judging evidence",
    "refine": "refining the query",
    "summarise": "summarising evidence",
    "answer": "writing the answer",
    "grade": "checking the answer against its sources",
    "cache_store": "remembering the answer",
    "answer_with_history": "answering from the conversation",
    "multi_question": "answering both questions in parallel",
    "prepare_question": "preparing a question",
    "combine": "combining the answers",
    "too_many": "counting the questions",
    "empty_input": "reading the message",
}


def progress_label(node: str) -> str:
    """What a node is doing while it runs; a node path (`search/rerank`) is read by its leaf."""
    leaf = node.rsplit("/", 1)[-1]
    return PROGRESS_LABELS.get(leaf, leaf.replace("_", " "))
