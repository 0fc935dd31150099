"""The main graph whose local search waits at a gate, so a test decides which runs are in flight.

Served in place of `codeweaver` by the crash test (`langgraph.json` names it as a module, with
the repository on the server's `PYTHONPATH`). The gate is the folder `$CODEWEAVER_TEST_GATE`:
while it holds no file named `open`, a run's first search of the local documents leaves a file
in it (`entered-*`) and waits; once `open` exists, every search goes straight to the real local
source. The wait is in `warm_up`, which a source node runs outside the search's own timeout.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path
from typing import Literal

from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver_schema import Evidence, Intent
from codeweaver_search import SearchContext
from codeweaver_search.sources import NeedsWarmUp, Source, default_sources

GATE_ENV = "CODEWEAVER_TEST_GATE"
OPEN = "open"
ENTERED = "entered-"


def entered(gate: Path) -> list[Path]:
    """The runs that reached the closed gate so far (one file each)."""
    return sorted(gate.glob(f"{ENTERED}*"))


class GatedLocalSource:
    """The real local source, behind the gate."""

    name: Literal["local"] = "local"

    def _real(self) -> Source:
        return default_sources(SearchContext(search_sources=["local"]))["local"]

    def unavailable_reason(self) -> str | None:
        """Whatever the real source says."""
        return self._real().unavailable_reason()

    async def warm_up(self) -> None:
        """Wait while the gate is closed (saying so once), then warm the real source up."""
        gate = Path(os.environ[GATE_ENV])
        if not (gate / OPEN).exists():
            (gate / f"{ENTERED}{uuid.uuid4().hex}").touch()
            # The test process opens the gate: a file is all the two processes share.
            while not (gate / OPEN).exists():  # noqa: ASYNC110
                await asyncio.sleep(0.1)
        real = self._real()
        if isinstance(real, NeedsWarmUp):
            await real.warm_up()

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        """The real source's results."""
        return await self._real().search(query, intent=intent, language=language, limit=limit)


main = build_main_graph(sources={"local": GatedLocalSource()})
