"""factgrain: find where generated text is not supported by its sources."""
