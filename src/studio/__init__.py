"""Studio: draw, run and trace multi-agent workflows on the desktop."""

__version__ = "0.1.0"
