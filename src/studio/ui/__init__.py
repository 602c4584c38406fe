"""The desktop app. PySide6 and qasync are imported here and nowhere else."""
