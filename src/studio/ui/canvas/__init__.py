"""The workflow canvas: scene, items, view, undo commands and the editor that joins them."""
