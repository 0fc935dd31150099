"""The Gradio chat page: a thin client of LangGraph Server (see `codeweaver.ui.session`).

The thread id lives in the page's URL (`?thread=...`) and in the browser's local storage, so a
reload, a bookmark or a shared link reopens the conversation; the server holds the thread.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import gradio as gr

from codeweaver.ui.render import details_html, notice_html, sources_html
from codeweaver.ui.session import ChatServer, ServerError, ThreadSnapshot

# Writes the thread id into the address bar without reloading, so a reload reopens the thread.
_SYNC_URL_JS = """
(thread) => {
  const url = new URL(window.location.href);
  if (thread) {
    url.searchParams.set("thread", thread);
  } else {
    url.searchParams.delete("thread");
  }
  window.history.replaceState(null, "", url);
  return [];
}
"""
_CSS = """
.cw-error { color: #b42318; font-weight: 600; }
.cw-progress { color: #475467; font-style: italic; }
.cw-warning { color: #b54708; }
.cw-sources-table { width: 100%; font-size: 0.9em; }
.cw-sources-table td { vertical-align: top; padding: 2px 6px; word-break: break-word; }
"""
_EMPTY_SOURCES = sources_html([])
_PENDING = "_…_"

# What a handler returns, in the order of `_Widgets.outputs()`:
# chat messages, status, sources, details, thread id, last snapshot.
Outputs = tuple[list[dict[str, str]], str, str, str, str, ThreadSnapshot | None]


@dataclass
class _Widgets:
    chat: Any
    status: Any
    sources: Any
    details: Any
    thread: Any
    last: Any

    def outputs(self) -> list[Any]:
        return [self.chat, self.status, self.sources, self.details, self.thread, self.last]


def _shown(snapshot: ThreadSnapshot, status: str) -> Outputs:
    return (
        snapshot.messages,
        status,
        sources_html(snapshot.citations),
        details_html(snapshot),
        snapshot.thread_id,
        snapshot,
    )


def _empty(status: str = "", thread_id: str = "") -> Outputs:
    return [], status, _EMPTY_SOURCES, details_html(None), thread_id, None


async def open_thread(server: ChatServer, thread_id: str) -> Outputs:
    """What the page shows when it opens with a thread id (from the URL or the browser)."""
    if not thread_id:
        return _empty()
    try:
        await server.check()
        snapshot = await server.snapshot(thread_id)
    except ServerError as exc:
        # Keep the id: the thread is probably fine and the server merely down.
        return _empty(notice_html(str(exc), error=True), thread_id)
    if snapshot is None:
        notice = f"Thread {thread_id} is not on this server any more; a new one starts."
        return _empty(notice_html(notice))
    return _shown(snapshot, "")


async def ask_in_thread(
    server: ChatServer, question: str, thread_id: str, last: ThreadSnapshot | None
) -> AsyncIterator[Outputs]:
    """One turn: stream progress and the answer, then show the thread as the server has it."""
    history = list(last.messages) if last is not None else []
    sources = sources_html(last.citations) if last is not None else _EMPTY_SOURCES
    details = details_html(last)
    question = question.strip()
    if not question:
        yield history, notice_html("Type a question first."), sources, details, thread_id, last
        return
    try:
        # A quick probe first: the SDK retries a refused connection for seconds.
        await server.check()
        if not thread_id:
            thread_id = await server.new_thread()
    except ServerError as exc:
        yield history, notice_html(str(exc), error=True), sources, details, thread_id, last
        return
    asked = [*history, {"role": "user", "content": question}]
    yield (
        [*asked, {"role": "assistant", "content": _PENDING}],
        notice_html("starting…"),
        sources,
        details,
        thread_id,
        last,
    )
    failure: str | None = None
    shown = ""
    try:
        async for view in server.ask(thread_id, question):
            text, status = view.text(), view.status()
            if view.error:
                failure = view.error
            if text == shown and not view.running and not view.error:
                continue
            shown = text
            yield (
                [*asked, {"role": "assistant", "content": text or _PENDING}],
                notice_html(status, error=view.error is not None),
                sources,
                details,
                thread_id,
                last,
            )
    except ServerError as exc:
        failure = str(exc)
    try:
        snapshot = await server.snapshot(thread_id)
    except ServerError as exc:
        snapshot, failure = None, failure or str(exc)
    if snapshot is None:
        reply = f"⚠ {failure or 'The run ended without an answer.'}"
        yield (
            [*asked, {"role": "assistant", "content": reply}],
            notice_html(failure or "no answer", error=True),
            sources,
            details,
            thread_id,
            last,
        )
        return
    messages = snapshot.messages
    if failure and (not messages or messages[-1]["role"] != "assistant"):
        messages = [*messages, {"role": "assistant", "content": f"⚠ {failure}"}]
    status = notice_html(failure, error=True) if failure else ""
    yield _shown(ThreadSnapshot(**{**snapshot.__dict__, "messages": messages}), status)


async def report_wrong(server: ChatServer, last: ThreadSnapshot | None) -> str:
    """The "wrong answer" button: evict the last answer from the cache, through the server."""
    if last is None or not last.messages:
        return notice_html("Ask a question first; then you can report its answer.")
    try:
        await server.check()
        return notice_html(await server.report_wrong_answer(last))
    except ServerError as exc:
        return notice_html(str(exc), error=True)


def build_app(server: ChatServer) -> gr.Blocks:
    """The chat page, wired to `server`."""
    with gr.Blocks(title="CodeWeaver", analytics_enabled=False) as page:
        thread = gr.BrowserState("", storage_key="codeweaver-thread")
        last = gr.State(None)
        gr.Markdown(
            "## CodeWeaver\nCited answers to programming questions from Stack Overflow, "
            f"GitHub code, official docs and your documents. Server: `{server.url}`, "
            f"assistant: `{server.assistant}`."
        )
        with gr.Row():
            with gr.Column(scale=3):
                chat = gr.Chatbot(
                    elem_id="cw-chat",
                    label="Conversation",
                    height=520,
                    feedback_options=None,
                    sanitize_html=True,
                )
                status = gr.HTML(elem_id="cw-status")
                with gr.Row():
                    box = gr.Textbox(
                        elem_id="cw-input",
                        show_label=False,
                        placeholder="Ask a programming question…",
                        lines=2,
                        scale=5,
                    )
                    send = gr.Button("Ask", variant="primary", elem_id="cw-send", scale=1)
                with gr.Row():
                    new = gr.Button("New thread", elem_id="cw-new")
                    wrong = gr.Button("Wrong answer", elem_id="cw-wrong", variant="stop")
            with gr.Column(scale=2):
                gr.Markdown("### Sources")
                sources = gr.HTML(_EMPTY_SOURCES, elem_id="cw-sources")
                gr.Markdown("### This turn")
                details = gr.HTML(details_html(None), elem_id="cw-details")
        widgets = _Widgets(chat, status, sources, details, thread, last)

        async def on_load(stored: str, request: gr.Request) -> Outputs:
            requested = request.query_params.get("thread") if request is not None else None
            return await open_thread(server, requested or stored or "")

        async def on_ask(
            question: str, thread_id: str, snapshot: ThreadSnapshot | None
        ) -> AsyncIterator[tuple[Any, ...]]:
            async for shown in ask_in_thread(server, question, thread_id, snapshot):
                yield ("", *shown)

        def on_new() -> Outputs:
            return _empty()

        async def on_wrong(snapshot: ThreadSnapshot | None) -> str:
            return await report_wrong(server, snapshot)

        page.load(on_load, [thread], widgets.outputs()).then(None, [thread], None, js=_SYNC_URL_JS)
        for trigger in (send.click, box.submit):
            trigger(on_ask, [box, thread, last], [box, *widgets.outputs()]).then(
                None, [thread], None, js=_SYNC_URL_JS
            )
        new.click(on_new, None, widgets.outputs()).then(None, [thread], None, js=_SYNC_URL_JS)
        wrong.click(on_wrong, [last], [status])
    built: gr.Blocks = page
    return built


def launch(server: ChatServer, *, host: str, port: int) -> None:
    """Serve the chat page until interrupted."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    theme = gr.themes.Soft(
        font=["ui-sans-serif", "system-ui", "sans-serif"],
        font_mono=["ui-monospace", "SFMono-Regular", "monospace"],
    )
    build_app(server).queue(default_concurrency_limit=8).launch(
        server_name=host,
        server_port=port,
        inbrowser=False,
        show_error=True,
        theme=theme,
        css=_CSS,
    )
