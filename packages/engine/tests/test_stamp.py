"""The version of answers changes with any file that can change an answer, and with nothing else."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codeweaver_engine.packs import BUNDLED_PACK
from codeweaver_engine.packs.format import MANIFEST_FILE
from codeweaver_engine.stamp import (
    ANSWERING_PACKAGES,
    answers_version,
    package_files,
    package_folder,
    stamp,
)

ENGINE = package_folder("codeweaver_engine")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the installed engine package; a pack's vectors stay behind (its manifest holds
    their hashes, and only the manifest counts)."""
    assert ENGINE is not None
    target = tmp_path / "codeweaver_engine"
    shutil.copytree(
        ENGINE, target, ignore=shutil.ignore_patterns("__pycache__", "*.npy", "*.jsonl.gz")
    )
    return target


def _version(engine: Path) -> str:
    return stamp([engine], [engine / "data" / "packs" / "python-3.11" / MANIFEST_FILE])


def test_this_install_s_version_covers_its_packages_and_the_bundled_pack(tmp_path: Path) -> None:
    folders = [package_folder(name) for name in ANSWERING_PACKAGES]
    assert all(folders)
    # A data directory without installed packs: the install's part alone.
    assert answers_version(tmp_path) == stamp(
        [f for f in folders if f is not None], [BUNDLED_PACK / MANIFEST_FILE]
    )
    assert answers_version(tmp_path).startswith("answers-")


def test_a_copy_has_the_same_version_wherever_it_is(copy: Path) -> None:
    assert ENGINE is not None
    assert _version(copy) == _version(ENGINE)


@pytest.mark.parametrize(
    "relative",
    [
        "data/korean.tsv",
        "data/technologies.toml",
        "data/lexicon.toml",
        "data/strings/ko.toml",
        "data/cues/en.toml",
        "data/packs/python-3.11/manifest.json",
        "compose.py",
        "packs/index.py",
        "language/injection.py",
    ],
)
def test_an_edit_to_a_data_file_or_a_module_makes_another_version(
    copy: Path, relative: str
) -> None:
    before = _version(copy)
    path = copy / relative
    path.write_bytes(path.read_bytes() + b"\n")
    assert _version(copy) != before


def test_a_new_file_makes_another_version_and_bytecode_does_not(copy: Path) -> None:
    before = _version(copy)
    (copy / "__pycache__").mkdir(exist_ok=True)
    (copy / "__pycache__" / "compose.cpython-311.pyc").write_bytes(b"\0")
    assert _version(copy) == before
    (copy / "data" / "strings" / "fr.toml").write_text('[answer]\nuse = "Utiliser"\n')
    assert _version(copy) != before


def test_inside_a_pack_only_the_manifest_counts(copy: Path) -> None:
    pack = copy / "data" / "packs" / "python-3.11"
    files = package_files(copy)
    assert pack / MANIFEST_FILE in files
    assert not [f for f in files if f.parent == pack and f.name != MANIFEST_FILE]


def test_the_packs_in_use_are_part_of_the_version(tmp_path: Path, copy: Path) -> None:
    other = tmp_path / "pandas-3.1.1" / MANIFEST_FILE
    other.parent.mkdir()
    other.write_text('{"name": "pandas", "version": "3.1.1"}')
    alone = _version(copy)
    with_pandas = stamp([copy], [copy / "data/packs/python-3.11" / MANIFEST_FILE, other])
    assert with_pandas != alone
