"""`langgraph dockerfile` builds the image from the uv lock and installs each package once."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.support import REPO

LANGGRAPH = shutil.which("langgraph", path=str(REPO / ".venv" / "bin")) or "langgraph"


def _served_members() -> list[str]:
    """The workspace members the served package needs: `codeweaver` and what it depends on.

    A development-only member (`codeweaver-testing`, the fakes the tests use) is in the
    workspace but must not be in the image.
    """
    folders = {"backend": REPO / "backend"} | {
        f"packages/{p.name}": p
        for p in sorted((REPO / "packages").iterdir())
        if (p / "pyproject.toml").is_file()
    }
    projects = {
        folder: tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        for folder, path in folders.items()
    }
    by_name = {project["name"]: folder for folder, project in projects.items()}
    needed, todo = set(), ["codeweaver"]
    while todo:
        name = todo.pop()
        if name in needed or name not in by_name:
            continue
        needed.add(name)
        for requirement in projects[by_name[name]].get("dependencies", []):
            todo.append(re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0])
    return sorted(by_name[name] for name in needed)


MEMBERS = _served_members()


@pytest.fixture(scope="module")
def dockerfile(tmp_path_factory: pytest.TempPathFactory) -> str:
    target = tmp_path_factory.mktemp("docker") / "Dockerfile"
    env = {**os.environ, "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    subprocess.run(
        [LANGGRAPH, "dockerfile", "-c", str(REPO / "langgraph.json"), str(target)],
        cwd=REPO, env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return target.read_text(encoding="utf-8")


def test_dependencies_come_from_the_lock(dockerfile: str) -> None:
    assert "ADD uv.lock " in dockerfile
    assert "uv export --package codeweaver --frozen" in dockerfile
    assert "--no-emit-workspace" in dockerfile
    assert "-r uv_requirements.txt" in dockerfile


def test_each_workspace_package_is_installed_once_without_dependencies(dockerfile: str) -> None:
    assert "packages/testing" not in MEMBERS
    assert "packages/engine" in MEMBERS
    for member in MEMBERS:
        assert dockerfile.count(f"ADD {member} /deps/workspace/{member}") == 1, member
    installs = [line for line in dockerfile.splitlines() if line.endswith("--no-deps -e .")]
    assert len(installs) == len(MEMBERS)


def test_every_graph_of_langgraph_json_is_served(dockerfile: str) -> None:
    graphs = json.loads((REPO / "langgraph.json").read_text(encoding="utf-8"))["graphs"]
    line = next(
        line for line in dockerfile.splitlines() if line.startswith("ENV LANGSERVE_GRAPHS=")
    )
    served = json.loads(line.split("=", 1)[1].strip("'"))
    assert set(served) == set(graphs)


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not on PATH")
def test_the_exported_requirements_hold_no_dev_tools_and_no_workspace_package() -> None:
    # The Dockerfile's own export step, run here against the lock.
    exported = subprocess.run(
        ["uv", "export", "--package", "codeweaver", "--frozen", "--no-hashes",
         "--no-emit-project", "--no-emit-workspace"],
        cwd=REPO, check=True, capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip
    names = {line.split("==")[0].strip().lower() for line in exported.splitlines() if "==" in line}
    assert {"langgraph", "qdrant-client", "gradio", "pypdf"} <= names
    assert not names & {"pytest", "playwright", "mypy", "ruff"}
    assert not any(name.startswith("codeweaver") for name in names)
    assert Path(REPO / "uv.lock").is_file()
