"""Musket & Pike map picture speed: where one Braddock Down map's time goes, and the palette's
shades chosen from a sample of the pixels against from every pixel, side by side in one run.

A map is drawn in RGB, put on a palette (every art colour kept true, the picture's own
anti-aliasing shades chosen for it) and encoded as PNG at ``picture.BALANCED``, as mailed. For the
opening of Braddock Down (20x14 hexes) and a position some thirty decisions in, this prints the
whole picture, the palette as made today (shades from a sample of the pixels) and from every
pixel, the PNG encode beside the smallest PNG's (level 9) and beside Pillow's own writer at level
8 (the PNG before ``core.picture`` wrote palette pictures itself), the palette ratio (every
pixel / sampled: higher is better) and the PNG sizes; then the time of a step's two players'
maps, whose views differ (each side has a standing instruction of its own) but not what they
draw: drawn once, then found. Each time also as a multiple of the fixed calibration workload
timed in the same run (``bench/calibration.py``), which compares across runs and machines.

    .venv/bin/python bench/bench_musket_and_pike_render.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from calibration import Yardstick
from PIL import Image

from adjudicator.core import picture
from adjudicator.core.chance import Chance
from adjudicator.games.musket_and_pike.game import MusketAndPike
from adjudicator.games.musket_and_pike.pictures import render as drawing
from adjudicator.games.musket_and_pike.rules import standing

GAME = MusketAndPike()
SEED = b"bench-musket-and-pike-render-32b"


def timed(work: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median seconds of ``repeat`` runs of ``work``, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def full_size_shades(image: Image.Image, exact: list[picture.Colour]) -> Image.Image:
    """The palette as it was chosen before: median cut over the picture at full size."""
    shades = image.quantize(picture.MAX_PALETTE - len(exact), dither=Image.Dither.NONE)
    return picture.on_palette(image, picture.palette_of([*exact, *picture.colours_of(shades)]))


def positions() -> dict[str, Any]:
    opening = GAME.new_game({"scenario": "braddock-down"}, Chance(SEED, "bench", 0))
    state, choose = opening, random.Random(3)
    for step in range(30):
        pending = GAME.pending(state)
        if not pending:
            break
        orders = {seat: choose.choice(list(GAME.legal_orders(state, seat))) for seat in pending}
        state = GAME.resolve(state, orders, Chance(SEED, "bench", step + 1)).state
    return {"opening": opening, "thirty decisions in": state}


def drawn_rgb(position: Any) -> Image.Image:
    """The map in RGB, as drawn before its palette (the palette step is caught, not run)."""
    caught: list[Image.Image] = []
    keeping = picture.keeping

    def catch(image: Image.Image, exact: Any) -> Image.Image:
        caught.append(image)
        return keeping(image, exact)

    picture.keeping = catch
    try:
        drawing.render(position)
    finally:
        picture.keeping = keeping
    return caught[0]


def pillows(image: Image.Image, level: int) -> bytes:
    """The PNG as Pillow's own writer makes it (zlib fed a row at a time), as before."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=level)
    return out.getvalue()


def report(
    name: str, position: Any, exact: list[picture.Colour], repeat: int, yard: Yardstick
) -> None:
    whole, png = timed(lambda: drawing.render(position), repeat)
    rgb = drawn_rgb(position)
    sampled, on_sampled = timed(lambda: picture.keeping(rgb, exact), repeat)
    full, on_full = timed(lambda: full_size_shades(rgb, exact), repeat)
    encode, _ = timed(lambda: picture.png(on_sampled, picture.BALANCED), repeat)
    pillow, pillow_png = timed(lambda: pillows(on_sampled, 8), repeat)
    smallest, smallest_png = timed(lambda: picture.png(on_sampled, picture.SMALLEST), repeat)
    full_png = picture.png(on_full, picture.BALANCED)
    yard.again()
    print(f"== Braddock Down, {name}")
    rows = [
        ("whole picture", whole, png),
        ("palette, sampled", sampled, None),
        ("palette, every pixel", full, full_png),
        ("PNG (BALANCED), as mailed", encode, png),
        ("PNG before (Pillow, level 8)", pillow, pillow_png),
        ("PNG smallest (level 9)", smallest, smallest_png),
    ]
    for what, seconds, data in rows:
        size = f"  {len(data) / 1024:6.1f} KiB" if data is not None else ""
        print(f"{yard.against(what, seconds, 30)}{size}")
    print(f"  encode now/before          {encode / pillow:7.2f}")
    print(f"  encode now/smallest        {encode / smallest:7.2f}")
    print(f"  palette ratio full/sample  {full / sampled:7.2f}")
    # Each side has a standing instruction of its own, as in a game by mail: the two views
    # differ, the two maps do not.
    for side in position.sides:
        position = standing.with_instruction(position, side, "retreat", "choose")
    view, other = GAME.view(position, "royalist"), GAME.view(position, "parliament")
    first, _ = timed(lambda: GAME.render(view, None), 1)
    second, _ = timed(lambda: GAME.render(other, None), 1)
    print(f"  a step's two maps          {first * 1000:7.1f} ms + {second * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    exact = drawing._art_colours()
    yard = Yardstick()
    print(f"median of {args.repeat} runs, one core")
    for name, position in positions().items():
        report(name, position, exact, args.repeat, yard)
    print(yard.describe())


if __name__ == "__main__":
    main()
