"""The offline engine: deterministic planning, analysis, extractive answers and grounding."""
