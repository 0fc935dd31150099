"""CodeWeaver documents."""
