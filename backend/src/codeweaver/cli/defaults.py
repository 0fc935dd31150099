"""Defaults the CLI shows in its help, kept free of heavy imports so the CLI starts fast."""

DEFAULT_MAX_FILE_MB = 5.0
"""`codeweaver ingest` skips files larger than this (`--max-file-mb` moves it): 5 MB of text
is already thousands of chunks and minutes of embedding on a laptop; a 30 MB file took over an
hour and 1.9 GB of store."""
