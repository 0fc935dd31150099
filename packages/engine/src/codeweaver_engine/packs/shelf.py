"""The packs in use, searched as one: the bundled Python documentation and installed libraries.

Every hit knows its pack, so whatever reads a hit again (its passage in context, an example
that uses its API, the unit a cited address points to) asks the pack the hit came from. Adding
a pack (a library installed in the user's environment) is adding an index to the shelf. A
search can be kept to some packs (a question that names pandas is answered from pandas).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from codeweaver_engine.packs.format import Pack
from codeweaver_engine.packs.index import DocHit, DocsIndex, Matrix, load_index


class Shelf:
    """Documentation packs searched together, each by the same embedding model."""

    def __init__(self, indexes: Sequence[DocsIndex]) -> None:
        """Hold the packs, in the order their hits win ties.

        Args:
            indexes: The packs in memory, their vectors all from one embedding model.
        """
        self.indexes = list(indexes)

    @property
    def packs(self) -> list[Pack]:
        """What each pack is."""
        return [index.pack for index in self.indexes]

    def index_of(self, hit: DocHit) -> DocsIndex:
        """The pack a hit came from.

        Raises:
            KeyError: the hit is from a pack not on this shelf.
        """
        for index in self.indexes:
            if index.pack == hit.pack:
                return index
        raise KeyError(f"no pack {hit.pack.name} {hit.pack.version} on the shelf")

    def search(
        self,
        query_vector: Matrix,
        question: str,
        *,
        k: int = 8,
        packs: Collection[str] | None = None,
        handicap: float = 0.0,
    ) -> list[DocHit]:
        """The best `k` units for a question, best first (`DocsIndex.search`).

        Args:
            query_vector: The question's vector.
            question: The question's text.
            k: How many units.
            packs: Search only the packs of these names; None: every pack.
            handicap: Taken from the scores of every pack but the bundled one.
        """
        hits = [
            hit
            if not handicap or index.pack.source == "bundled"
            else replace(hit, score=hit.score - handicap)
            for index in self.indexes
            if packs is None or index.pack.name in packs
            for hit in index.search(query_vector, question, k=k)
        ]
        return sorted(hits, key=lambda hit: -hit.score)[:k]

    def by_url(self, url: str) -> DocHit | None:
        """The unit an address points to, in the first pack that has it."""
        for index in self.indexes:
            hit = index.by_url(url)
            if hit is not None:
                return hit
        return None

    def in_context(self, hit: DocHit) -> str:
        """A hit's text, a passage's with its neighbours (`DocsIndex.in_context`)."""
        return self.index_of(hit).in_context(hit.index)

    def example_for(self, hit: DocHit, score: float) -> DocHit | None:
        """A unit of the hit's pack whose code uses its API (`DocsIndex.example_for`), scored."""
        index = self.index_of(hit)
        companion = index.example_for(hit)
        return index.hit(companion, score) if companion is not None else None


def bundled_shelf() -> Shelf:
    """The bundled pack alone, read once per process (`load_index`)."""
    return Shelf([load_index()])
