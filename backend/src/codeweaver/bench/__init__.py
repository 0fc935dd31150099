"""`codeweaver bench`: cost and speed of the main graph on fakes whose latencies are set.

`run` measures; `served` is the same fake graph for `langgraph dev` to serve. The real
command line in new processes (`codeweaver bench --cli`) is measured by `codeweaver.cli.bench`.
"""
