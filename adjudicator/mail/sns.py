"""Amazon SNS message signatures: is this HTTP POST really from SNS, for a topic we accept?

SNS signs a canonical string of the message's fields with the private key of a certificate it
publishes at ``SigningCertURL``. The URL comes from the message itself, so it is trusted only
when it points at an SNS host over HTTPS; anything else is refused before any fetch.
"""

from __future__ import annotations

import base64
import binascii
import re
import threading
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

# Certificates and confirmation links are fetched only from here (regional and China hosts).
SNS_HOST = re.compile(r"^https://sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?/")

# The fields each message type signs, in the documented order; Subject only when present.
_SUBSCRIPTION_FIELDS = (
    "Message",
    "MessageId",
    "SubscribeURL",
    "Timestamp",
    "Token",
    "TopicArn",
    "Type",
)
SIGNED_FIELDS: dict[str, tuple[str, ...]] = {
    "Notification": ("Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"),
    "SubscriptionConfirmation": _SUBSCRIPTION_FIELDS,
    "UnsubscribeConfirmation": _SUBSCRIPTION_FIELDS,
}

HASHES: dict[str, Callable[[], hashes.HashAlgorithm]] = {"1": hashes.SHA1, "2": hashes.SHA256}

Fetch = Callable[[str], bytes]


def https_get(url: str) -> bytes:
    """The real fetch: a plain HTTPS GET with a short timeout (certificate, subscribe link)."""
    if not SNS_HOST.match(url):  # defence in depth: callers check already
        raise ValueError(f"refusing to fetch {url}")
    with urllib.request.urlopen(url, timeout=10) as response:
        body: bytes = response.read(1_000_000)
        return body


@dataclass(frozen=True)
class Verified:
    kind: str
    topic_arn: str


@dataclass(frozen=True)
class Invalid:
    reason: str
    # True when the message may be genuine but could not be checked now (certificate fetch
    # failed): SNS should send it again rather than have it dropped.
    retry: bool = False


def trusted_url(url: str, suffix: str = "") -> bool:
    return bool(SNS_HOST.match(url)) and url.endswith(suffix)


def canonical(message: Mapping[str, Any]) -> bytes | None:
    """The string SNS signs: "Name\\nvalue\\n" for each signed field, or None if one is missing."""
    names = SIGNED_FIELDS.get(str(message.get("Type", "")))
    if names is None:
        return None
    parts: list[str] = []
    for name in names:
        if name not in message:
            if name == "Subject":
                continue
            return None
        parts.append(f"{name}\n{message[name]}\n")
    # JSON can spell a lone surrogate (\ud800), which no UTF-8 text holds, so SNS never signed
    # it: kept as it came ("surrogatepass"), it is a string no signature matches.
    return "".join(parts).encode("utf-8", "surrogatepass")


@dataclass
class Verifier:
    """Checks SNS messages, keeping each signing certificate once fetched (they rotate rarely)."""

    fetch: Fetch = https_get
    _certificates: dict[str, rsa.RSAPublicKey] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def public_key(self, url: str) -> rsa.RSAPublicKey | Invalid:
        with self._lock:
            cached = self._certificates.get(url)
        if cached is not None:
            return cached
        try:
            certificate = x509.load_pem_x509_certificate(self.fetch(url))
        except Exception as error:  # network or PEM trouble: not verifiable now
            return Invalid(f"could not load the signing certificate: {error}", retry=True)
        key = certificate.public_key()
        if not isinstance(key, rsa.RSAPublicKey):
            return Invalid("the signing certificate does not hold an RSA key")
        with self._lock:
            self._certificates[url] = key
        return key

    def verify(self, message: Mapping[str, Any], topics: frozenset[str]) -> Verified | Invalid:
        kind = str(message.get("Type", ""))
        topic = str(message.get("TopicArn", ""))
        if topic not in topics:
            return Invalid(f"topic {topic!r} is not one this service accepts")
        algorithm = HASHES.get(str(message.get("SignatureVersion", "")))
        if algorithm is None:
            return Invalid("unknown SignatureVersion")
        url = str(message.get("SigningCertURL", ""))
        if not trusted_url(url, ".pem"):
            return Invalid("SigningCertURL is not an Amazon SNS certificate address")
        signed = canonical(message)
        if signed is None:
            return Invalid(f"not a complete SNS {kind or 'message'}")
        try:
            signature = base64.b64decode(str(message.get("Signature", "")), validate=True)
        except (binascii.Error, ValueError):
            return Invalid("Signature is not base64")
        key = self.public_key(url)
        if isinstance(key, Invalid):
            return key
        try:
            key.verify(signature, signed, padding.PKCS1v15(), algorithm())
        except InvalidSignature:
            return Invalid("the SNS signature does not match")
        return Verified(kind, topic)

    def confirm(self, subscribe_url: str) -> Invalid | None:
        """Visit a verified SubscriptionConfirmation's link, which starts the deliveries."""
        if not trusted_url(subscribe_url):
            return Invalid("SubscribeURL is not an Amazon SNS address")
        try:
            self.fetch(subscribe_url)
        except Exception as error:  # SNS keeps resending the confirmation; try again then
            return Invalid(f"could not confirm the subscription: {error}", retry=True)
        return None
