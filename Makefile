.DEFAULT_GOAL := help
.PHONY: help install ask test test-fast lint format typecheck docs serve check

help: ## Show this help
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  \033[36m%-12s\033[0m %s\n", $$1, $$2}'

install: ## Install the workspace (one lock for every package)
	uv sync --locked

ask: ## Ask the sample question offline
	uv run codeweaver ask "How do I reverse a list in Python?"

test: ## Run the whole suite, as CI does
	uv run pytest

test-fast: ## Run the suite without the LangGraph Server end-to-end tests
	uv run pytest -m "not e2e"

lint: ## Lint and check formatting
	uv run ruff check .
	uv run ruff format --check .

format: ## Format and fix what ruff can
	uv run ruff format .
	uv run ruff check --fix .

typecheck: ## mypy --strict over every package and the tests, scripts and benchmarks
	uv run mypy

docs: ## Regenerate the docs' generated blocks: diagrams from the graphs, figures from docs/results/
	uv run python -m codeweaver.docs

serve: ## LangGraph Server with every graph, offline; completed turns survive a crash
	LANGGRAPH_NO_VERSION_CHECK=true uv run codeweaver serve

check: lint typecheck test ## Everything CI and reviewers expect
