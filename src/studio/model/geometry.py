"""Where things sit on the canvas and how big they are, in scene units."""

from pydantic import Field

from studio.model.base import StudioModel


class Position(StudioModel):
    """Where a node or a note sits on the canvas, in scene units."""

    x: float = 0.0
    y: float = 0.0


class Size(StudioModel):
    """How big a note is, in scene units."""

    width: float = Field(default=220.0, gt=0)
    height: float = Field(default=140.0, gt=0)
