"""Reporters: turn findings and trees into text, JSON, SARIF, HTML and drawings."""
