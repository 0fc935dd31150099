"""The pinned library environment: exact pins of the ten libraries, made outside the project.

Creating it downloads about 150 MB, so the tests check the requirements file and that the
script refuses a folder inside the project; the timings in the report come from running it.
"""

from __future__ import annotations

import re
import subprocess

from tests.support import REPO

REQUIREMENTS = REPO / "data" / "library_env" / "requirements.txt"
SCRIPT = REPO / "scripts" / "library_env.sh"


def test_the_requirements_pin_the_ten_libraries_exactly() -> None:
    pins = {}
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\d[\w.]*)", line.strip())
            assert match, f"not an exact pin: {line!r}"
            pins[match.group(1).lower()] = match.group(2)
    assert pins == {
        "pandas": "3.1.1",
        "numpy": "2.4.6",
        "matplotlib": "3.11.2",
        "django": "5.2.19",
        "beautifulsoup4": "4.15.0",
        "selenium": "4.51.0",
        "requests": "2.34.2",
        "flask": "3.1.3",
        "sqlalchemy": "2.1.9",
        "scipy": "1.17.1",
    }


def test_the_script_refuses_a_folder_inside_the_project() -> None:
    completed = subprocess.run(
        ["bash", str(SCRIPT), str(REPO / "library-env")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert "is inside the project folder" in completed.stderr
    assert not (REPO / "library-env").exists()
