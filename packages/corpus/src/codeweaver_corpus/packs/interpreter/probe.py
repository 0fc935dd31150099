"""What an interpreter has installed, as JSON on standard output.

Run as `PYTHON probe.py` by CodeWeaver (`codeweaver_corpus.packs.environment`), with the user's
interpreter: standard library only, Python 3.8 syntax. Nothing installed is imported; top-level
names are checked with `importlib.util.find_spec`, which runs the import system's finders but no
package code.
"""

from __future__ import annotations

import json
import os
import platform
import re
import site
import sys

# This file's folder is sys.path[0]; nothing of it may shadow an installed module.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

import importlib.metadata as metadata
import importlib.util

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SKIPPED_TOP = ("__pycache__", "..", "bin", "share", "include", "etc", "lib", "scripts")


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _from_files(dist: metadata.Distribution) -> list[str]:
    """Top-level modules and packages among the files a distribution installed."""
    names: list[str] = []
    for file in dist.files or ():
        parts = file.parts
        if not parts or parts[0] in _SKIPPED_TOP:
            continue
        head = parts[0]
        if head.endswith((".dist-info", ".egg-info", ".data", ".pth")):
            continue
        if len(parts) == 1:
            stem, _, suffix = head.partition(".")
            if suffix in ("py", "pyi") or suffix.endswith(("so", "pyd")):
                names.append(stem)
        else:
            names.append(head)
    return names


def _import_names(dist: metadata.Distribution) -> list[str]:
    """The top-level names a distribution can be imported by (public ones only)."""
    candidates: list[str] = []
    top_level = dist.read_text("top_level.txt")
    if top_level:
        candidates += [line.strip().replace("/", ".") for line in top_level.splitlines()]
    candidates += _from_files(dist)
    if not candidates:
        # An editable install names no files of its own: try the distribution's name.
        candidates.append(re.sub(r"[-.]+", "_", dist.metadata["Name"] or "").lower())
    found: list[str] = []
    for name in dict.fromkeys(candidates):
        top = name.split(".", 1)[0]
        if not _IDENTIFIER.match(top) or top.startswith("_") or top in found:
            continue
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError, AttributeError):
            spec = None
        if spec is not None:
            found.append(top)
    return found


def main() -> None:
    """Print the interpreter and its distributions."""
    seen: set[str] = set()
    distributions = []
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if not name or _normalized(name) in seen:
            continue  # the first on sys.path is the one imports see
        seen.add(_normalized(name))
        try:
            location = str(dist.locate_file(""))
        except (AttributeError, NotImplementedError):
            location = ""
        distributions.append(
            {
                "name": name,
                "version": dist.version or "",
                "summary": (dist.metadata.get_all("Summary") or [""])[0],
                "import_names": _import_names(dist),
                "location": location,
            }
        )
    try:
        site_packages = list(site.getsitepackages())
    except AttributeError:  # an old virtualenv's site module
        site_packages = []
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user_site and os.path.isdir(user_site):
        site_packages.append(user_site)
    json.dump(
        {
            "executable": sys.executable,
            "prefix": sys.prefix,
            "base_prefix": getattr(sys, "base_prefix", sys.prefix),
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "path": [p for p in sys.path if p and os.path.isdir(p)],
            "site_packages": site_packages,
            "distributions": sorted(distributions, key=lambda d: _normalized(d["name"])),
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
