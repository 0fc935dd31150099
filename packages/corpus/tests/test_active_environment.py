"""What the user's active environment has installed, for the engine's declines."""

from __future__ import annotations

import shutil
from pathlib import Path

from codeweaver_corpus.packs.environment import active_environment
from codeweaver_engine.libraries import libraries_named
from tests.packs_env import make_library_environment


def test_the_active_virtualenv_says_which_libraries_it_has_at_which_versions(
    tmp_path: Path,
) -> None:
    env = make_library_environment(tmp_path / "venv")
    environ = {"VIRTUAL_ENV": str(env.root), "PATH": ""}
    found = active_environment(environ, seconds=0)
    assert found is not None
    assert found.python == str(env.python)
    [pandas] = libraries_named("pandas")
    [numpy] = libraries_named("numpy")
    [requests] = libraries_named("python requests")
    assert found.version_of(pandas) == ("pandas", "9.9.0")
    assert found.version_of(numpy) == ("numpy", "9.9.0")
    assert found.version_of(requests) is None

    # What it found is kept for a while; once that is over, a library removed is seen gone.
    shutil.rmtree(next(env.site_packages.glob("numpy-*.dist-info")))
    assert active_environment(environ).version_of(numpy) is not None  # type: ignore[union-attr]
    again = active_environment(environ, seconds=0)
    assert again is not None
    assert again.version_of(numpy) is None


def test_no_environment_at_all_is_none(tmp_path: Path) -> None:
    assert active_environment({"VIRTUAL_ENV": str(tmp_path / "gone"), "PATH": ""}) is None
