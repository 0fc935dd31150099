"""Coding agents' tools through a real MCP client: `codeweaver mcp` over stdio.

The MCP SDK's stdio client plays the agent's part (Claude Code, Cursor and VS Code start a
local tool the same way): it spawns the command, lists the tools and calls each one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError
from mcp.types import CallToolResult, TextContent

from tests.support import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

TOOLS = ["ask", "search_docs", "list_libraries"]
QUESTION = "How do I reverse a list in Python?"


def text_of(result: CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, TextContent)
    return content.text


def assert_markdown_not_a_repr(text: str) -> None:
    """Lines of Markdown, not a Python dict's repr on one line (what LangGraph's /mcp sent)."""
    assert text.count("\n") > 3
    assert not text.lstrip().startswith(("{'", '{"'))


@asynccontextmanager
async def stdio_session(home: Path, log: Path) -> AsyncIterator[ClientSession]:
    command = shutil.which("codeweaver", path=str(REPO / ".venv" / "bin")) or "codeweaver"
    env = {
        **os.environ,
        "CODEWEAVER_HOME": str(home),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    for key in ("OPENAI_API_KEY", "GOOGLE_API_KEY", "CODEWEAVER_CHAT_MODEL", "CODEWEAVER_TOKEN"):
        env.pop(key, None)
    params = StdioServerParameters(command=command, args=["mcp"], env=env, cwd=str(home.parent))
    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


async def test_an_agent_starts_codeweaver_mcp_and_uses_each_tool(tmp_path: Path) -> None:
    log = tmp_path / "stderr.log"
    async with stdio_session(tmp_path / "home", log) as session:
        listed = await session.list_tools()
        assert [tool.name for tool in listed.tools] == TOOLS

        libraries = await session.call_tool("list_libraries", {})
        assert not libraries.isError
        assert "- `python` 3.11:" in text_of(libraries)
        assert libraries.structuredContent is not None
        [python] = libraries.structuredContent["libraries"]
        assert (python["name"], python["version"], python["source"]) == (
            "python",
            "3.11",
            "bundled",
        )

        found = await session.call_tool(
            "search_docs", {"query": "size of a file in bytes", "limit": 3}
        )
        assert not found.isError
        found_text = text_of(found)
        assert_markdown_not_a_repr(found_text)
        assert "`os.path.getsize`" in found_text
        assert "Quoted from os.path.getsize" in found_text
        assert found.structuredContent is not None
        entry = found.structuredContent["results"][0]
        assert entry["signatures"]
        assert entry["pack"] == "python"
        assert entry["version"] == "3.11"
        assert entry["url"].startswith("https://docs.python.org/3.11/")

        answered = await session.call_tool("ask", {"question": QUESTION})
        assert not answered.isError
        answer = text_of(answered)
        assert_markdown_not_a_repr(answer)
        assert "`reversed`" in answer
        assert "**Sources**" in answer
        structured = answered.structuredContent
        assert structured is not None
        assert structured["answer"] == answer
        assert structured["declined"] is False
        assert structured["citations"][0]["pack"] == "python"
        assert structured["citations"][0]["url"] in answer

        declined = await session.call_tool(
            "ask", {"question": "drop NaN rows", "library": "pandas"}
        )
        assert declined.structuredContent is not None
        assert declined.structuredContent["decline_reason"] == "library_not_indexed"

        refused = await session.call_tool("ask", {"question": "x" * 1_048_576})
        assert refused.isError
        assert "takes at most 12,000" in text_of(refused)
        with pytest.raises(McpError, match="Unknown tool 'search'"):
            await session.call_tool("search", {"question": QUESTION})
    errors = log.read_text()
    assert "Traceback" not in errors, errors
