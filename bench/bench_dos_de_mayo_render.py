"""2 de Mayo map picture speed: a full mid-game picture against the static layer's PNG encode.

The static layer (streets, areas, names, legend, panel frame) is drawn once and cached; each
picture copies it, draws the position on top and encodes the PNG. This prints the time of one
full picture (PNG encode included), the time to encode the static layer alone with the same
encoder, their ratio (the aim is 3 or less: drawing the position costs little next to the
encode that every picture pays anyway) and the PNG sizes. Then the PNG settings side by side on
the same picture, size against encode time: the fixed palette's static shades and ramp steps,
and zlib's default level against its search for the smallest file (``picture.SMALLEST``); the
first row is the settings used before, the marked one those in ``art.toml`` now.

    .venv/bin/python bench/bench_dos_de_mayo_render.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import base64
import io
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from adjudicator.core import picture as kit
from adjudicator.games.dos_de_mayo.render import (
    base_layer,
    encode,
    load_art,
    palette_of,
    picture,
    render,
)

# (static shades kept, ramp steps, PNG options): the settings before, then the ones weighed.
SETTINGS = [
    (96, (0.25, 0.5, 0.75), kit.PLAIN),
    (96, (0.25, 0.5, 0.75), kit.SMALLEST),
    (48, (1 / 3, 2 / 3), kit.SMALLEST),
    (32, (0.5,), kit.SMALLEST),
    (16, (0.5,), kit.PLAIN),
    (16, (0.5,), {"compress_level": 8}),
    (16, (0.5,), kit.SMALLEST),
    (8, (0.5,), kit.SMALLEST),
]


def move(side: str, path: list[str], units: int, result: str) -> dict[str, Any]:
    return {
        "side": side,
        "from": path[0],
        "to": path[-1],
        "units": units,
        "path": path,
        "result": result,
    }


def midgame_view() -> dict[str, Any]:
    """Turn 5 from France's seat: fights, every move result, a 2-step charge, cards, a hand."""
    france = {"1": 4, "6": 1, "16": 2, "14": 3, "9": 2, "20": 3, "10": 1, "7": 1}
    spain = {"14": 1, "4": 1, "5": 1, "17": 2, "21": 1, "10": 1, "19": 1}
    areas = {
        str(area): {"france": france.get(str(area), 0), "spain": spain.get(str(area), 0)}
        for area in range(1, 22)
    }
    return {
        "game": "2demayo",
        "seat": "france",
        "turn": 5,
        "last_turn": 10,
        "status": "playing",
        "winner": None,
        "end_reason": None,
        "areas": areas,
        "off_map": {"OFF1": 2, "OFF6": 5, "OFF16": 3, "OFF20": 0},
        "set_aside": {"france": 0, "spain": 1},
        "losses": {"france": 2, "spain": 3},
        "loss_limit": 4,
        "initiative": "spain",
        "cards_in_play": [{"id": "F-ART", "name": "Artillery", "side": "france"}],
        "cards_played_last_turn": [
            {"id": "F-MAM", "name": "Mameluke charge", "side": "france", "args": "16-14-9"},
            {"id": "S-BAR", "name": "Barricades", "side": "spain", "args": "17"},
            {"id": "F-FUS", "name": "Shootings", "side": "france", "args": "9"},
        ],
        "hand_sizes": {"france": 2, "spain": 3},
        "hand": [{"id": "F-COR", "name": "Cuirassiers"}, {"id": "F-TOQ", "name": "Curfew"}],
        "last_moves": [
            move("france", ["16", "14", "9"], 2, "moved"),
            move("france", ["OFF16", "16"], 2, "moved"),
            move("france", ["OFF1", "1"], 3, "moved"),
            move("france", ["15", "14"], 3, "moved"),
            move("spain", ["14", "15"], 1, "stopped"),
            move("france", ["14", "17"], 1, "failed"),
            move("spain", ["12", "21"], 1, "moved"),
            move("spain", ["8", "5"], 1, "moved"),
        ],
        "combats": [
            {"area": "14", "strength": {"france": 4, "spain": 1}, "lost": {"spain": 1}},
            {"area": "10", "strength": {"france": 1, "spain": 2}, "lost": {"france": 1}},
        ],
        "removed": [{"area": "9", "side": "spain", "units": 1, "why": "Shootings"}],
    }


def timed(action: Callable[[], bytes], repeat: int) -> tuple[float, bytes]:
    """Median seconds of one call over ``repeat`` calls, and the last result."""
    result = action()  # warm: the cached layer and palette are built once per process
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    view = midgame_view()
    start = time.perf_counter()
    base = base_layer()
    print(f"static layer drawn once in {(time.perf_counter() - start) * 1000:.1f} ms")
    full, full_png = timed(lambda: render(view, None), args.repeat)
    static, static_png = timed(lambda: encode(base), args.repeat)
    print(f"picture: {base.width}x{base.height} px, median of {args.repeat} runs")
    rows = [
        ("full mid-game picture (draw + PNG encode)", full, full_png),
        ("static layer PNG encode alone", static, static_png),
    ]
    for name, seconds, png in rows:
        print(f"  {name:<42} {seconds * 1000:7.2f} ms  {len(png):>7,} bytes")
    print(f"  ratio full / static encode: {full / static:.2f} (aim <= 3)")
    compare(picture(view), max(10, args.repeat // 10))


def compare(image: Image.Image, repeat: int) -> None:
    """The mid-game picture under each of ``SETTINGS``: bytes, base64 bytes (as mailed, with
    line ends), colours used and the median time to map it to the palette and encode it."""
    look = load_art()
    now = (look.palette, look.ramp_steps, kit.SMALLEST)
    print(f"PNG settings, the mid-game picture, median of {repeat} runs:")
    print(f"  {'shades':>6} {'steps':>5} {'options':<24} {'bytes':>7} {'mailed':>7} colours  time")
    for kept, steps, options in SETTINGS:
        palette = palette_of(kept, steps)

        def encoded(palette: Image.Image = palette, options: Any = options) -> bytes:
            return kit.png(kit.on_palette(image, palette), options)

        seconds, png = timed(encoded, repeat)
        used = len(Image.open(io.BytesIO(png)).getcolors() or [])
        mailed = len(base64.encodebytes(png)) * 78 // 77  # 76 characters and CRLF a line
        mark = " <- now" if (kept, tuple(steps), dict(options)) == (*now[:2], dict(now[2])) else ""
        print(
            f"  {kept:>6} {len(steps):>5} {dict(options)!s:<24} {len(png):>7,} {mailed:>7,}"
            f" {used:>7} {seconds * 1000:5.1f} ms{mark}"
        )


if __name__ == "__main__":
    main()
