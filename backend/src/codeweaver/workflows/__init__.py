"""Workflows: the graphs the application assembles from its packages."""
