"""Agent parameters held to the agent's JSON Schema, in one place.

Publishing reports each failure as a problem naming the node and the parameter, the engine
refuses to dispatch a node whose parameters break the schema, and the drawer's field editors
show the same words under the field. The words come from :func:`describe`: the common keywords
(type, enum, bounds, required) in plain language, any other keyword in the validator's own.

jsonschema is imported when a schema is first checked, not with this module: a command that
checks no agent's parameters never loads it.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from studio.model.problems import Problem, error

if TYPE_CHECKING:
    from jsonschema import ValidationError

_TYPE_WORDS = {
    "object": "a mapping of keys to values",
    "array": "a list",
    "string": "text",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "null": "nothing",
}
_BOUND_WORDS = {
    "minimum": "at least",
    "exclusiveMinimum": "greater than",
    "maximum": "at most",
    "exclusiveMaximum": "less than",
}
NOT_A_CHOICE = "This value is not one of the choices the agent declares."


@dataclass(frozen=True)
class ParameterProblem:
    """One parameter (``name``, ``name[2]``, ``name.key``) and what is wrong with it."""

    parameter: str
    message: str


def schema_problem(schema: dict[str, Any]) -> str | None:
    """Why ``schema`` is not a JSON Schema its validator accepts, or None when it is."""
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as failure:
        return f"{failure.message} (at {'/'.join(map(str, failure.path)) or 'the top'})"
    return None


def parameter_problems(
    schema: Mapping[str, Any], parameters: Mapping[str, Any]
) -> list[ParameterProblem]:
    """Every way ``parameters`` breaks ``schema``, sorted by parameter.

    A workflow's nodes often share an agent and its parameters, and building a validator
    costs more than validating: the answer for each schema and parameters, told apart by
    their ``repr`` (which tells ``1`` from ``1.0``, ``True`` and ``"1"``), is remembered."""
    key = repr((schema, parameters))
    if len(key) > _KNOWN_KEY_CHARS:  # a large value: not worth keeping
        return _problems(schema, parameters)
    found = _KNOWN_PROBLEMS.get(key)
    if found is None:
        if len(_KNOWN_PROBLEMS) >= _KNOWN_LIMIT:
            _KNOWN_PROBLEMS.clear()
        found = _KNOWN_PROBLEMS[key] = tuple(_problems(schema, parameters))
    return list(found)


_KNOWN_PROBLEMS: dict[str, tuple[ParameterProblem, ...]] = {}
_KNOWN_LIMIT = 1024
_KNOWN_KEY_CHARS = 4096


def _problems(schema: Mapping[str, Any], parameters: Mapping[str, Any]) -> list[ParameterProblem]:
    from jsonschema.validators import validator_for

    validator = validator_for(schema)(schema)
    problems = {
        ParameterProblem(_parameter_of(failure), describe(failure))
        for failure in validator.iter_errors(dict(parameters))
    }
    return sorted(problems, key=lambda problem: (problem.parameter, problem.message))


def field_problem(schema: Mapping[str, Any], value: Any) -> str | None:
    """What is wrong with one field's value under its own schema, or None when nothing is."""
    from jsonschema.validators import validator_for

    validator = validator_for(schema)(schema)
    failures = sorted(validator.iter_errors(value), key=lambda failure: list(failure.path))
    return describe(failures[0]) if failures else None


def refusal(schema: Mapping[str, Any], parameters: Mapping[str, Any]) -> str | None:
    """Every failure in one line ("parameter 'x': …; parameter 'y': …"), or None."""
    found = parameter_problems(schema, parameters)
    return "; ".join(f"parameter '{p.parameter}': {p.message}" for p in found) or None


def node_parameter_problems(
    node_id: str, schema: Mapping[str, Any], values: Mapping[str, Any]
) -> list[Problem]:
    """Publish errors, one per failure, naming the node and the parameter."""
    return [
        error("agent.parameter", f"parameter '{found.parameter}': {found.message}", node_id=node_id)
        for found in parameter_problems(schema, merged_parameters(schema, values))
    ]


def merged_parameters(schema: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The schema's defaults, overridden by the node's own parameter values."""
    properties = schema.get("properties", {})
    defaults = {
        name: spec["default"]
        for name, spec in properties.items()
        if isinstance(spec, dict) and "default" in spec
    }
    return {**defaults, **values}


def describe(failure: "ValidationError") -> str:
    """A sentence for one validation failure, as the drawer shows it under a field."""
    keyword, expected = failure.validator, failure.validator_value
    if keyword == "required":
        return "Required, and not set."
    if keyword == "enum":
        return NOT_A_CHOICE
    if keyword == "type" and isinstance(expected, str) and expected in _TYPE_WORDS:
        return f"Expected {_TYPE_WORDS[expected]}, found {type(failure.instance).__name__}."
    if keyword in _BOUND_WORDS and isinstance(expected, int | float):
        return f"Must be {_BOUND_WORDS[str(keyword)]} {_number_text(expected)}."
    return f"{failure.message}."


def _parameter_of(failure: "ValidationError") -> str:
    if failure.validator == "required":
        return _missing_name(failure)
    text = ""
    for step in failure.path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text


def _missing_name(failure: "ValidationError") -> str:
    """The property a ``required`` failure is about (its message quotes the name)."""
    instance = failure.instance if isinstance(failure.instance, dict) else {}
    names = failure.validator_value if isinstance(failure.validator_value, list) else []
    missing = [name for name in names if name not in instance and repr(name) in failure.message]
    return str(missing[0]) if missing else ""


def _number_text(value: float | int) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)
