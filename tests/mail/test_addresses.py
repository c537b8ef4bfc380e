"""Per-seat reply addresses: minting, routing, and every way a token can fail to check out."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from adjudicator.core.refusal import Refusal
from adjudicator.mail.addresses import (
    SeatRoute,
    bare,
    is_command_address,
    reply_address,
    route,
    seat_token,
)

SECRET = "s3cret"
DOMAIN = "pbem.example"


def test_token_layout_and_mac_follow_the_spec() -> None:
    # Recomputed here independently, so a change to the scheme (which would orphan every reply
    # address already in players' mailboxes) fails loudly.
    expected_mac = hmac.new(b"s3cret|v1", b"12|spartans|1", hashlib.sha256).hexdigest()[:16]
    assert seat_token(SECRET, 12, "spartans") == f"12-spartans-1-{expected_mac}"
    assert seat_token("fixture-secret", 12, "spartans") == "12-spartans-1-942c723b85fb6772"


def test_reply_address_shape() -> None:
    assert reply_address("12-spartans-1-abc", DOMAIN) == "orders+12-spartans-1-abc@pbem.example"


@pytest.mark.parametrize(
    ("game_id", "seat", "version"),
    [(12, "spartans", 1), (0, "a", 0), (98765, "sea-peoples", 3), (7, "player-2-b", 12)],
)
def test_round_trip(game_id: int, seat: str, version: int) -> None:
    address = reply_address(seat_token(SECRET, game_id, seat, version), DOMAIN)
    assert route(address, DOMAIN, SECRET) == SeatRoute(game_id, seat, version)


def test_seat_with_hyphens_is_parsed_from_both_ends() -> None:
    token = seat_token(SECRET, 12, "sea-peoples-2")
    assert token.startswith("12-sea-peoples-2-1-")
    assert route(reply_address(token, DOMAIN), DOMAIN, SECRET) == SeatRoute(12, "sea-peoples-2", 1)


def test_upper_case_address_and_domain_still_route() -> None:
    address = reply_address(seat_token(SECRET, 12, "spartans"), DOMAIN).upper()
    assert route(address, "PBEM.Example", SECRET) == SeatRoute(12, "spartans", 1)


@pytest.mark.parametrize(
    "template",
    ["<{}>", "PBEM Judge <{}>", '"Judge, PBEM" <{}>', "  {}  ", "{} (PBEM Judge)"],
)
def test_display_names_and_angle_brackets_are_tolerated(template: str) -> None:
    address = reply_address(seat_token(SECRET, 12, "spartans"), DOMAIN)
    assert route(template.format(address), DOMAIN, SECRET) == SeatRoute(12, "spartans", 1)


def test_forged_mac_does_not_check_out() -> None:
    token = seat_token(SECRET, 12, "spartans")
    forged = token[:-1] + ("0" if token[-1] != "0" else "1")
    assert route(reply_address(forged, DOMAIN), DOMAIN, SECRET) == Refusal(
        "token does not check out (truncated or forged?)"
    )


def test_mac_moved_to_another_seat_does_not_check_out() -> None:
    mac = seat_token(SECRET, 12, "spartans").rsplit("-", 1)[1]
    assert route(f"orders+12-persians-1-{mac}@{DOMAIN}", DOMAIN, SECRET) == Refusal(
        "token does not check out (truncated or forged?)"
    )


def test_token_minted_with_another_secret_does_not_check_out() -> None:
    address = reply_address(seat_token("other-secret", 12, "spartans"), DOMAIN)
    assert route(address, DOMAIN, SECRET) == Refusal(
        "token does not check out (truncated or forged?)"
    )


def test_key_version_is_part_of_the_signature() -> None:
    token_v2 = seat_token(SECRET, 12, "spartans", version=2)
    relabelled = token_v2.replace("-2-", "-1-")
    assert route(reply_address(token_v2, DOMAIN), DOMAIN, SECRET) == SeatRoute(12, "spartans", 2)
    assert route(reply_address(relabelled, DOMAIN), DOMAIN, SECRET) == Refusal(
        "token does not check out (truncated or forged?)"
    )


@pytest.mark.parametrize("cut", [1, 4, 15])
def test_truncated_mac_does_not_check_out(cut: int) -> None:
    token = seat_token(SECRET, 12, "spartans")
    assert route(reply_address(token[:-cut], DOMAIN), DOMAIN, SECRET) == Refusal(
        "token does not check out (truncated or forged?)"
    )


def test_token_truncated_into_its_structure_is_malformed() -> None:
    token = seat_token(SECRET, 12, "spartans")
    without_mac = token.rsplit("-", 1)[0]  # "12-spartans-1"
    assert route(reply_address(without_mac, DOMAIN), DOMAIN, SECRET) == Refusal("malformed token")
    assert route(reply_address(token[:-18], DOMAIN), DOMAIN, SECRET) == Refusal("malformed token")


@pytest.mark.parametrize(
    "token",
    [
        "spartans-1-942c723b85fb6772",  # no game id
        "x12-spartans-1-942c723b85fb6772",
        "12--1-942c723b85fb6772",  # no seat
        "12-spartans-v1-942c723b85fb6772",
        "12-spartans-1-942c723b85fb677z",  # not hex
        "12-spartans-1-942c723b85fb67720",  # longer than a mac
        "12-spartans-1-",
        "12-spar_tans-1-942c723b85fb6772",
        "12-spartans--1-942c723b85fb6772",
        "----",
    ],
)
def test_malformed_tokens(token: str) -> None:
    assert route(f"orders+{token}@{DOMAIN}", DOMAIN, SECRET) == Refusal("malformed token")


@pytest.mark.parametrize(
    "address",
    [
        "orders+12-spartans-1-942c723b85fb6772@evil.example",
        "orders+12-spartans-1-942c723b85fb6772@sub.pbem.example",
        "orders+12-spartans-1-942c723b85fb6772@pbem.example.evil.example",
        "orders+12-spartans-1-942c723b85fb6772",
        "",
    ],
)
def test_other_domain(address: str) -> None:
    assert route(address, DOMAIN, SECRET) == Refusal("not our domain")


@pytest.mark.parametrize(
    "address", ["orders@pbem.example", "orders+@pbem.example", "new@pbem.example"]
)
def test_no_token(address: str) -> None:
    assert route(address, DOMAIN, SECRET) == Refusal("no token")


@pytest.mark.parametrize("seat", ["Spartans", "sea peoples", "-spartans", "spartans-", "", "é"])
def test_minting_refuses_seats_that_would_not_route(seat: str) -> None:
    with pytest.raises(ValueError):
        seat_token(SECRET, 12, seat)


def test_minting_refuses_negative_numbers() -> None:
    with pytest.raises(ValueError):
        seat_token(SECRET, -1, "spartans")
    with pytest.raises(ValueError):
        seat_token(SECRET, 1, "spartans", version=-1)


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("New@PBEM.example", True),
        ("Game Master <new@pbem.example>", True),
        ("<NEW@pbem.example>", True),
        ("new+x@pbem.example", False),
        ("renew@pbem.example", False),
        ("new@pbem.example.org", False),
        ("help@pbem.example", False),
    ],
)
def test_is_command_address(address: str, expected: bool) -> None:
    assert is_command_address(address, "new", "pbem.example") is expected


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("Name <A@B>", "a@b"),
        ('"Doe, John" <John.Doe@Example.COM>', "john.doe@example.com"),
        ("<x@y.org>", "x@y.org"),
        ("x@y.org (comment)", "x@y.org"),
        ("  plain@example.com ", "plain@example.com"),
        ("", ""),
    ],
)
def test_bare(address: str, expected: str) -> None:
    assert bare(address) == expected
