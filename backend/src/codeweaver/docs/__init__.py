"""What the docs show that code or a command produced: `python -m codeweaver.docs`.

The documents keep their prose by hand. Between a pair of markers,

    <!-- BEGIN GENERATED NAME (python -m codeweaver.docs) -->
    <!-- END GENERATED NAME -->

the generator writes block `NAME` (`BLOCKS`): the architecture diagrams, drawn from the compiled
graphs, and the current figures, read from the result files in docs/results/ that
`codeweaver eval answers --json` and `codeweaver bench --json` wrote. `backend/tests/test_docs.py`
fails when a document differs from what the generator makes of the code and those files.
"""

from codeweaver.docs import answers, bench
from codeweaver.docs.blocks import BLOCKS, RESULTS, UnknownBlockError, blocks_in, render

__all__ = ["BLOCKS", "RESULTS", "UnknownBlockError", "answers", "bench", "blocks_in", "render"]
