"""`codeweaver ingest --python` and `codeweaver packs` through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeweaver.cli.commands.ingest_python import split_packages
from codeweaver.cli.main import app
from tests.packs_env import Environment, make_environment

runner = CliRunner()


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return make_environment(tmp_path_factory.mktemp("venv"))


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env=env)
    # Rich wraps long lines at the terminal's width; compare words, not line breaks.
    return result.exit_code, " ".join(result.output.split())


def test_ingest_python_builds_one_pack_per_library_and_packs_lists_them(
    env: Environment, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    code, output = run(
        "ingest", "--python", str(env.python), "--packages", "tinyg, tinysphinx",
        "--data-dir", str(home),
    )  # fmt: skip
    assert code == 0, output
    assert f"Reading 2 libraries of {env.python}" in output
    assert "│ tiny-google │ 0.3.0 │ built │ 4 │" in output
    assert "│ tinysphinx │ 2.0 │ built │ 2 │" in output
    assert "2 libraries: 2 built, 0 unchanged, 0 empty, 0 failed · 6 units" in output

    code, output = run("ingest", "--python", str(env.python), "--packages", "tinyg",
                       "--data-dir", str(home))  # fmt: skip
    assert code == 0, output
    assert "1 library: 0 built, 1 unchanged" in output

    code, output = run("packs", "--json", "--data-dir", str(home))
    assert code == 0, output
    packs = json.loads(output)["packs"]
    assert [(p["name"], p["source"]) for p in packs] == [
        ("python", "bundled"),
        ("tiny-google", "installed"),
        ("tinysphinx", "installed"),
    ]
    assert packs[1]["units"] == 4
    assert packs[1]["path"].startswith(str(home / "packs"))

    code, output = run("packs", "--data-dir", str(home))
    assert code == 0, output
    assert "tinysphinx │ 2.0 │ installed │ 2 │" in output


def test_failures_are_reported_per_library(env: Environment, tmp_path: Path) -> None:
    code, output = run("ingest", "--python", str(env.python), "--packages", "crashlib",
                       "--data-dir", str(tmp_path))  # fmt: skip
    assert code == 0, output
    assert "│ crashlib │ 0.1 │ built │ 4 │" in output
    assert (
        "crashlib could not read crashlib: inspection crashed (signal 6) while importing "
        "crashlib.fatal; kept what it read"
    ) in output


def test_the_active_virtualenv_is_read_from_any_folder(
    env: Environment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "project"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, output = run(
        "ingest", "--packages", "tinysphinx", "--data-dir", str(tmp_path / "home"),
        env={"VIRTUAL_ENV": str(env.root)},
    )  # fmt: skip
    assert code == 0, output
    assert f"Reading 1 library of {env.python}" in output
    assert "│ tinysphinx │ 2.0 │ built │ 2 │" in output


def test_one_line_errors(env: Environment, tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    code, output = run("ingest", "--python", str(tmp_path), "--data-dir", home)
    assert (code, output) == (
        2,
        f"Cannot ingest: {tmp_path} is a folder, not a Python interpreter (give its bin/python)",
    )
    text = tmp_path / "notes.txt"
    text.write_text("not a program\n")
    code, output = run("ingest", "--python", str(text), "--data-dir", home)
    assert (code, output) == (
        2,
        f"Cannot ingest: {text} is not executable, so not a Python interpreter",
    )
    code, output = run("ingest", "--python", str(env.python), "--packages", "tinylb,pandas",
                       "--data-dir", home)  # fmt: skip
    assert code == 2
    assert output.startswith(f"Cannot ingest: not installed in {env.python} (Python 3.")
    assert output.endswith("): tinylb (installed and close: tinylib, tinyg); pandas")
    code, output = run("ingest", str(tmp_path), "--python", str(env.python), "--data-dir", home)
    assert (code, output) == (
        2,
        "Cannot ingest: give either files and folders, or --python/--packages",
    )


def test_ingest_needs_paths_or_an_interpreter() -> None:
    code, output = run("ingest")
    assert code == 2
    assert output == (
        "Cannot ingest: give files or folders to ingest, or --python PATH for the libraries "
        "installed in a Python environment"
    )


def test_packages_are_split_on_commas() -> None:
    assert split_packages(" pandas, numpy,,bs4 ") == ["pandas", "numpy", "bs4"]
    assert split_packages(" , ") is None
    assert split_packages(None) is None


def test_packages_that_name_nothing_are_refused_not_read_as_every_library(
    env: Environment, tmp_path: Path
) -> None:
    code, output = run(
        "ingest", "--python", str(env.python), "--packages", " , ", "--data-dir", str(tmp_path)
    )
    assert code == 2
    assert "Cannot ingest: --packages names no package" in output
    assert "Reading" not in output
    assert not (tmp_path / "packs").exists()
