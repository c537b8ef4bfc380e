"""A real RSA key for DKIM tests: dkimpy signs with it, and its TXT record is what a test's DNS
function serves (there is no DNS to ask here)."""

from __future__ import annotations

import base64
from typing import Any

import dkim as dkimpy
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


class DkimKey:
    def __init__(self) -> None:
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.private = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
        public = key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        self.record = b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)

    def sign(self, raw: bytes, domain: str, selector: str, **options: Any) -> bytes:
        """``raw`` with a DKIM-Signature header for d=domain, s=selector prepended (``options``
        as dkimpy takes them, such as the headers to sign)."""
        header = dkimpy.sign(
            raw, selector.encode(), domain.encode(), self.private, linesep=b"\n", **options
        )
        return bytes(header) + raw


class Signers:
    """Real DKIM keys, selector s1, for example.com (the players' provider) and evil.example
    (Mallory's), and the DNS that serves their records."""

    def __init__(self) -> None:
        self.keys = {"example.com": DkimKey(), "evil.example": DkimKey()}

    def sign(self, raw: bytes, domain: str = "example.com", **options: Any) -> bytes:
        return self.keys[domain].sign(raw, domain, "s1", **options)

    def dns(self, name: bytes, timeout: int = 5) -> bytes | None:
        for domain, key in self.keys.items():
            if name == f"s1._domainkey.{domain}.".encode():
                return key.record
        return None
