"""The main graph on zero-latency fakes, for `codeweaver bench` to serve through `langgraph dev`.

`codeweaver.bench.server.serve_fake_graph` writes a langgraph.json in a temporary folder that
points at this file, which ships with the package, so the served part of the bench works from
an installed wheel as from a checkout; the real `codeweaver.server.graphs:main` would ask the
real sources. No checkpointer: the server provides persistence.
"""

from __future__ import annotations

from codeweaver.bench.fakes import SET_LATENCIES_MS, fake_graph
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder

graph, _model, _sources = fake_graph(
    latencies_ms=dict.fromkeys(SET_LATENCIES_MS, 0.0),
    embedder=get_embedder(DEFAULT_EMBEDDING_MODEL),
)
