"""Building the bundled Python documentation pack: reST parsed into units, embedded ahead of time.

`rst.py` reads the documentation's reST sources into units, `tasks.py` reads the task file, and
`build.py` writes the pack (`scripts/build_docs_index.py` runs it). The engine reads the pack
(`codeweaver_engine.packs`), which ships inside the engine package.
"""
