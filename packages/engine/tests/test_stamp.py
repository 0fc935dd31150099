"""The answer cache's default version follows the bundled corpus and the engine's code."""

from __future__ import annotations

from pathlib import Path

from codeweaver_engine.stamp import fingerprint


def _release(root: Path, manifest: str, engine: dict[str, str]) -> tuple[Path, Path]:
    (root / "engine").mkdir(parents=True)
    (root / "manifest.json").write_text(manifest)
    for name, code in engine.items():
        (root / "engine" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "engine" / name).write_text(code)
    return root / "manifest.json", root / "engine"


def test_the_same_release_has_one_version_and_any_change_makes_another(tmp_path: Path) -> None:
    base = {"extractive.py": "MARGIN = 0.15\n", "scope.py": "TOPICS = ()\n"}
    first = fingerprint(*_release(tmp_path / "a", '{"units": "1"}', base))
    assert first == fingerprint(*_release(tmp_path / "b", '{"units": "1"}', base))
    assert first.startswith("pydocs-3.11-")
    changed = {
        "corpus": fingerprint(*_release(tmp_path / "c", '{"units": "2"}', base)),
        "engine": fingerprint(
            *_release(tmp_path / "d", '{"units": "1"}', {**base, "extractive.py": "MARGIN = 0.2\n"})
        ),
        "module added": fingerprint(
            *_release(tmp_path / "e", '{"units": "1"}', {**base, "follow_up.py": ""})
        ),
        "subpackage module": fingerprint(
            *_release(
                tmp_path / "f", '{"units": "1"}', {**base, "language/injection.py": "X = 1\n"}
            )
        ),
    }
    assert first not in changed.values()
    assert len(set(changed.values())) == len(changed)
