"""Annotations on a workflow: sticky notes and named groups of nodes.

They are for the people reading the canvas; the engine and publishing never read them.
"""

from typing import Annotated, Literal, get_args

from pydantic import Field

from studio.model.base import StudioModel
from studio.model.geometry import Position, Size

AnnotationColour = Literal["yellow", "blue", "green", "pink", "grey"]
ANNOTATION_COLOURS: tuple[AnnotationColour, ...] = get_args(AnnotationColour)
AnnotationId = Annotated[str, Field(min_length=1)]


class Note(StudioModel):
    """A sticky note: Markdown text on a coloured card."""

    id: AnnotationId
    text: str = ""
    colour: AnnotationColour = "yellow"
    position: Position = Field(default_factory=Position)
    size: Size = Field(default_factory=Size)


class Group(StudioModel):
    """A named frame around some nodes; collapsed, it shows as one compact box."""

    id: AnnotationId
    name: str = ""
    node_ids: list[AnnotationId] = Field(default_factory=list)
    collapsed: bool = False
    colour: AnnotationColour = "blue"

    @property
    def label(self) -> str:
        """The name a person sees: the group's name, or its id when it has none."""
        return self.name or self.id
