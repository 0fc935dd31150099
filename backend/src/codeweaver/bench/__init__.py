"""`codeweaver bench`: cost and speed of the main graph on fakes whose latencies are set.

`run` puts it together: `fakes` (a scripted model and sleeping sources), `measure` (each path
and the cache at size), `server` (`langgraph dev` serving `served` to concurrent clients) and
`report` (the figures, the goals, a table and a chart). The real command line in new processes
(`codeweaver bench --cli`) is measured by `codeweaver.cli.bench`.
"""
