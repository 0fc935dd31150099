"""agent-chat-ui, as published on npm (create-agent-chat-app), against CodeWeaver in Chromium.

The page is built by `scripts/build_agent_chat_ui.sh` (npm registry only; the build itself is
offline) into `$CODEWEAVER_AGENT_CHAT_UI` or `~/.cache/codeweaver/agent-chat-ui`, and served
as static files. The user's token goes where a user puts it, the page's "LangSmith API Key"
(kept in local storage, sent as `X-Api-Key`). The test asks a question, reads the streamed
answer as the page renders it (Sources as a list of links), and saves the screenshot the
README shows.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.e2e.test_browser import CHROMIUM, CHROMIUM_ARGS
from tests.support import REPO, Server, screenshot_path, serving

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(1200)]

QUESTION = "How do I reverse a list in Python?"
SCREENSHOT = "screenshot-agent-chat-ui.png"


def built_page() -> Path:
    """agent-chat-ui's built page, building it first when it is not there."""
    default = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    root = Path(
        os.environ.get("CODEWEAVER_AGENT_CHAT_UI", default / "codeweaver" / "agent-chat-ui")
    )
    if not (root / "dist" / "index.html").is_file():
        if shutil.which("npm") is None:
            pytest.skip("agent-chat-ui is not built and npm is not installed to build it")
        subprocess.run([str(REPO / "scripts" / "build_agent_chat_ui.sh"), str(root)], check=True)
    return root / "dist"


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=built_page())
    with serving(handler) as url:
        yield url


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_agent_chat_ui_shows_a_streamed_cited_answer(
    server: Server, page_url: str, tmp_path: Path
) -> None:
    picture = screenshot_path(SCREENSHOT, tmp_path)
    from playwright.sync_api import expect, sync_playwright

    token = next(iter(server.tokens.values()))
    query = urlencode({"apiUrl": server.url, "assistantId": "codeweaver"})
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1100})
        page.add_init_script(f"window.localStorage.setItem('lg:chat:apiKey', {token!r});")
        sent: list[dict[str, str]] = []
        page.on(
            "request",
            lambda r: sent.append(r.headers) if r.url.endswith("/runs/stream") else None,
        )
        page.goto(f"{page_url}/?{query}")
        page.get_by_placeholder("Type your message...").fill(QUESTION)
        page.keyboard.press("Enter")

        sources = page.locator("li a[href^='https://docs.python.org/']")
        expect(sources.first).to_be_visible(timeout=600_000)
        expect(page.get_by_text("reversed", exact=False).first).to_be_visible()
        assert sent, "the page sent no run"
        assert sent[0].get("x-api-key") == token
        # Sources are a list: each citation is its own item with its own link.
        assert page.locator("li:has(a[href^='http'])").count() >= 1
        page.screenshot(path=str(picture), full_page=True)
        browser.close()
    assert picture.stat().st_size > 10_000
