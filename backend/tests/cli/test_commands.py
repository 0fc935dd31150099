"""`chat`, `ingest`, `serve`, `ui` and `assistants` through typer's runner."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeweaver.cli.console import server_url
from codeweaver.cli.main import app
from codeweaver.cli.serve import client_links, langgraph_dev_command, pick_port
from codeweaver.server.threads import CHECKPOINTER_PATH, HTTP_APP_PATH
from codeweaver_runtime import is_private
from tests.support import REPO, free_port

runner = CliRunner()


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "guide").mkdir(parents=True)
    (folder / "guide" / "setup.md").write_text(
        "# Frobnicator\n\n## Setup\n\nRun `frob --init` to create ~/.frob.\n", encoding="utf-8"
    )
    (folder / "widgets.rst").write_text("Widgets\n=======\n\nA widget spins.\n", encoding="utf-8")
    (folder / "page.html").write_text(
        "<html><head><title>Spinner</title></head><body><h1>Spin</h1><p>Fast.</p></body></html>",
        encoding="utf-8",
    )
    (folder / "spin.py").write_text("def spin():\n    return 1\n", encoding="utf-8")
    (folder / "notes.txt").write_text("Spinning is fun.\n", encoding="utf-8")
    (folder / "broken.txt").write_bytes(b"\x00\x01 not text")
    (folder / "node_modules").mkdir()
    (folder / "node_modules" / "dep.md").write_text("# dependency\n", encoding="utf-8")
    return folder


def ingest(home: Path, *paths: Path | str) -> tuple[int, str]:
    result = runner.invoke(app, ["ingest", *map(str, paths), "--data-dir", str(home)])
    # Rich wraps long lines at the terminal's width; compare words, not line breaks.
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.slow
def test_ingest_adds_then_skips_unchanged_then_removes_deleted(docs: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    code, output = ingest(home, docs)
    assert code == 0, output
    assert "6 file(s): 5 added, 0 updated, 0 unchanged, 0 removed, 1 skipped" in output
    assert "broken.txt" in output
    assert "binary" in output
    manifest = json.loads((home / "ingested.json").read_text(encoding="utf-8"))["default"]
    assert all(Path(file).is_absolute() for file in manifest.values())
    assert not any("node_modules" in file for file in manifest.values())

    code, output = ingest(home, docs)
    assert code == 0, output
    assert "0 added, 0 updated, 5 unchanged, 0 removed" in output
    assert "0 chunk(s) embedded" in output

    (docs / "widgets.rst").unlink()
    (docs / "notes.txt").write_text("Spinning is fun, and fast.\n", encoding="utf-8")
    code, output = ingest(home, docs)
    assert code == 0, output
    assert "0 added, 1 updated, 3 unchanged, 1 removed" in output

    # A single file ingested before and now deleted is removed when named again.
    (docs / "spin.py").unlink()
    code, output = ingest(home, docs / "spin.py")
    assert code == 0, output
    assert "1 removed" in output


def test_ingest_rejects_a_path_that_does_not_exist(tmp_path: Path) -> None:
    code, output = ingest(tmp_path / "home", tmp_path / "nowhere")
    assert code == 2
    assert "no such file or folder" in output


@pytest.mark.slow
def test_ingest_of_only_unreadable_files_fails(tmp_path: Path) -> None:
    odd = tmp_path / "image.png"
    odd.write_bytes(b"\x89PNG")
    code, output = ingest(tmp_path / "home", odd)
    assert code == 1
    assert "unsupported file type .png" in output


def test_ingest_needs_a_path() -> None:
    result = runner.invoke(app, ["ingest"])
    assert result.exit_code == 2
    assert "give files or folders to ingest" in result.output


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data directory `serve` writes its derived config to."""
    monkeypatch.setenv("CODEWEAVER_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def serve_dry_run(*options: str) -> tuple[int, list[str], str]:
    """`serve --dry-run` with the repository's langgraph.json: exit code, command, output.

    The command is printed as `cd <working folder> && langgraph dev ...`; the working folder is
    the command's first word here.
    """
    config = ["--config", str(REPO / "langgraph.json")]
    result = runner.invoke(app, ["serve", "--dry-run", *options, *config])
    words = shlex.split(result.stdout) if result.exit_code == 0 else []
    if words:
        assert words[0] == "cd"
        assert words[2] == "&&"
        words = [words[1], *words[3:]]
    return result.exit_code, words, result.output


def value(command: list[str], option: str) -> str:
    return command[command.index(option) + 1]


def test_serve_runs_langgraph_dev_offline_on_a_free_port(home: Path) -> None:
    code, (workdir, *command), output = serve_dry_run("--n-jobs-per-worker", "3")
    assert code == 0, output
    # The server's own records go to .langgraph_api/ of its working folder: the data
    # directory's, never the project's.
    assert Path(workdir) == home / "server"
    assert Path(workdir).is_dir()
    assert is_private(Path(workdir))
    assert command[1] == "dev"
    assert "--no-browser" in command
    assert "--no-reload" in command
    assert value(command, "--n-jobs-per-worker") == "3"
    # langgraph.json, plus the checkpointer that keeps every completed turn through a crash.
    config = Path(value(command, "--config"))
    assert config.parent == home
    derived = json.loads(config.read_text(encoding="utf-8"))
    shipped = json.loads((REPO / "langgraph.json").read_text())
    # The shipped serializer settings (registered checkpoint types) are kept; the path is added.
    assert derived["checkpointer"] == {**shipped["checkpointer"], "path": CHECKPOINTER_PATH}
    assert derived["graphs"] == shipped["graphs"]
    assert int(value(command, "--port")) > 0
    # Without --studio, Studio sends the token like any client.
    assert derived["auth"]["disable_studio_auth"] is True
    # CodeWeaver's development app (its middleware and routes, the deployment's /mcp among
    # them) in place of the one langgraph.json names, and no CORS rules of Studio's.
    assert shipped["http"]["app"] != HTTP_APP_PATH
    assert derived["http"] == {**shipped["http"], "app": HTTP_APP_PATH}
    assert "cors" not in derived["http"]


@pytest.mark.usefixtures("home")
def test_serve_studio_lets_studio_in_from_its_page_and_this_machine_only() -> None:
    code, command, output = serve_dry_run("--studio")
    assert code == 0, output
    assert value(command, "--host") == "127.0.0.1"
    derived = json.loads(Path(value(command, "--config")).read_text())
    assert derived["auth"] == {"path": "codeweaver.server.auth:auth", "disable_studio_auth": False}
    cors = derived["http"]["cors"]
    assert cors["allow_origins"] == ["https://smith.langchain.com"]
    assert re.match(cors["allow_origin_regex"], "http://localhost:3000")
    assert not re.match(cors["allow_origin_regex"], "http://localhost.evil.example")
    assert not re.match(cors["allow_origin_regex"], "https://evil.example")


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.5", "example.org", "::"])
def test_serve_studio_refuses_to_listen_beyond_loopback(host: str) -> None:
    code, _, output = serve_dry_run("--studio", "--host", host)
    assert code == 2
    assert "loopback only" in output


def test_serve_tells_where_each_client_connects_and_where_the_token_goes() -> None:
    url = "http://127.0.0.1:2024"
    plain = "\n".join(client_links(url, studio=False))
    assert "https://smith.langchain.com/studio/?baseUrl=http://127.0.0.1:2024" in plain
    assert "--studio" in plain
    assert "apiUrl=http://127.0.0.1:2024&assistantId=codeweaver" in plain
    assert '"LangSmith API Key" field' in plain
    assert "codeweaver token" in plain
    assert "http://127.0.0.1:2024/mcp" in plain
    studio = client_links(url, studio=True)[0]
    assert "no token" in studio


def test_serve_command_line_keeps_what_it_is_given() -> None:
    command = langgraph_dev_command(
        config=Path("/x/langgraph.json"), host="0.0.0.0", port=8123, jobs=8, reload=False
    )
    assert command[1:] == [
        "dev", "--config", "/x/langgraph.json", "--host", "0.0.0.0", "--port", "8123",
        "--n-jobs-per-worker", "8", "--no-browser", "--no-reload",
    ]  # fmt: skip


def test_serve_reload_watches_the_project_not_the_working_folder() -> None:
    command = langgraph_dev_command(
        config=Path("/x/langgraph.json"), host="127.0.0.1", port=8123, jobs=2, reload=True,
        watch=Path("/project"),
    )  # fmt: skip
    assert command[1:5] == ["-m", "codeweaver.server.reloading", "/project", "dev"]
    assert "--no-reload" not in command


def test_serve_without_a_config_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--dry-run", "--config", str(tmp_path / "none.json")])
    assert result.exit_code == 2
    assert "No langgraph.json found" in result.output


def test_a_taken_port_is_not_picked() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert pick_port("127.0.0.1", port) != port
    free = free_port()
    assert pick_port("127.0.0.1", free) == free


def test_ui_server_url_comes_from_option_then_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CODEWEAVER_SERVER_URL", raising=False)
    assert server_url(None) == "http://127.0.0.1:2024"
    monkeypatch.setenv("CODEWEAVER_SERVER_URL", "http://lg.internal:8123/")
    assert server_url(None) == "http://lg.internal:8123"
    assert server_url("https://other:1") == "https://other:1"


def test_ui_rejects_a_server_that_is_not_a_url() -> None:
    result = runner.invoke(app, ["ui", "--server", "localhost:2024"])
    assert result.exit_code == 2
    assert "not an http(s) URL" in result.output


def test_assistants_explains_an_unreachable_server() -> None:
    result = runner.invoke(app, ["assistants", "--server", f"http://127.0.0.1:{free_port()}"])
    assert result.exit_code == 1
    assert "Cannot reach LangGraph Server" in result.output


def chat(home: Path, options: list[str], *typed: str) -> str:
    """A `chat` session of the lines typed, to the end of input; what it printed."""
    command = ["chat", "--data-dir", str(home), *options]
    result = runner.invoke(app, command, input="".join(f"{line}\n" for line in typed))
    assert result.exit_code == 0, result.output
    return result.output


def test_chat_commands_work_without_asking(tmp_path: Path) -> None:
    output = chat(tmp_path, ["--thread", "t-1"], "/sources", "/bogus", "/new", "/quit")
    assert "thread t-1" in output
    assert "No sources yet" in output
    assert "Unknown command /bogus" in output
    assert "new thread" in output
    assert "codeweaver chat --thread" in output


@pytest.mark.slow
def test_chat_keeps_the_thread_for_a_follow_up(tmp_path: Path) -> None:
    output = chat(
        tmp_path,
        ["--model", "offline"],
        "How do I reverse a list in Python?",
        "/sources",
        "Can you show an example of that?",
    )
    assert "Sources" in output  # the /sources table
    assert "route single" in output
    assert "Following up on my previous answer" in output
