"""Scripts run by the *target* interpreter (the user's environment), not by CodeWeaver's.

Each is a file run as `python SCRIPT ...`: standard library only, Python 3.8 syntax, output as
JSON. `probe.py` lists what is installed; `inspect_modules.py` imports a distribution's
modules to see what static reading cannot (compiled modules, names set at import time).
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
PROBE_SCRIPT = HERE / "probe.py"
INSPECT_SCRIPT = HERE / "inspect_modules.py"

__all__ = ["INSPECT_SCRIPT", "PROBE_SCRIPT"]
