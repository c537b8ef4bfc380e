"""A real RSA key for DKIM tests: dkimpy signs with it, and its TXT record is what a test's DNS
function serves (there is no DNS to ask here)."""

from __future__ import annotations

import base64

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

    def sign(self, raw: bytes, domain: str, selector: str) -> bytes:
        """``raw`` with a DKIM-Signature header for d=domain, s=selector prepended."""
        header = dkimpy.sign(raw, selector.encode(), domain.encode(), self.private, linesep=b"\n")
        return bytes(header) + raw
