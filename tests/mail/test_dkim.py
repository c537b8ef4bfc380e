"""DKIM verdicts from real signatures (dkimpy signs, a generated RSA key); only DNS is served."""

from __future__ import annotations

import dkim as dkimpy
import pytest
from dkimkeys import DkimKey
from playbymail import compose

from adjudicator.mail import dkim

SENDER = "leonidas@sparta.example"
TO = "orders+1-spartans-1-0123456789abcdef@pbem.localhost"


class Keys(DkimKey):
    """One RSA key published as a DKIM TXT record for each (selector, domain) given."""

    def __init__(self) -> None:
        super().__init__()
        self.published: set[bytes] = set()
        self.asked: list[bytes] = []

    def sign(self, raw: bytes, domain: str, selector: str = "mail") -> bytes:
        self.published.add(f"{selector}._domainkey.{domain}.".encode())
        return super().sign(raw, domain, selector)

    def dns(self, name: bytes, timeout: int = 5) -> bytes | None:
        self.asked.append(name)
        return self.record if name in self.published else None


@pytest.fixture(scope="module")
def keys() -> Keys:
    return Keys()


def mail(sender: str = SENDER, body: str = "FIGHT 12 SUPPORT 1") -> bytes:
    return compose(sender, TO, body)


def test_a_valid_signature_from_the_sender_domain_passes(keys: Keys) -> None:
    signed = keys.sign(mail(), "sparta.example")
    assert dkim.verify(signed, "sparta.example", keys.dns) == "pass d=sparta.example"
    assert keys.asked[-1] == b"mail._domainkey.sparta.example."


def test_a_parent_domain_signature_is_aligned(keys: Keys) -> None:
    signed = keys.sign(mail("leo@mail.sparta.example"), "sparta.example")
    assert dkim.verify(signed, "mail.sparta.example", keys.dns) == "pass d=sparta.example"


def test_a_tampered_body_fails(keys: Keys) -> None:
    signed = keys.sign(mail(body="FIGHT 12 SUPPORT 1"), "sparta.example")
    tampered = signed.replace(b"FIGHT 12", b"FIGHT 20")
    verdict = dkim.verify(tampered, "sparta.example", keys.dns)
    assert verdict.startswith("fail: ") and "body" in verdict


def test_a_signature_from_another_domain_is_not_enough(keys: Keys) -> None:
    # Valid cryptographically, but the signer does not speak for the From domain.
    signed = keys.sign(mail(), "persia.example")
    verdict = dkim.verify(signed, "sparta.example", keys.dns)
    assert verdict == "fail: signed by d=persia.example, not by sparta.example"
    # A sibling or a mere suffix is no parent either.
    assert not dkim.aligned("example", "sparta.example")
    assert not dkim.aligned("arta.example", "sparta.example")
    assert dkim.aligned("Sparta.Example.", "sparta.example")


def test_any_one_aligned_signature_is_enough(keys: Keys) -> None:
    # A mailing list or relay adds its own signature above the author's.
    signed = keys.sign(keys.sign(mail(), "sparta.example"), "relay.example", selector="relay")
    assert dkim.verify(signed, "sparta.example", keys.dns) == "pass d=sparta.example"


def test_unsigned_mail_is_none(keys: Keys) -> None:
    before = len(keys.asked)
    assert dkim.verify(mail(), "sparta.example", keys.dns) == "none"
    assert len(keys.asked) == before  # no signature, no lookup


def test_a_key_missing_from_dns_fails(keys: Keys) -> None:
    signed = keys.sign(mail(), "sparta.example", selector="gone")
    keys.published.discard(b"gone._domainkey.sparta.example.")
    verdict = dkim.verify(signed, "sparta.example", keys.dns)
    assert verdict == "fail: no key published at gone._domainkey.sparta.example"


def test_a_dns_timeout_is_a_temporary_error_not_a_failure(keys: Keys) -> None:
    signed = keys.sign(mail(), "sparta.example")

    def timing_out(name: bytes, timeout: int = 5) -> bytes | None:
        # What dkimpy's own lookup raises when dnspython times out.
        raise dkimpy.DnsTimeoutError("dns.exception.Timeout: The DNS operation timed out.")

    verdict = dkim.verify(signed, "sparta.example", timing_out)
    assert verdict.startswith("temperror: mail._domainkey.sparta.example: DnsTimeoutError")


def test_garbage_never_raises(keys: Keys) -> None:
    bad_signature = b"DKIM-Signature: v=1; a=rsa-sha256; d=sparta.example\n" + mail()
    assert dkim.verify(bad_signature, "sparta.example", keys.dns).startswith("fail: ")
    # Bytes that are not mail carry no signature: nothing vouches for them, and nothing failed.
    assert dkim.verify(b"\x00\xff not mail", "sparta.example", keys.dns) == "none"
    assert dkim.verify(b"DKIM-Signature:\x00\xff", "sparta.example", keys.dns).startswith("fail: ")
    assert len(dkim.verify(keys.sign(mail(), "x" * 300 + ".example"), "a.b", keys.dns)) <= 200


def test_pbem_mail_parse_shows_the_verdict_the_pipeline_records(
    keys: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    from adjudicator.mail.inspect import inspect

    monkeypatch.setattr(dkim, "default_dnsfunc", keys.dns)
    signed = keys.sign(mail(), "sparta.example")
    assert inspect(signed, "pbem.localhost", "secret")["dkim"] == "pass d=sparta.example"
    tampered = signed.replace(b"FIGHT 12", b"FIGHT 13")
    assert inspect(tampered, "pbem.localhost", "secret")["dkim"].startswith("fail")
    assert inspect(mail(), "pbem.localhost", "secret")["dkim"] == "none"
