"""The main window's shell: the mode bar, the modes it hosts, the workflow tabs and the
controllers that own the actions of the Workflows mode."""
