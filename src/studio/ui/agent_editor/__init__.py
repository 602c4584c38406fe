"""The agent editor: make an agent of any kind in the app, try it once, save its definition."""
