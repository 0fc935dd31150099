"""How long `codeweaver ingest --python` takes on an environment, library by library.

    scripts/library_env.sh /tmp/library-env          # the pinned ten libraries (downloads)
    uv run python benchmarks/library_ingest.py /tmp/library-env/bin/python [--packages a,b]
    uv run python benchmarks/library_ingest.py /tmp/library-env/bin/python --home H --force

Runs the command in a new process with a scratch data directory (every pack is built, none
is reused; with `--home` and `--force`, every pack of that directory is rebuilt, taking the
vectors of texts it already embedded), then prints each library's units, vectors reused, wall
time and processor time (its worker, the inspecting process and its embedding) from the ingest
report, and the whole run's wall time and processor time (the command and every process it
started). On a shared machine the wall time depends on the other work; the processor time
much less.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from codeweaver_corpus.packs.build import REPORT_FILE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("python", type=Path, help="the environment's interpreter")
    parser.add_argument("--packages", help="only these libraries (comma-separated)")
    parser.add_argument("--home", type=Path, help="data directory to build into (kept)")
    parser.add_argument(
        "--force",
        action="store_true",
        help="rebuild packs that are current (with --home: a rebuild, which reuses their vectors)",
    )
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="codeweaver-ingest-bench-"))
    command = [
        sys.executable,
        "-m",
        "codeweaver",
        "ingest",
        "--python",
        str(args.python),
        "--data-dir",
        str(home),
    ]
    if args.packages:
        command += ["--packages", args.packages]
    if args.force:
        command.append("--force")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    completed = subprocess.run(command, check=False, env={**os.environ, "COLUMNS": "120"})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    report = json.loads((home / "packs" / REPORT_FILE).read_text(encoding="utf-8"))
    print(
        f"\n{'library':22} {'version':>16} {'status':>9} {'units':>6} {'reused':>6} "
        f"{'wall s':>7} {'cpu s':>7}"
    )
    for row in sorted(report["results"], key=lambda r: -r["cpu_seconds"]):
        print(
            f"{row['name']:22} {row['version']:>16} {row['status']:>9} {row['units']:>6} "
            f"{row.get('reused', 0):>6} {row['seconds']:>7.1f} {row['cpu_seconds']:>7.1f}"
        )
    units = sum(row["units"] for row in report["results"])
    print(
        f"\n{len(report['results'])} libraries, {units} units: {wall:.0f} s wall, {cpu:.0f} s "
        f"processor ({os.cpu_count()} cores; load average now "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}) -> {home}"
    )
    return completed.returncode


if __name__ == "__main__":
    sys.exit(main())
