"""The commands of `codeweaver`, one module each; `codeweaver.cli.main` assembles them."""
