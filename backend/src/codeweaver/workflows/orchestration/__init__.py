"""The main graph: plan, route, answer one question, two in parallel, or decline."""
