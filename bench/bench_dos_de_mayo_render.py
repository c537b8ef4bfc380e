"""2 de Mayo map picture speed: the turn's map as it is made now against as it was made before,
side by side in one run, where its time goes, and the PNG settings weighed.

The static layer (streets, areas, names, legend, panel frame) is drawn once and cached; each
picture copies it, draws the position on top (its text stamped, ``core/stamps.py``), is put on
the fixed palette of ``art.toml`` and written as PNG by ``core.picture`` (its rows deflated whole
by zlib-ng at ``picture.BALANCED``). Before: every text drawn by FreeType, 16 static shades, and
Pillow's PNG writer at zlib level 8. The two are timed in turn, picture after picture (the
machine is noisy: read the ratios), each also against the fixed calibration workload timed in
the same run (``bench/calibration.py``), so the figures compare across runs and machines. Then
the parts of one picture now (drawing, palette, PNG), the static layer's own encode, and the
PNG settings side by side on the same picture: the palette's static shades and ramp steps, and
each zlib level by Pillow's writer and by ``core.picture``'s, bytes against encode time.

    .venv/bin/python bench/bench_dos_de_mayo_render.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import base64
import io
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from calibration import Yardstick
from PIL import Image

from adjudicator.core import picture as kit
from adjudicator.games.dos_de_mayo import render_art
from adjudicator.games.dos_de_mayo.render import (
    base_layer,
    encode,
    load_art,
    palette,
    palette_of,
    picture,
    render,
)

OLD_SHADES, OLD_STEPS, OLD_LEVEL = 16, (0.5,), 8  # the palette and zlib level before
# (static shades kept, ramp steps): the palettes weighed; the first three the art's first, the
# one before and the one now.
PALETTES = [(96, (0.25, 0.5, 0.75)), (16, (0.5,)), (8, (0.5,)), (8, (1 / 3, 2 / 3)), (4, (0.5,))]
LEVELS = (1, 3, 5, 6, 7, 8, 9)


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


def timed(
    action: Callable[[], Any], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, Any]:
    """Median seconds of one call by ``clock`` over ``repeat`` calls, and the last result."""
    result = action()  # warm: the cached layer, palette and stamps are made once per process
    samples = []
    for _ in range(repeat):
        start = clock()
        result = action()
        samples.append(clock() - start)
    return statistics.median(samples), result


def pillows(image: Image.Image, level: int) -> bytes:
    """The PNG as Pillow's own writer makes it (zlib fed a row at a time)."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=level)
    return out.getvalue()


@contextmanager
def unstamped() -> Iterator[None]:
    """Every text drawn by FreeType, as before the stamps (the same pixels, more time)."""
    kept = render_art.StampCanvas
    render_art.StampCanvas = kit.Canvas  # type: ignore[misc]
    try:
        yield
    finally:
        render_art.StampCanvas = kept  # type: ignore[misc]


def before(view: dict[str, Any], old: Image.Image) -> bytes:
    """The map as it was made before: text drawn, 16 static shades, Pillow's writer at 8."""
    with unstamped():
        image = picture(view)
    return pillows(kit.on_palette(image, old), OLD_LEVEL)


def side_by_side(view: dict[str, Any], repeat: int, yard: Yardstick) -> None:
    """Before and now in turn, ``repeat`` times each: the medians of wall time (against the
    calibration workload) and of this thread's CPU time (less swayed by other work)."""
    old = palette_of(OLD_SHADES, OLD_STEPS)
    ways = {"before": lambda: before(view, old), "now": lambda: render(view, None)}
    wall: dict[str, list[float]] = {name: [] for name in ways}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    made = {name: way() for name, way in ways.items()}  # warm
    for _ in range(repeat):
        for name, way in ways.items():
            start, used = time.perf_counter(), time.thread_time()
            way()
            cpu[name].append(time.thread_time() - used)
            wall[name].append(time.perf_counter() - start)
    yard.again()
    print(f"the mid-game map, before and now in turn, median of {repeat} each:")
    print(f"  {yard.describe()}")
    medians = {name: statistics.median(values) for name, values in wall.items()}
    for name, seconds in medians.items():
        print(f"{yard.against(f'{name}: a turn map (draw + palette + PNG)', seconds)}"
              f"  {len(made[name]):>7,} bytes")  # fmt: skip
    for name, values in cpu.items():
        print(f"  {name}: CPU time, median {statistics.median(values) * 1000:.2f} ms,"
              f" best {min(values) * 1000:.2f} ms")  # fmt: skip
    print(f"  now / before: {medians['now'] / medians['before']:.2f} (aim: a map <= 10 ms)")


def parts(view: dict[str, Any], repeat: int, yard: Yardstick) -> None:
    """Where one picture's time goes now: copying the static layer, drawing the position on it,
    mapping to the palette, writing the PNG; and the static layer's own encode."""
    image = picture(view)
    fixed = palette()
    mapped = kit.on_palette(image, fixed)
    base = base_layer()
    rows = [
        ("copy the static layer", lambda: base.copy()),
        ("draw (copy included)", lambda: picture(view)),
        ("map to the fixed palette", lambda: kit.on_palette(image, fixed)),
        ("write the PNG (BALANCED)", lambda: kit.png(mapped, kit.BALANCED)),
        ("static layer: palette + PNG", lambda: encode(base)),
    ]
    print(f"where a map's time goes now, {base.width}x{base.height} px, median of {repeat}:")
    for name, action in rows:
        seconds, _ = timed(action, repeat)
        print(yard.against(name, seconds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    yard = Yardstick()
    view = midgame_view()
    start = time.perf_counter()
    base_layer()
    print(f"static layer drawn once in {(time.perf_counter() - start) * 1000:.1f} ms")
    side_by_side(view, args.repeat, yard)
    parts(view, max(10, args.repeat // 4), yard)
    compare(picture(view), max(10, args.repeat // 10))


def compare(image: Image.Image, repeat: int) -> None:
    """The mid-game picture on each of ``PALETTES`` at each of ``LEVELS``, by Pillow's writer
    and by ``core.picture``'s: bytes, base64 bytes (as mailed, with line ends), colours used and
    the median CPU time to write the PNG (the palette mapped once before; CPU time is less
    swayed than wall time by other work on the machine)."""
    look = load_art()
    print(f"PNG settings, the mid-game picture, median CPU time of {repeat} runs:")
    print(f"  {'shades':>6} {'steps':>5} {'level':>5} colours   {'Pillow writes':>22}"
          f"   {'core.picture writes':>30}")  # fmt: skip
    for kept, steps in PALETTES:
        mapped = kit.on_palette(image, palette_of(kept, steps))
        used = len(mapped.getcolors() or [])
        for level in LEVELS:
            cpu = time.thread_time
            old, old_png = timed(lambda m=mapped, n=level: pillows(m, n), repeat, cpu)
            new, new_png = timed(
                lambda m=mapped, n=level: kit.png(m, {"compress_level": n}), repeat, cpu
            )
            mailed = len(base64.encodebytes(new_png)) * 78 // 77  # 76 characters and CRLF a line
            now = (kept, tuple(steps), level) == (look.palette, look.ramp_steps, 6)
            mark = " <- now" if now else ""
            mark = " <- before" if (kept, tuple(steps), level) == (16, (0.5,), 8) else mark
            print(
                f"  {kept:>6} {len(steps):>5} {level:>5} {used:>7}   {len(old_png):>7,} B"
                f" {old * 1000:6.2f} ms   {len(new_png):>7,} B ({mailed:>6,} mailed)"
                f" {new * 1000:6.2f} ms{mark}"
            )


if __name__ == "__main__":
    main()
