"""`python -m codeweaver`: the same as the `codeweaver` command."""

from codeweaver.cli import main

main()
