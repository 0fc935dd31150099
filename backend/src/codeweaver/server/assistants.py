"""Example assistants on LangGraph Server: the main graph with two sets of run settings.

An assistant is a graph plus a context (the `Context` fields Studio shows as its
configuration). `codeweaver assistants` creates or updates these through `langgraph-sdk`, so
Studio, the HTTP API and the chat UI (`codeweaver ui --assistant offline`) can pick one by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langgraph_sdk import get_client

from codeweaver.tokens import client_headers

GRAPH_ID = "codeweaver"
_MARKER = "codeweaver_example"


@dataclass(frozen=True)
class ExampleAssistant:
    """One example: a name, what it is for, and its context (run settings)."""

    name: str
    description: str
    context: dict[str, Any] = field(default_factory=dict)


EXAMPLES = (
    ExampleAssistant(
        name="offline",
        description="The built-in offline engine: no model, no key; extractive, cited answers "
        "from the local corpus and whichever web sources are reachable.",
        context={"chat_model": "offline", "cache_verifier_model": ""},
    ),
    ExampleAssistant(
        name="openai",
        description="OpenAI gpt-4o-mini for planning, judging and answering, with the cache's "
        "model verifier on; the server needs OPENAI_API_KEY (or OPENAI_BASE_URL).",
        context={
            "chat_model": "openai:gpt-4o-mini",
            "cache_verifier_model": "judge",
            "search_max_iterations": 2,
        },
    ),
)


async def create_example_assistants(url: str, *, token: str | None = None) -> list[dict[str, Any]]:
    """Create the example assistants on the server at `url`, or update them when they exist.

    They belong to the caller: under auth, each user has their own "offline" and "openai".

    Args:
        url: The server's base URL.
        token: The bearer token; by default `codeweaver.tokens.client_token()`.

    Returns:
        The assistants as the server stores them.
    """
    created: list[dict[str, Any]] = []
    async with get_client(url=url, headers=client_headers(token), api_key=None) as client:
        for example in EXAMPLES:
            metadata = {_MARKER: example.name}
            found = await client.assistants.search(graph_id=GRAPH_ID, metadata=metadata, limit=1)
            if found:
                assistant = await client.assistants.update(
                    found[0]["assistant_id"],
                    graph_id=GRAPH_ID,
                    context=example.context,
                    metadata=metadata,
                    name=example.name,
                    description=example.description,
                )
            else:
                assistant = await client.assistants.create(
                    GRAPH_ID,
                    context=example.context,
                    metadata=metadata,
                    name=example.name,
                    description=example.description,
                )
            created.append(dict(assistant))
    return created
