"""Documentation packs of the libraries installed in the user's environment.

`environment.py` finds the target interpreter and what it has installed; `extract.py` reads a
distribution's public API into units (griffe statically, inspection in the target interpreter
for what only exists at run time), in a worker process (`worker.py`); `store.py` writes and
lists packs under `$CODEWEAVER_HOME/packs/`; `build.py` ties them into `codeweaver ingest
--python`.
"""
