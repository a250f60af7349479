"""Integrations with other frameworks (LangChain / LangSmith, Ray)."""
