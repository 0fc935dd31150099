"""`python -m codeweaver`: the same as the `codeweaver` command."""

from codeweaver.cli.main import main

main()
