"""DKIM: does a signature from the sender's own domain vouch for this message?

The verdict is a short string kept on the inbound row (``InboundMessage.dkim``):

* ``pass d=<domain>``: a signature verified and its d= is the From domain or a parent of it;
* ``fail: <why>``: signed, but no signature both verifies and belongs to the From domain;
* ``temperror: <why>``: a key could not be fetched (DNS timeout, no resolver); trying later may
  pass, so it is told apart from ``fail``;
* ``none``: the message carries no DKIM-Signature.

Only ``pass`` proves anything: a game with ``require_dkim`` takes orders from nothing else.
``verify`` never raises: whatever arrives was already stored, and a verdict is always recorded.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

# dkimpy's TXT lookup: (b"selector._domainkey.domain.", timeout=seconds) -> record bytes or None.
DnsFunc = Callable[..., bytes | None]


def _dkimpy() -> ModuleType:
    # dkimpy brings dnspython, about a third of a command's start-up: it is imported only when
    # a message carries a signature, so `pbem mail parse` on an unsigned mail never pays it.
    import dkim

    module: ModuleType = dkim
    return module


def _dns_lookup(name: bytes, timeout: int = 5) -> bytes | None:
    record: bytes | None = _dkimpy().get_txt(name, timeout=timeout)
    return record


# The lookup used when the caller passes none: dkimpy's own (dnspython). Tests of the whole
# pipeline replace it, since there is no DNS to ask here.
default_dnsfunc: DnsFunc = _dns_lookup

# dkimpy logs every bad signature at ERROR; here a bad signature is a verdict, not an error.
_quiet = logging.getLogger(__name__ + ".dkimpy")
_quiet.setLevel(logging.CRITICAL)

_MAX = 200  # the width of InboundMessage.dkim


@dataclass
class _Lookups:
    """Wraps the DNS function to remember what went wrong: dkimpy swallows DNS failures into a
    plain False, and a timeout must not read as a forged signature."""

    dnsfunc: DnsFunc
    temporary: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def __call__(self, name: bytes, timeout: int = 5) -> bytes | None:
        shown = name.decode("ascii", "replace").rstrip(".")
        try:
            record = self.dnsfunc(name, timeout=timeout)
        except Exception as error:
            self.temporary.append(f"{shown}: {_describe(error)}")
            raise _dkimpy().DnsTimeoutError(str(error)) from error
        if not record:
            self.missing.append(shown)
        return record


def verify(raw: bytes, sender_domain: str, dnsfunc: DnsFunc | None = None) -> str:
    """The verdict for ``raw`` sent From ``sender_domain``; every signature is tried."""
    try:
        return _verify(raw, sender_domain.strip().lower().rstrip("."), dnsfunc or default_dnsfunc)
    except Exception as error:  # the promise is "never raise": a library bug becomes a verdict
        return f"fail: could not check the signature ({_describe(error)})"[:_MAX]


def aligned(signing_domain: str, sender_domain: str) -> bool:
    """Whether d= speaks for the From domain: the same domain or a parent of it.

    A bare top-level domain never counts (nobody may sign for all of ``.com``)."""
    signer = signing_domain.lower().rstrip(".")
    if "." not in signer or not sender_domain:
        return False
    return sender_domain == signer or sender_domain.endswith("." + signer)


# The end of the header block. Signatures are counted in the headers alone: dkimpy splits the
# whole message when it is made, which for a 20 MB unsigned mail costs a second for nothing.
_HEADER_END = re.compile(rb"\r?\n\r?\n")
# A header field's name at the start of a line (a folded continuation starts with white space).
_SIGNATURE = re.compile(rb"^dkim-signature[ \t]*:", re.IGNORECASE | re.MULTILINE)


def _verify(raw: bytes, sender_domain: str, dnsfunc: DnsFunc) -> str:
    end = _HEADER_END.search(raw)
    count = len(_SIGNATURE.findall(raw[: end.start()] if end else raw))
    if count == 0:
        return "none"
    dkimpy = _dkimpy()
    failures: list[str] = []
    temporary: list[str] = []
    for index in range(count):
        lookups = _Lookups(dnsfunc)
        # A fresh checker per signature: dkimpy keeps per-signature state on the instance.
        checker = dkimpy.DKIM(raw, logger=_quiet)
        try:
            valid = checker.verify(idx=index, dnsfunc=lookups)
        except dkimpy.DKIMException as error:
            valid, why = False, _describe(error)
            if "body hash mismatch" in str(error):  # the hashes themselves help nobody
                why = "body hash mismatch: the body was changed after it was signed"
        else:
            why = "the signature does not match the message"
        domain = (checker.domain or b"").decode("ascii", "replace").lower()
        if valid and aligned(domain, sender_domain):
            return f"pass d={domain}"[:_MAX]
        if lookups.temporary:
            temporary.extend(lookups.temporary)
        elif valid:
            failures.append(f"signed by d={domain}, not by {sender_domain or 'the sender'}")
        elif lookups.missing:
            failures.append(f"no key published at {lookups.missing[0]}")
        else:
            failures.append(f"d={domain or '?'}: {why}")
    if temporary:
        return ("temperror: " + "; ".join(temporary))[:_MAX]
    return ("fail: " + "; ".join(failures))[:_MAX]


def _describe(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
