"""Structured JSON logs: one object per line with component, ids, action and timestamp."""

import json
import logging
import sys
from datetime import UTC, datetime
from pathlib import Path

COMPONENTS = {"studio.engine.runner": "StepRunner"}
"""Logger names shown under the component names operators know."""
LOG_FIELDS = (
    "executionId",
    "workflowId",
    "nodeId",
    "agentId",
    "action",
    "retryCount",
    "error",
    "nextRetryDelay",
    "status",
    "key",
    "length",
    "cap",
)
STUDIO_LOGGER = "studio"


class JsonLogFormatter(logging.Formatter):
    """Render a record as the seed's structured log entry."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "level": "WARN" if record.levelno == logging.WARNING else record.levelname,
            "component": getattr(record, "component", COMPONENTS.get(record.name, record.name)),
            "message": record.getMessage(),
        }
        for name in LOG_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        entry["timestamp"] = (
            datetime.fromtimestamp(record.created, UTC).isoformat().replace("+00:00", "Z")
        )
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure_logging(log_file: Path | None, json_to_stderr: bool = False) -> None:
    """Send Studio's logs as JSON lines to a file and, if asked, to stderr."""
    logger = logging.getLogger(STUDIO_LOGGER)
    logger.setLevel(logging.INFO)
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    formatter = JsonLogFormatter()
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        file_handler = logging.FileHandler(log_file, encoding="utf-8")
        file_handler.setFormatter(formatter)
        logger.addHandler(file_handler)
    if json_to_stderr:
        stream_handler = logging.StreamHandler(sys.stderr)
        stream_handler.setFormatter(formatter)
        logger.addHandler(stream_handler)
    logger.propagate = False
