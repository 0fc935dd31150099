"""Node functions of the main graph, one module per concern."""
