"""Log lines: readable text for a person at a terminal, or one JSON object a line for a collector.

The services log with the ids that matter as ``extra=`` fields (game_id, inbound_id, outbox_id,
turn, seat, task, status). In text the message already names them; in JSON they are fields of
their own, so a collector can find every line about one game or one message without parsing
sentences.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

# The extra= fields a JSON line carries when a log call sets them; anything else stays out, so a
# careless extra= cannot spill a whole object (or an address book) into the logs.
FIELDS = ("game_id", "inbound_id", "outbox_id", "turn", "seat", "task", "status")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Marks the handler this module installed, so configuring twice replaces it instead of doubling
# every line.
_OURS = "_pbem_handler"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message, the ids."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        # default=str: an id that is some other type must still give a line, never an error.
        return json.dumps(line, ensure_ascii=False, default=str)


def formatter(kind: str) -> logging.Formatter:
    """The formatter for a ``log_format`` setting ("text" or "json")."""
    return JsonFormatter() if kind == "json" else logging.Formatter(TEXT_FORMAT)


def configure(level: str, kind: str, stream: TextIO | None = None) -> logging.Handler:
    """Send the root logger's records to ``stream`` (stderr) in the given format, once."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, _OURS, False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter(kind))
    setattr(handler, _OURS, True)
    root.addHandler(handler)
    root.setLevel(level)
    return handler


def adopt(logger: logging.Logger, kind: str) -> None:
    """Give handlers someone else set up (Celery's, in `celery worker` and `celery beat`) our
    format; text keeps theirs, so only JSON changes anything."""
    if kind != "json":
        return
    for handler in logger.handlers:
        handler.setFormatter(JsonFormatter())
