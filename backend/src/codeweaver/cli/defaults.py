"""Defaults the CLI shows in its help, kept free of heavy imports so the CLI starts fast."""

DEFAULT_MAX_FILE_MB = 5.0
"""`codeweaver ingest` skips files larger than this (`--max-file-mb` moves it): a few megabytes
of text are already thousands of chunks and minutes of embedding on a laptop, and the store
grows with every chunk (README.md, on ingesting, has a measured case)."""
