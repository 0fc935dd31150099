"""The `codeweaver` command: `main` assembles `commands/`; the rest is what they run.

Nothing is imported here, so a command loads only what it uses (`ask` through a running
server imports neither the graph nor the store).
"""
