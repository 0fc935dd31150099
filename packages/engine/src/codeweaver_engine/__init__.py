"""CodeWeaver's offline engine: it answers from documentation packs, or declines.

Where things are:

- `language/`: how text is read (words and stems, script, Korean, prose and code, intent,
  and the word reading the cache's guards share).
- `packs/`: documentation packs (units, the pack format, search within a pack, the packs in
  use, evidence from hits); the Python documentation ships as the bundled pack.
- `analysis.py` (what a turn asks), `questions.py` (how many questions a message holds),
  `scope.py` (what the packs cover), `search.py` (the offline rerank, judge, refine and
  summary of the search subgraph), `policy.py` (which sources each intent trusts).
- `compose.py` (the extractive answer), `decline.py`, `follow_up.py`, `grounding.py`.
- `stamp.py`: the version of answers, for the answer cache.
- `data/`: what a person curates, as data files that document their own format.
"""

from codeweaver_engine.packs import BUNDLED_PACK, DOCS_URL, DOCS_VERSION

__all__ = ["BUNDLED_PACK", "DOCS_URL", "DOCS_VERSION"]
