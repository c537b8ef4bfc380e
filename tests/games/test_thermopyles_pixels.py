"""The Thermopyles pictures are the same pixels however cheaply they are drawn: every position
of two strategy-played games (the player's picture with the action's result, the public one,
the game over), checked actions of the order checker, a long hand and an overlong result, at
scale 1 and 2, in English, and the first game's in Russian and Spanish too, against digests of
the pictures with every text drawn by Pillow itself, nothing stamped
(``data/thermopyles_pixels.json``), and against the same drawing made again that way now.

Written from a tree with this test file and that tree's renderer (its ``adjudicator`` first on
the path), with this machine's Pillow, FreeType and font file, whose glyphs the digests depend
on; a change of the drawing (or of its words) is a deliberate new set of digests:

    PYTHONPATH=DIR .venv/bin/python tests/games/test_thermopyles_pixels.py --write
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import PIL
from PIL import Image, ImageFont, features

from adjudicator import i18n
from adjudicator.core import picture
from adjudicator.core.chance import Chance
from adjudicator.core.stamps import StampCanvas, Stamps
from adjudicator.games.thermopyles import GAME, render, strategy
from adjudicator.games.thermopyles.render import font

DIGESTS = Path(__file__).parent / "data" / "thermopyles_pixels.json"
SEEDS = (b"render", b"pixels")
ANCHORS = ("la", "lm", "mm", "ms", "rm", "rs")
TWICE_EVERY = 4  # every fourth position is drawn at scale 2 as well (each 2x draw costs more)
# Every picture in English; the first seed's in Russian and Spanish too (their names start with
# the language): other words, other glyphs (Cyrillic, accents), other widths to wrap.
TRANSLATED = {"ru": SEEDS[0], "es": SEEDS[0]}

Case = tuple[str, Mapping[str, Any], Mapping[str, Any] | None, int]


def _orders(state: Any) -> Iterator[tuple[str, str]]:
    """Checked actions on ``state``: a fight with support, a discard then a fight, retreats."""
    hand = sorted(state.hand)
    if hand:
        yield "fight", f"FIGHT {hand[-1]} SUPPORT 1"
        yield "discard", f"DISCARD {hand[0]}\nFIGHT {hand[-1]}"
    yield "retreat", "RETREAT"
    yield "nodraw", "RETREAT NODRAW"


def _previews(name: str, state: Any, scales: tuple[int, ...] = (1,)) -> Iterator[Case]:
    for kind, text in _orders(state):
        report = GAME.parse_orders(state, "spartans", text)
        if report.orders is None or report.rejected:
            continue
        facts = GAME.preview_facts(state, "spartans", report.orders)
        if facts is not None:
            for seat in ("spartans", None):
                for scale in scales:
                    view = GAME.view(state, seat)
                    yield f"{name} preview {kind} {seat} x{scale}", view, facts, scale


def _long(view: Mapping[str, Any], facts: Mapping[str, Any]) -> Iterator[Case]:
    """A hand of eleven narrow cards (half-pixel centres) and a result of many wrapped lines."""
    long_hand = dict(view)
    long_hand["hand"], long_hand["hand_size"] = list(range(1, 12)), 11
    long = dict(facts)
    long["understood"] = "DISCARD 18\nFIGHT 17 SUPPORT 4 " + "with every support card left " * 4
    long["discards"] = [{"value": v, "why": "hand-limit"} for v in (2, 3, 4, 5, 6, 7, 8) * 4]
    long["drawn"] = {"count": 9, "values": [1, 2, 3, 4, 5, 6, 7, 8, 9]}
    for scale in (1, 2):
        yield f"long hand x{scale}", long_hand, None, scale
        yield f"long result x{scale}", view, long, scale


def cases() -> Iterator[tuple[str, Case]]:
    """Every picture as (its language, the case); an English case's name is its own."""
    for case in english_cases():
        yield "en", case
    for lang, seed in TRANSLATED.items():
        for name, view, facts, scale in english_cases((seed,)):
            yield lang, (f"{lang} {name}", view, facts, scale)


def english_cases(seeds: tuple[bytes, ...] = SEEDS) -> Iterator[Case]:
    for seed in seeds:
        name = seed.decode()
        state = GAME.new_game({}, Chance(seed, name, 0))
        yield from _previews(f"{name} opening", state, (1, 2))
        facts: Mapping[str, Any] = {}
        while not state.over:
            orders = {"spartans": strategy.choose(state).to_json()}
            resolution = GAME.resolve(state, orders, Chance(seed, name, state.turn + 1))
            state, facts = resolution.state, resolution.facts
            here = f"{name} turn {state.turn}"
            scales = (1, 2) if state.turn % TWICE_EVERY == 0 else (1,)
            for scale in scales:
                yield f"{here} own x{scale}", GAME.view(state, "spartans"), facts, scale
                yield f"{here} public x{scale}", GAME.view(state, None), None, scale
            if state.turn % TWICE_EVERY == 1:
                yield from _previews(here, state)
        yield f"{name} over own", GAME.view(state, "spartans"), None, 1
        yield f"{name} over public x2", GAME.view(state, None), None, 2
        if name == "render":
            yield from _long(GAME.view(state, "spartans"), facts)


def pixels(png: bytes) -> str:
    """The digest of the picture's size and RGB pixels: what a player sees, not how it is packed."""
    with Image.open(io.BytesIO(png)) as image:
        rgb = image.convert("RGB")
    return hashlib.sha256(repr(rgb.size).encode() + rgb.tobytes()).hexdigest()


def machine() -> dict[str, str | None]:
    """What the digests depend on besides the renderer: the glyphs are Pillow's and FreeType's,
    drawn from the font file found (``art.toml``)."""
    face = font(16)
    path = Path(str(face.path)) if isinstance(face, ImageFont.FreeTypeFont) else None
    return {
        "pillow": PIL.__version__,
        "freetype": features.version("freetype2"),
        "raqm": features.version("raqm"),
        "font": path.name if path else "Pillow's own",
        "font_sha256": hashlib.sha256(path.read_bytes()).hexdigest() if path else None,
    }


def render_in(lang: str, case: Case) -> bytes:
    _name, view, facts, scale = case
    with i18n.speaking(lang):
        return GAME.render(view, facts, scale)


def drawn() -> dict[str, dict[str, str]]:
    found = {}
    for lang, case in cases():
        png = render_in(lang, case)
        found[case[0]] = {"pixels": pixels(png), "png": hashlib.sha256(png).hexdigest()}
    return found


@contextmanager
def unstamped() -> Iterator[None]:
    """Every text drawn by Pillow, the base layers and card tiles drawn again that way."""
    caches = (render._base, render._card)
    kept = render.StampCanvas
    render.StampCanvas = picture.Canvas  # type: ignore[misc]
    for cache in caches:
        cache.cache_clear()
    try:
        yield
    finally:
        render.StampCanvas = kept  # type: ignore[misc]
        for cache in caches:
            cache.cache_clear()


def test_the_pictures_are_the_pixels_drawn_before() -> None:
    stored = json.loads(DIGESTS.read_text())
    # Pillow is pinned (pyproject.toml), and its wheel carries FreeType and raqm: a difference
    # here is an upgrade, whose glyphs the digests must be drawn again for (--write, from main).
    assert stored["machine"] == machine(), "digests drawn with other glyph libraries: redraw them"
    now = drawn()
    assert now.keys() == stored["pictures"].keys()
    changed = [name for name in now if now[name]["pixels"] != stored["pictures"][name]["pixels"]]
    assert not changed, changed
    # The same pixels on the same palette and PNG options: the same bytes too.
    assert all(now[name]["png"] == stored["pictures"][name]["png"] for name in now)


def test_the_pictures_are_the_pixels_pillow_draws_unstamped() -> None:
    stamped = {case[0]: render_in(lang, case) for lang, case in cases()}
    with unstamped():
        for lang, case in cases():
            assert render_in(lang, case) == stamped[case[0]], case[0]


def test_a_stamp_is_the_text_pillow_draws_anywhere_in_any_colour() -> None:
    face, kept = font(16), Stamps()
    texts = ("Near 19/22: beaten.", "Ближняя 19/22: разбита.", "Línea del frente", "W", " ", "")
    points = ((200, 30), (200.5, 30.25), (200.015625, 30.5), (200.3, 30.1), (3, 4), (-2.5, 9))
    fills = ((40, 32, 26), (255, 255, 255), (40, 32, 26))  # the second and third from the stamp
    for text, anchor, xy, scale in itertools.product(texts, ANCHORS, points, (1, 2)):
        for fill in fills:
            by_pillow = Image.new("RGB", (400 * scale, 60 * scale), (245, 238, 222))
            picture.Canvas(by_pillow, scale).text(xy, text, fill, face, anchor)
            by_stamp = Image.new("RGB", by_pillow.size, (245, 238, 222))
            StampCanvas(by_stamp, scale, kept).text(xy, text, fill, face, anchor)
            assert by_stamp.tobytes() == by_pillow.tobytes(), (text, anchor, xy, scale, fill)
    assert kept.used > 0


def test_the_stamps_kept_are_bounded_by_their_bytes() -> None:
    stamps = Stamps(budget=20_000)
    image = Image.new("RGB", (720, 100))
    canvas = StampCanvas(image, 2, stamps)
    for turn in range(200):
        canvas.text((10, 10), f"THERMOPYLES  -  turn {turn}", (0, 0, 0), font(20))
        assert stamps.used <= stamps.budget
    kept = stamps.used
    assert kept > 0
    # The latest are kept, the first dropped: drawing the latest again keeps nothing new.
    canvas.text((10, 10), "THERMOPYLES  -  turn 199", (0, 0, 0), font(20))
    assert stamps.used == kept


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import adjudicator

    print(f"drawing with {adjudicator.__file__}, every text by Pillow")
    with unstamped():
        pictures = drawn()
    DIGESTS.write_text(json.dumps({"machine": machine(), "pictures": pictures}, indent=1) + "\n")
    print(f"{len(pictures)} pictures written to {DIGESTS}")
