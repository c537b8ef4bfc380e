"""Reading the outbound Maildir: what the embedded default 'sent'."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser
from pathlib import Path


def newest(folder: Path, count: int) -> list[Path]:
    files = [
        p for sub in ("new", "cur") if (folder / sub).is_dir() for p in (folder / sub).iterdir()
    ]
    files.sort(key=lambda path: (path.stat().st_mtime, path.name), reverse=True)
    return files[:count]


def summary(path: Path) -> str:
    message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    body = message.get_body(preferencelist=("plain",))
    text = body.get_content() if body is not None else ""
    header = "\n".join(
        f"{name}: {message[name]}"
        for name in ("From", "To", "Reply-To", "Subject")
        if message[name]
    )
    return f"=== {path.name}\n{header}\n\n{text}"
