"""The user's libraries as the offline engine sees them: installed packs and the environment.

The engine answers a question that names a library from that library's pack, and declines one
whose library has no pack with what the user can do (`codeweaver_engine.compose.Libraries`).
This is where it learns both: the packs `codeweaver ingest --python` wrote under the operator's
data directory for the operator's embedding model (a directory listing, per question), and what
the user's active environment has installed (its interpreter asked in a process of its own,
only when a decline needs it).
"""

from __future__ import annotations

from collections.abc import Callable

from codeweaver_engine.compose import Libraries
from codeweaver_engine.packs.catalog import catalog, packs_folder

LibrariesFor = Callable[[str], Libraries]
"""An embedding model's id -> the libraries the engine knows for it."""


def operator_libraries(model_id: str) -> Libraries:
    """The installed packs of the operator's data directory and the user's active environment."""
    from codeweaver_corpus.packs.environment import active_environment
    from codeweaver_runtime.infrastructure import infrastructure

    listed = catalog(packs_folder(infrastructure().data_dir)).listed(model_id)
    return Libraries(packs=[entry.pack for entry in listed], environment=active_environment)
