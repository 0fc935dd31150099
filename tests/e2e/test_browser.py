"""The chat page in a real browser: Debian's Chromium, headless, driven by Playwright.

`langgraph dev` (the session's `server` fixture) and `codeweaver ui` run on free ports; the
test asks, waits for the streamed answer and its sources, asks a follow-up in the same
thread, reloads, finds the thread again, reports the answer wrong, and saves the screenshot
the README shows.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support import Server, free_port, screenshot_path

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]

CHROMIUM = shutil.which("chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOT = "screenshot-chat.png"
QUESTION = "How do I reverse a list in Python?"
FOLLOW_UP = "Can you show an example of that?"


@pytest.fixture(scope="module")
def ui_url(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("ui") / "ui.log"
    port = free_port()
    # The page finds the server's local token the way a user's does: in the shared data dir.
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "CODEWEAVER_HOME": str(server.home)}
    env.pop("CODEWEAVER_TOKEN", None)
    with log.open("wb") as handle:
        proc = subprocess.Popen(
            [sys.executable, "-m", "codeweaver", "ui", "--server", server.url, "--port", str(port)],
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"codeweaver ui did not start:\n{log.read_text(errors='replace')}")
            try:
                if httpx.get(url, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        yield url
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=20)


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_chat_page_streams_cites_follows_up_and_survives_a_reload(
    ui_url: str, tmp_path: Path
) -> None:
    picture = screenshot_path(SCREENSHOT, tmp_path)
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(240_000)
            # The first answer embeds the seed corpus on a cold server: minutes on 2 cores.
            expect.set_options(timeout=240_000)
            page.goto(ui_url)
            chat = page.locator("#cw-chat")
            sources = page.locator("#cw-sources")

            page.locator("#cw-input textarea").fill(QUESTION)
            page.locator("#cw-send").click()
            # Progress shows while the run streams, then the answer and its sources.
            expect(page.locator("#cw-status")).to_contain_text("…")
            expect(sources).to_contain_text("[1]")
            expect(sources).to_contain_text("Local documents")
            expect(chat).to_contain_text("reverse")
            expect(page.locator("#cw-details")).to_contain_text("Route: single")
            expect(page).to_have_url(re.compile(r"[?&]thread="))
            thread = page.url.split("thread=", 1)[1]

            page.locator("#cw-input textarea").fill(FOLLOW_UP)
            page.locator("#cw-send").click()
            expect(chat).to_contain_text("Following up on my previous answer")
            assert page.url.split("thread=", 1)[1] == thread

            page.reload()
            expect(chat).to_contain_text(QUESTION)
            expect(chat).to_contain_text(FOLLOW_UP)
            expect(chat).to_contain_text("Following up on my previous answer")
            assert thread in page.url
            # Take the picture before the feedback notice, with the sources panel filled.
            page.locator("#cw-input textarea").fill(QUESTION)
            page.locator("#cw-send").click()
            expect(page.locator("#cw-details")).to_contain_text("Served from the cache")
            page.screenshot(path=str(picture))

            page.locator("#cw-wrong").click()
            expect(page.locator("#cw-status")).to_contain_text("removed")
        finally:
            browser.close()
    assert picture.stat().st_size > 10_000
