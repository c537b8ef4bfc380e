"""multipart/form-data read as bytes: a raw message posted as a form field must stay byte-exact.

Werkzeug's own form parser decodes text fields (UTF-8, replacing what does not decode), which
would corrupt 8-bit mail in another charset; this keeps every part, field or file, as bytes.
"""

from __future__ import annotations

from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData


def parts(body: bytes, boundary: str) -> dict[str, bytes] | None:
    """Each part's bytes by name (the first of a repeated name), or None if the body is not
    well-formed multipart. The caller has bounded the body's size already."""
    decoder = MultipartDecoder(boundary.encode())
    found: dict[str, bytes] = {}
    name = ""
    chunks: list[bytes] = []
    try:
        decoder.receive_data(body)
        decoder.receive_data(None)
        event = decoder.next_event()
        while not isinstance(event, Epilogue | NeedData):
            if isinstance(event, Field | File):
                name, chunks = event.name, []
            elif isinstance(event, Data):
                chunks.append(event.data)
                if not event.more_data:
                    found.setdefault(name, b"".join(chunks))
            event = decoder.next_event()
    except ValueError:  # werkzeug's decoder signals a malformed body this way
        return None
    if isinstance(event, NeedData):
        return None  # the closing boundary never came: a truncated post
    return found


def text(found: dict[str, bytes], name: str) -> str:
    return found.get(name, b"").decode("utf-8", "replace")
