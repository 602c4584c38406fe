"""The base class of Studio's data models: camelCase on the wire, strict types."""

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class StudioModel(BaseModel):
    """A pydantic model whose fields are snake_case in Python and camelCase in files.

    Types are strict (a string is never silently turned into a number) and unknown
    keys are rejected, so a typo in a file is reported instead of ignored.
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        strict=True,
        extra="forbid",
        allow_inf_nan=False,
        validate_assignment=True,
    )

    def to_data(self) -> dict:
        """Dump as plain JSON-compatible data with camelCase keys."""
        return self.model_dump(mode="json", by_alias=True)
