"""The PNG of a picture on a palette, written here rather than by Pillow.

Pillow hands zlib one row at a time, and zlib-ng (in Pillow's wheels) then finds fewer and
shorter matches: the 2 de Mayo map took 32.8 KB at level 6, its whole rows given at once
30.7 KB, and Pillow's level 8 its 30.0 KB for five times the time. So the rows go to zlib-ng
whole, and the four chunks a palette picture needs are written here. Unfiltered, as Pillow
and libpng leave a palette picture: a filter's differences of palette indices only cost bytes.
"""

from __future__ import annotations

import struct

from PIL import Image
from zlib_ng import zlib_ng

MAX_ENTRIES = 256  # an indexed PNG holds at most this many colours (picture.MAX_PALETTE)
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def writes(image: Image.Image) -> bool:
    """Whether ``image`` is written by ``indexed``: a palette of plain colours (no alpha, no
    transparent entry) and nothing else to carry (no resolution, no text)."""
    return (
        image.mode == "P"
        and image.palette is not None
        and image.palette.mode == "RGB"
        and not image.info
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib_ng.crc32(data, zlib_ng.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _rows(image: Image.Image, bits: int) -> bytes:
    """The picture's rows as a PNG holds them: each row's filter byte (0, none), then its
    palette indices, ``bits`` each and the row padded to a whole byte."""
    width, height = image.size
    if bits == 8:
        # One pixel more on the left, blank: each row's first byte is then its filter's.
        framed = Image.new("P", (width + 1, height), 0)
        framed.paste(image, (1, 0))
        return framed.tobytes()
    packed = image.tobytes("raw", f"P;{bits}")
    stride = (width * bits + 7) // 8
    return b"".join(b"\0" + packed[at : at + stride] for at in range(0, len(packed), stride))


def indexed(image: Image.Image, level: int = 6) -> bytes:
    """The PNG of a palette picture, its rows deflated at zlib ``level`` (1-9) in one call.
    As Pillow writes it: the palette's entries as they are (at most 256), and 1, 2 or 4 bits a
    pixel when the palette holds at most 2, 4 or 16."""
    flat = image.getpalette() or [0, 0, 0]
    colours = max(1, min(len(flat) // 3, MAX_ENTRIES))
    bits = next(bits for bits in (1, 2, 4, 8) if colours <= 1 << bits)
    header = struct.pack(">IIBBBBB", image.width, image.height, bits, 3, 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(flat[: colours * 3])),
            _chunk(b"IDAT", zlib_ng.compress(_rows(image, bits), level)),
            _chunk(b"IEND", b""),
        )
    )
