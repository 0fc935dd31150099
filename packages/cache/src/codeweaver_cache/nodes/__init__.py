"""Node functions of the cache subgraphs (internal: use `codeweaver_cache.graph`)."""
