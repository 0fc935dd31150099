"""Run `codeweaver.bench` and write the figures behind docs/PERFORMANCE.md: table, JSON, plot.

    uv run python benchmarks/performance.py --iterations 20 \
        --json-out benchmarks/results/latest.json --plot docs/performance.png

The same measurement as `codeweaver bench`; this script also draws the plot (needs matplotlib).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from codeweaver.bench.run import run_bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--no-server", action="store_true")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json-out", type=Path)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    report = run_bench(iterations=args.iterations, server=not args.no_server, quick=args.quick)
    print(report.table())
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(report.to_json() + "\n", encoding="utf-8")
    if args.plot:
        report.plot(args.plot)


if __name__ == "__main__":
    main()
