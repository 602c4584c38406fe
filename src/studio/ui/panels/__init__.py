"""Side panels: the node drawer, the edge condition editor, the workflow settings and the
problems list. Each shows model values and emits intents; none changes the model."""
