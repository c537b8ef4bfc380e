"""How the service writes a mail as bytes: the SMTP policy with bodies never 8bit, its headers
parsed once (``header_classes``), and a writer that ends a body's lines all at once.

The stdlib's own ways are kept byte for byte (tests/mail/test_building_pictures.py holds them
to it); only the time they take is cut.
"""

from __future__ import annotations

import io
import re
from email import generator, policy
from email.message import Message

from adjudicator.mail.header_classes import HeaderClasses

# The SMTP policy (CRLF line ends), but bodies never 8bit: not every relay speaks 8BITMIME, so
# non-ASCII text goes out quoted-printable or base64, whichever the stdlib finds shorter.
POLICY = policy.SMTP.clone(cte_type="7bit", header_factory=HeaderClasses())
# Bytes a base64 line holds, as the stdlib encodes a part's bytes (contentmanager).
BASE64_BYTES = (POLICY.max_line_length or 78) // 4 * 3


class _Writer(generator.BytesGenerator):
    """The stdlib's writer of a message as bytes, but for a body's lines, their ends made the
    policy's at once, where the stdlib's writes each line and each line end one by one."""

    def _write_lines(self, lines: str) -> None:
        if lines:
            assert self.policy is not None  # set for the whole of flatten()
            self.write(_LINE_ENDS.sub(self.policy.linesep, lines))


# Line ends as the stdlib's generator finds them (email.generator.NLCRE).
_LINE_ENDS = re.compile(r"\r\n|\r|\n")


def as_bytes(msg: Message) -> bytes:
    """``msg.as_bytes()``, the same bytes, written by ``_Writer``."""
    out = io.BytesIO()
    _Writer(out, mangle_from_=False, policy=msg.policy).flatten(msg, unixfrom=False)
    return out.getvalue()
