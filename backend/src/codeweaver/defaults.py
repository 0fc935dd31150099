"""Defaults the CLI shows in its help, kept free of heavy imports so the CLI starts fast."""

DEFAULT_MAX_FILE_MB = 5.0
"""`codeweaver ingest` skips files larger than this (`--max-file-mb`)."""
