"""Reading the outbound Maildir: what the embedded default 'sent'.

It is read the way a mail client reads a Maildir: ``new/`` holds what nobody has read yet, and
reading a mail moves it to ``cur/`` flagged seen, so that ``pbem mail read --wait`` can return at
once when the answer is already there and still wait when it is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path

SEEN = ":2,S"


def _parsed(path: Path) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert isinstance(message, EmailMessage)
    return message


def addressed_to(path: Path, address: str) -> bool:
    """Whether the mail is to ``address`` (To or Cc, case aside)."""
    message = _parsed(path)
    fields = [str(value) for name in ("To", "Cc") for value in message.get_all(name, [])]
    return address.strip().lower() in {found.lower() for _, found in getaddresses(fields)}


def _files(folder: Path, subs: tuple[str, ...]) -> list[Path]:
    files = [p for sub in subs if (folder / sub).is_dir() for p in (folder / sub).iterdir()]
    files.sort(key=lambda path: (path.stat().st_mtime, path.name), reverse=True)
    return files


def newest(folder: Path, count: int, to: str | None = None) -> list[Path]:
    """The ``count`` newest mails, read or not, newest first; only those to ``to`` if given."""
    files = _files(folder, ("new", "cur"))
    return [path for path in files if to is None or addressed_to(path, to)][:count]


def unread(folder: Path, to: str | None = None) -> list[Path]:
    """The mails nobody has read yet, oldest first; only those to ``to`` if given."""
    files = reversed(_files(folder, ("new",)))
    return [path for path in files if to is None or addressed_to(path, to)]


def mark_read(path: Path) -> Path:
    """Move a mail from new/ to cur/, flagged seen, as a mail client does once it is shown."""
    if path.parent.name != "new":
        return path
    target = path.parent.parent / "cur" / (path.name.split(":", 1)[0] + SEEN)
    target.parent.mkdir(exist_ok=True)
    path.rename(target)
    return target


@dataclass(frozen=True)
class Attached:
    """A part of a mail that is a file: the map, the calendar entry."""

    filename: str
    content_type: str
    content: bytes

    def described(self) -> str:
        return f"{self.filename} ({self.content_type}, {_size(len(self.content))})"


def _size(count: int) -> str:
    return f"{count} bytes" if count < 1024 else f"{count / 1024:.0f} KB"


def attachments(message: EmailMessage) -> list[Attached]:
    """Every part with a file name or that is not text: inline pictures count, as players see
    them in the mail."""
    found = []
    for number, part in enumerate(message.walk()):
        if part.is_multipart():
            continue
        name = part.get_filename()
        kind = part.get_content_type()
        if name is None and part.get_content_maintype() == "text" and kind != "text/calendar":
            continue
        payload = part.get_payload(decode=True)
        content = payload if isinstance(payload, bytes) else b""
        extension = {"image/png": "png", "text/calendar": "ics"}.get(kind, "bin")
        found.append(Attached(name or f"part-{number}.{extension}", kind, content))
    return found


def summary(path: Path) -> str:
    message = _parsed(path)
    body = message.get_body(preferencelist=("plain",))
    text = body.get_content() if body is not None else ""
    header = "\n".join(
        f"{name}: {message[name]}"
        for name in ("From", "To", "Reply-To", "Subject")
        if message[name]
    )
    files = attachments(message)
    listed = "".join(f"\nAttached: {item.described()}" for item in files)
    return f"=== {path.name}\n{header}{listed}\n\n{text}"


def save_attachments(path: Path, folder: Path) -> list[Path]:
    """Write the mail's files into ``folder``, each named after the mail and its own name."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = path.name.split(":", 1)[0].split(".", 1)[0]
    saved = []
    for item in attachments(_parsed(path)):
        target = folder / f"{stem}-{Path(item.filename).name}"
        target.write_bytes(item.content)
        saved.append(target)
    return saved
