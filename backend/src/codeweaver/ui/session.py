"""The chat page's conversation with LangGraph Server, through `langgraph-sdk` only.

Nothing here imports a graph: a turn is a streamed run on a server thread, its history and
sources are read back from the thread's state, and a "wrong answer" report is a run of the
server's `cache_feedback` graph. `TurnView` turns the run's stream into what the page shows,
so the interpretation is tested without a browser or a server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
from langgraph_sdk import get_client

from codeweaver.tokens import client_headers
from codeweaver.workflows.progress import progress_label

ANSWER_TAG = "codeweaver:answer"
"""Tag of the model calls whose tokens are the answer (the answer node's `ANSWER_TAG`)."""
FEEDBACK_GRAPH = "cache_feedback"
STREAM_MODES = ["tasks", "messages-tuple"]


class ServerError(RuntimeError):
    """LangGraph Server could not be reached or refused a request; the message says what to do."""


def describe_failure(exc: BaseException, url: str) -> str:
    """A sentence for the user about a failed call to the server."""
    if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
        return (
            f"Cannot reach LangGraph Server at {url}. Start it with `codeweaver serve` "
            "(or `uv run langgraph dev`), or point the UI at it with --server / "
            "CODEWEAVER_SERVER_URL."
        )
    if isinstance(exc, httpx.TimeoutException):
        return f"LangGraph Server at {url} did not answer in time; it may be overloaded."
    if isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
        detail = exc.response.text.strip()[:300]
        if status == 401:
            return (
                f"LangGraph Server at {url} did not accept this client's token (HTTP 401): "
                f"{detail} Set CODEWEAVER_TOKEN to your token, or share the server's "
                "CODEWEAVER_HOME (its server-token file)."
            )
        return f"LangGraph Server at {url} refused the request (HTTP {status}): {detail}"
    if isinstance(exc, httpx.HTTPError):
        return f"The connection to LangGraph Server at {url} failed: {exc}"
    return f"{type(exc).__name__}: {exc}"


def _text_of(content: Any) -> str:
    """The text of a message's content: a string, or a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            block if isinstance(block, str) else str(block.get("text", ""))
            for block in content
            if isinstance(block, str) or (isinstance(block, dict) and block.get("type") == "text")
        ]
        return "".join(parts)
    return ""


@dataclass
class TurnView:
    """What the page shows of a turn while its run streams.

    Answer tokens come from model calls tagged `ANSWER_TAG` (one buffer per namespace, so two
    parallel workers never interleave); without a streaming model the answer appears whole
    when a top-level node writes it. Progress is the set of nodes running now.
    """

    running: dict[str, str] = field(default_factory=dict)
    steps_done: int = 0
    streamed: dict[str, tuple[str, str]] = field(default_factory=dict)
    written: str | None = None
    error: str | None = None

    def apply(self, event: str, data: Any) -> None:
        """Take one stream part (`event` as the SDK names it, with `|namespace` suffix)."""
        kind, _, namespace = event.partition("|")
        if kind == "tasks" and isinstance(data, dict):
            self._task(namespace, data)
        elif kind == "messages" and isinstance(data, list | tuple) and len(data) == 2:
            self._token(namespace, data[0], data[1])
        elif kind == "error":
            self.error = self._error_text(data)

    def _task(self, namespace: str, data: Mapping[str, Any]) -> None:
        task_id, name = str(data.get("id", "")), str(data.get("name", ""))
        if name.startswith("__"):
            return
        if "result" not in data and "error" not in data:
            self.running[task_id] = progress_label(name)
            return
        self.running.pop(task_id, None)
        self.steps_done += 1
        result = data.get("result")
        if not namespace and isinstance(result, dict):
            answer = result.get("answer")
            if isinstance(answer, dict) and isinstance(answer.get("text"), str):
                self.written = answer["text"]

    def _token(self, namespace: str, chunk: Any, metadata: Any) -> None:
        if not isinstance(chunk, dict) or not isinstance(metadata, dict):
            return
        if ANSWER_TAG not in (metadata.get("tags") or []):
            return
        message_id = str(chunk.get("id") or "")
        previous_id, text = self.streamed.get(namespace, ("", ""))
        if message_id != previous_id:
            # A regenerated answer starts over rather than appending to the rejected one.
            text = ""
        self.streamed[namespace] = (message_id, text + _text_of(chunk.get("content")))

    @staticmethod
    def _error_text(data: Any) -> str:
        if isinstance(data, dict):
            message = data.get("message") or data.get("error") or "unknown error"
            return f"The run failed: {message}"
        return f"The run failed: {data}"

    def text(self) -> str:
        """The answer as far as it is known: streamed tokens, else the written answer.

        The turn's own message streams at the top level (namespace ''); once it does, it
        replaces the drafts that two-question workers streamed in their namespaces.
        """
        _, top = self.streamed.get("", ("", ""))
        if top.strip():
            return top
        streamed = [text for _, text in self.streamed.values() if text.strip()]
        if streamed:
            return "\n\n---\n\n".join(streamed)
        return self.written or ""

    def status(self) -> str:
        """One line of progress."""
        if self.error:
            return self.error
        labels = list(dict.fromkeys(self.running.values()))
        if labels:
            return " · ".join(f"{label}…" for label in labels)
        return f"{self.steps_done} steps done" if self.steps_done else "starting…"


@dataclass(frozen=True)
class Citation:
    """One source of an answer, as the sources panel lists it."""

    n: int
    title: str
    source: str
    url: str | None
    file: str | None
    locator: str


@dataclass(frozen=True)
class ThreadSnapshot:
    """A thread as the page shows it: the conversation and the last turn's details."""

    thread_id: str
    messages: list[dict[str, str]]
    citations: list[Citation]
    route: str | None = None
    routing_reason: str | None = None
    cache_hit: bool = False
    cache_similarity: float | None = None
    cache_entry_id: str | None = None
    cache_key: str | None = None
    warning: str | None = None
    errors: list[str] = field(default_factory=list)

    @classmethod
    def from_state(cls, thread_id: str, values: Mapping[str, Any]) -> ThreadSnapshot:
        """Read a thread's state values (as the server returns them)."""
        messages = []
        for message in values.get("messages") or []:
            if not isinstance(message, dict):
                continue
            role = {"human": "user", "ai": "assistant"}.get(str(message.get("type")))
            text = _text_of(message.get("content"))
            if role and text:
                messages.append({"role": role, "content": text})
        answer = values.get("answer") or {}
        citations = [
            Citation(
                n=int(c.get("n", 0)),
                title=str(c.get("title", "")),
                source=str(c.get("source", "")),
                url=c.get("url") or None,
                file=c.get("file") or None,
                locator=str(c.get("locator", "")),
            )
            for c in answer.get("citations") or []
            if isinstance(c, dict)
        ]
        routing = values.get("routing") or {}
        decision = values.get("cache_decision") or {}
        analysis = values.get("analysis") or {}
        errors = [
            f"{e.get('node', '?')}: {e.get('message', '')}"
            for e in values.get("errors") or []
            if isinstance(e, dict)
        ]
        hit = bool(decision.get("hit"))
        return cls(
            thread_id=thread_id,
            messages=messages,
            citations=citations,
            route=routing.get("route"),
            routing_reason=routing.get("reason"),
            cache_hit=hit,
            cache_similarity=decision.get("similarity") if hit else None,
            cache_entry_id=decision.get("entry_id") if hit else None,
            cache_key=(analysis.get("standalone_question") or None) if analysis else None,
            warning=answer.get("warning"),
            errors=errors,
        )


@dataclass(frozen=True)
class ChatServer:
    """The chat page's client of LangGraph Server.

    Attributes:
        url: The server's base URL.
        assistant: The assistant (or graph id) that answers.
        timeout_s: Bound on one run, in seconds.
        token: The bearer token every request carries (`codeweaver.tokens.client_token()`).
    """

    url: str
    assistant: str = "codeweaver"
    timeout_s: float = 600.0
    token: str | None = field(default=None, repr=False)

    def _client(self) -> Any:
        # (connect, read, write, pool): a dead server fails fast, a long run may stream on.
        return get_client(
            url=self.url,
            timeout=(5.0, self.timeout_s, 30.0, 5.0),
            headers=client_headers(self.token),
            # Not the ambient LangSmith key (the SDK's default): it is no CodeWeaver credential.
            api_key=None,
        )

    async def check(self) -> None:
        """Raise `ServerError` unless the server answers."""
        try:
            async with httpx.AsyncClient(timeout=5.0) as http:
                response = await http.get(f"{self.url.rstrip('/')}/ok")
                response.raise_for_status()
        except httpx.HTTPError as exc:
            raise ServerError(describe_failure(exc, self.url)) from exc

    async def check_token(self) -> None:
        """Raise `ServerError` unless the server accepts this client's token."""
        try:
            async with self._client() as client:
                await client.assistants.search(limit=1)
        except httpx.HTTPError as exc:
            raise ServerError(describe_failure(exc, self.url)) from exc

    async def new_thread(self) -> str:
        """Create a thread on the server."""
        try:
            async with self._client() as client:
                thread = await client.threads.create(metadata={"created_by": "codeweaver-ui"})
        except httpx.HTTPError as exc:
            raise ServerError(describe_failure(exc, self.url)) from exc
        return str(thread["thread_id"])

    async def snapshot(self, thread_id: str) -> ThreadSnapshot | None:
        """The thread as it stands, or None when the server does not know it."""
        try:
            async with self._client() as client:
                state = await client.threads.get_state(thread_id)
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code in (404, 422):
                return None
            raise ServerError(describe_failure(exc, self.url)) from exc
        except httpx.HTTPError as exc:
            raise ServerError(describe_failure(exc, self.url)) from exc
        return ThreadSnapshot.from_state(thread_id, state.get("values") or {})

    async def ask(self, thread_id: str, question: str) -> AsyncIterator[TurnView]:
        """Run one turn, yielding the view after each stream part that changes it.

        Raises:
            ServerError: the server is unreachable or refused the run.
        """
        view = TurnView()
        try:
            async with self._client() as client:
                async for part in client.runs.stream(
                    thread_id,
                    self.assistant,
                    input={"messages": [{"role": "user", "content": question}]},
                    stream_mode=STREAM_MODES,
                    stream_subgraphs=True,
                    # A second question on a busy thread (another tab, a double submit) waits
                    # for the first and then sees its answer in the history.
                    multitask_strategy="enqueue",
                ):
                    view.apply(part.event, part.data)
                    yield view
        except httpx.HTTPError as exc:
            raise ServerError(describe_failure(exc, self.url)) from exc

    async def report_wrong_answer(self, snapshot: ThreadSnapshot) -> str:
        """Evict the thread's last answer from the cache; returns a sentence for the user."""
        target: dict[str, str] = {}
        if snapshot.cache_entry_id:
            target["entry_id"] = snapshot.cache_entry_id
        if snapshot.cache_key:
            target["question"] = snapshot.cache_key
        if not target:
            return "This turn's answer was not one the cache could hold; nothing to remove."
        try:
            async with self._client() as client:
                result = await client.runs.wait(None, FEEDBACK_GRAPH, input=target)
        except httpx.HTTPError as exc:
            raise ServerError(describe_failure(exc, self.url)) from exc
        if isinstance(result, dict) and result.get("feedback_message"):
            return str(result["feedback_message"])
        return f"The feedback run returned no message: {result!r}"
