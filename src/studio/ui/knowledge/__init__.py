"""The Knowledge view: the graph canvas and the panels around it."""
