"""Agent-side helpers: evidence retrieval and verifier plumbing."""
