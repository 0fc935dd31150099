"""The wheels the workspace builds hold what an install needs, and no test code.

The fakes tests inject live in `codeweaver-testing`, a development dependency of the workspace
root; a wheel that shipped them, imported them or required that package would put test code
(and the model server's `starlette` and `uvicorn`) into every install. `codeweaver bench` is a
command users run, so its own fakes are the one exception.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import codeweaver_testing
from codeweaver_testing import model_server

REPO = Path(__file__).resolve().parents[1]
TEST_SUPPORT = "codeweaver_testing"
BENCH_ASIDE = {"codeweaver/bench/fakes.py"}
"""The fakes `codeweaver bench` measures with: shipped, because users run the bench."""
TEST_LIKE = re.compile(r"(^|/)(tests?|testing|conftest|fakes?|mocks?|stubs?)(/|\.py$|_)")


def _uv() -> str:
    uv = os.environ.get("UV") or shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH")
    return uv


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, zipfile.ZipFile]:
    """Every member's wheel, built offline by uv's own build backend, by distribution name."""
    out = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [_uv(), "build", "--offline", "--all-packages", "--wheel", "--quiet", "-o", str(out)],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    built = {path.name.split("-")[0]: zipfile.ZipFile(path) for path in out.glob("*.whl")}
    members = {path.parent.name for path in (REPO / "packages").glob("*/pyproject.toml")} | {
        "backend"
    }
    assert len(built) == len(members), sorted(built)
    return built


def _requires(wheel: zipfile.ZipFile) -> list[str]:
    [metadata] = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
    headers = Parser().parsestr(wheel.read(metadata).decode())
    lines = headers.get_all("Requires-Dist") or []
    return [re.split(r"[ ;<>=!~\[]", line, maxsplit=1)[0] for line in lines]


def _shipped(wheels: dict[str, zipfile.ZipFile]) -> dict[str, zipfile.ZipFile]:
    return {name: wheel for name, wheel in wheels.items() if name != TEST_SUPPORT}


def test_no_wheel_ships_test_code(wheels: dict[str, zipfile.ZipFile]) -> None:
    test_like = {
        name: [
            path
            for path in wheel.namelist()
            if TEST_LIKE.search(path) and path not in BENCH_ASIDE and ".dist-info/" not in path
        ]
        for name, wheel in _shipped(wheels).items()
    }
    assert not {name: paths for name, paths in test_like.items() if paths}


def test_no_wheel_defines_a_fake_of_the_test_support(wheels: dict[str, zipfile.ZipFile]) -> None:
    """A fake copied into a package under another file name is still a fake in the wheel."""
    fakes = {*codeweaver_testing.__all__, model_server.ModelServer.__name__}
    for wheel in _shipped(wheels).values():
        for path in wheel.namelist():
            if path.endswith(".py"):
                tree = ast.parse(wheel.read(path))
                defined = {
                    node.name
                    for node in tree.body
                    if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                }
                assert not defined & fakes, path


def test_no_wheel_imports_or_requires_the_test_support(wheels: dict[str, zipfile.ZipFile]) -> None:
    for name, wheel in _shipped(wheels).items():
        assert "codeweaver-testing" not in _requires(wheel), name
        for path in wheel.namelist():
            if path.endswith(".py"):
                assert TEST_SUPPORT not in wheel.read(path).decode(), path


def test_the_bench_ships_its_own_fakes(wheels: dict[str, zipfile.ZipFile]) -> None:
    assert set(wheels["codeweaver"].namelist()) >= BENCH_ASIDE


def test_the_runtime_needs_no_web_server(wheels: dict[str, zipfile.ZipFile]) -> None:
    requires = _requires(wheels["codeweaver_runtime"])
    assert "codeweaver-schema" in requires
    assert not {"starlette", "uvicorn"} & set(requires)


def test_the_test_support_carries_the_fakes(wheels: dict[str, zipfile.ZipFile]) -> None:
    shipped = set(wheels[TEST_SUPPORT].namelist())
    assert {f"{TEST_SUPPORT}/model_server.py", f"{TEST_SUPPORT}/chat.py"} <= shipped
    assert {"starlette", "uvicorn"} <= set(_requires(wheels[TEST_SUPPORT]))
