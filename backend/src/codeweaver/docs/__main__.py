"""`python -m codeweaver.docs [FILE...]`: rewrite the generated blocks of the docs in place.

Without arguments, every Markdown file under docs/ that has a generated block.
"""

from __future__ import annotations

import sys
from pathlib import Path

from codeweaver.docs.blocks import RESULTS, blocks_in, render


def main(arguments: list[str]) -> None:
    """Rewrite each named document (default: the docs/ folder's) with fresh blocks.

    A document's figures come from the result files in the `results` folder beside it.
    """
    paths = [Path(a) for a in arguments] or sorted(Path("docs").glob("*.md"))
    for path in paths:
        document = path.read_text(encoding="utf-8")
        if blocks_in(document):
            path.write_text(render(document, path.parent / RESULTS), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
