"""Thermopyles picture cost: the way it was drawn and encoded before against the way it is now,
side by side in one run on the same pictures, one of each in turn (the machine is noisy: read
the ratios; "best" is the fastest run, the least disturbed).

Before: everything drawn on every picture (no text stamped, no line wrapped once), then a
palette of 48 shades chosen for the picture (Pillow's median cut) and zlib's search for the
smallest file (``optimize=True``). Now: the base layer, the cards and each text drawn once
(cached; ``stamps.py``), the fixed palette of ``art.toml`` and ``picture.QUICK``.
An action resolved on receipt draws two pictures: the player's, with the action's result, for
the report mail (``services.outbound.reports``), and the public one stored with the turn for the
archive
(``services.record.play``); their sum is what an action costs in pictures.

Then the PNG settings side by side on the same fixed-palette picture (bytes against encode
time), how true each palette keeps the drawing (mean difference per channel, of 255), and the
2x picture the web serves.

With ``--against DIR`` (a tree of the project as it was, e.g. ``git archive main``) both trees
draw the same pictures in turn, each in a process of its own, block after block: the action's
two pictures of one position drawn again and again (every cache warm), and the two pictures of
each action of a game never drawn before (its result lines new to every cache), after another
game's pictures warmed the caches, as a long-running worker's would be.

With ``--language ru`` (or ``es``) every picture is drawn for a reader of that language, as the
service draws it inside ``i18n.speaking`` (a tree from before the pictures were translated
draws them in English whatever the language).

    .venv/bin/python bench/bench_thermopyles_render.py [--repeat 200] [--against DIR]
        [--language ru]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageStat

from adjudicator import i18n
from adjudicator.core import picture, said
from adjudicator.core.chance import Chance
from adjudicator.games.thermopyles import GAME, render, strategy

OLD_COLOURS = 48  # the adaptive palette's size before
OLD_OPTIONS: Mapping[str, Any] = {"optimize": True}
LEVELS: list[Mapping[str, Any]] = [
    {"compress_level": 1},
    {"compress_level": 2},
    {"compress_level": 3},
    {"compress_level": 6},
    {"compress_level": 9},
    {"optimize": True},
]


def midgame() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The player's and the public view after a strategy-played game's sixth action, and its
    facts: a fight's dice, a refill and a draw in the result panel."""
    seed = b"bench"
    state = GAME.new_game({}, Chance(seed, "bench", 0))
    facts: dict[str, Any] = {}
    while state.turn < 6 and not state.over:
        orders = {"spartans": strategy.choose(state).to_json()}
        resolution = GAME.resolve(state, orders, Chance(seed, "bench", state.turn + 1))
        state, facts = resolution.state, dict(resolution.facts)
    return GAME.view(state, "spartans"), GAME.view(state, None), facts


def old_way(view: Mapping[str, Any], facts: Mapping[str, Any] | None) -> bytes:
    """The picture as it was made before: nothing cached, an adaptive palette, optimize."""
    # Imported here: ``--against`` runs the rest of this file in a tree without the stamps.
    from adjudicator.games.thermopyles import stamps

    render._base.cache_clear()
    render._card.cache_clear()
    render._wrapped.cache_clear()
    stamps.STAMPS.clear()
    image = render.draw(view, render.lines_for(view, facts)).image
    return picture.png(image.quantize(colors=OLD_COLOURS), OLD_OPTIONS)


def new_way(view: Mapping[str, Any], facts: Mapping[str, Any] | None) -> bytes:
    return GAME.render(view, facts)


def timed(action: Callable[[], bytes], repeat: int) -> tuple[float, bytes]:
    """Median milliseconds of one call over ``repeat`` calls (after a warm call), and its bytes."""
    result = action()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, result


def error(png: bytes, drawn: Image.Image) -> float:
    """How far the stored picture is from the drawing: mean difference per channel, of 255."""
    with Image.open(io.BytesIO(png)) as stored:
        return sum(ImageStat.Stat(ImageChops.difference(stored.convert("RGB"), drawn)).mean) / 3


def side_by_side(
    before: Callable[[], bytes], now: Callable[[], bytes], repeat: int
) -> tuple[list[float], list[float], bytes, bytes]:
    """Milliseconds of ``before`` and ``now`` over ``repeat`` rounds, one of each a round, so
    both meet the same noise; and the last bytes of each."""
    old_png, new_png = before(), now()
    old_ms: list[float] = []
    new_ms: list[float] = []
    for _ in range(repeat):
        for action, samples in ((before, old_ms), (now, new_ms)):
            start = time.perf_counter()
            action()
            samples.append((time.perf_counter() - start) * 1000)
    return old_ms, new_ms, old_png, new_png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--against", type=Path, help="a tree of the project as it was before")
    parser.add_argument("--language", default="en", help="the reader's language: en, es, ru")
    parser.add_argument("--tree-timings", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    with i18n.speaking(args.language):
        if args.tree_timings:
            print(json.dumps(tree_timings(args.repeat)))
        elif args.against:
            against(args.against, args.repeat, args.language)
        else:
            side_by_sides(args.repeat)


def side_by_sides(repeat: int) -> None:
    """The pictures drawn the old way and now, then where the time goes now."""
    own, public, facts = midgame()
    load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
    language = said.language()
    print(f"picture {render.WIDTH}x{render.HEIGHT} px in {language}, {repeat} rounds (load {load})")
    print(f"  {'':<34} {'before':>10} {'now':>10} {'before/now':>11}")
    medians, bests = [0.0, 0.0], [0.0, 0.0]
    pictures = (("player's picture", own, facts), ("public picture", public, None))
    for name, view, shown in pictures:
        old_ms, new_ms, old_png, new_png = side_by_side(
            lambda view=view, shown=shown: old_way(view, shown),
            lambda view=view, shown=shown: new_way(view, shown),
            repeat,
        )
        for kind, figure, total in (("median", statistics.median, medians), ("best", min, bests)):
            old, new = figure(old_ms), figure(new_ms)
            total[0] += old
            total[1] += new
            print(f"  {f'{name}, ms ({kind})':<34} {old:10.2f} {new:10.2f} {old / new:10.1f}x")
        print(
            f"  {name + ', bytes':<34} {len(old_png):>10,} {len(new_png):>10,}"
            f" {len(old_png) / len(new_png):10.2f}x"
        )
        drawn = render.draw(view, render.lines_for(view, shown)).image
        print(
            f"  {name + ', error (of 255)':<34} {error(old_png, drawn):10.3f}"
            f" {error(new_png, drawn):10.3f}"
        )
    for kind, total in (("median", medians), ("best", bests)):
        print(
            f"  {f'both pictures, ms ({kind})':<34} {total[0]:10.2f} {total[1]:10.2f}"
            f" {total[0] / total[1]:10.1f}x   (aim: now <= 10 ms)"
        )
    parts(own, facts, repeat)
    settings(own, facts, max(10, repeat // 4))
    twice, twice_png = timed(lambda: GAME.render(own, facts, 2), max(10, repeat // 10))
    print(f"2x picture for the web: {twice:.2f} ms, {len(twice_png):,} bytes")


def parts(view: Mapping[str, Any], facts: Mapping[str, Any], repeat: int) -> None:
    """Where the time of one picture goes now."""
    lines = render.lines_for(view, facts)
    image = render.draw(view, lines).image
    mapped = picture.on_palette(image, render.palette())
    drawing, _ = timed(lambda: render.draw(view, lines).image.tobytes()[:0], repeat)
    mapping, _ = timed(lambda: picture.on_palette(image, render.palette()).tobytes()[:0], repeat)
    encoding, _ = timed(lambda: picture.png(mapped, picture.QUICK), repeat)
    choosing, _ = timed(lambda: image.quantize(colors=OLD_COLOURS).tobytes()[:0], repeat)
    print(
        f"now, one picture: draw {drawing:.2f} ms, map to the fixed palette {mapping:.2f} ms,"
        f" encode {encoding:.2f} ms (choosing {OLD_COLOURS} shades instead: {choosing:.2f} ms)"
    )


def settings(view: Mapping[str, Any], facts: Mapping[str, Any], repeat: int) -> None:
    """The PNG options side by side on the same fixed-palette picture."""
    image = render.draw(view, render.lines_for(view, facts)).image
    mapped = picture.on_palette(image, render.palette())
    print(
        f"PNG options on the fixed palette ({len(picture.colours_of(render.palette()))} colours):"
    )
    for options in LEVELS:
        ms, png = timed(lambda options=options: picture.png(mapped, options), repeat)
        mark = "  <- now (picture.QUICK)" if dict(options) == dict(picture.QUICK) else ""
        print(f"  {dict(options)!s:<24} {ms:7.2f} ms {len(png):>8,} bytes{mark}")


def game_actions(seed: bytes) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """Each action of a strategy-played game: the player's view, the public view, the facts."""
    state = GAME.new_game({}, Chance(seed, "bench", 0))
    found = []
    while not state.over:
        orders = {"spartans": strategy.choose(state).to_json()}
        resolution = GAME.resolve(state, orders, Chance(seed, "bench", state.turn + 1))
        state = resolution.state
        found.append((GAME.view(state, "spartans"), GAME.view(state, None), resolution.facts))
    return found


def action_pictures(own: Mapping[str, Any], public: Mapping[str, Any], facts: Any) -> float:
    """Milliseconds to draw and encode an action's two pictures."""
    start = time.perf_counter()
    GAME.render(own, facts)
    GAME.render(public, None)
    return (time.perf_counter() - start) * 1000


def tree_timings(repeat: int) -> dict[str, list[float]]:
    """This process's tree timed (``--against`` runs it in each tree): the two pictures of one
    position again and again, then of each action of a new game after another warmed the caches."""
    own, public, facts = midgame()
    action_pictures(own, public, facts)
    same = [action_pictures(own, public, facts) for _ in range(repeat)]
    for warming in game_actions(b"warm"):
        action_pictures(*warming)
    fresh = [action_pictures(*action) for action in game_actions(b"fresh")]
    lines = render.lines_for(own, facts)
    draws = []
    for _ in range(repeat):
        start = time.perf_counter()
        render.draw(own, lines)
        draws.append((time.perf_counter() - start) * 1000)
    twice = []
    for _ in range(max(1, repeat // 4)):
        start = time.perf_counter()
        GAME.render(own, facts, 2)
        twice.append((time.perf_counter() - start) * 1000)
    return {"same": same, "fresh": fresh, "draw": draws, "twice": twice}


def against(before: Path, repeat: int, language: str, blocks: int = 4) -> None:
    """The trees timed block after block, each block in a new process of each tree in turn."""
    here = Path(__file__).resolve().parent.parent
    found: dict[str, dict[str, list[float]]] = {"before": {}, "now": {}}
    for _ in range(blocks):
        for name, tree in (("before", before.resolve()), ("now", here)):
            command = [
                sys.executable,
                __file__,
                "--tree-timings",
                "--repeat",
                str(repeat // blocks),
                "--language",
                language,
            ]
            env = {**os.environ, "PYTHONPATH": str(tree)}
            out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
            for kind, samples in json.loads(out.stdout).items():
                found[name].setdefault(kind, []).extend(samples)
    load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
    print(
        f"{before} against this tree in {language}, {blocks} blocks of each in turn (load {load})"
    )
    print(f"  {'':<56} {'before':>8} {'now':>8} {'before/now':>11}")
    rows = (
        ("same", "an action's two pictures, same position"),
        ("fresh", "an action's two pictures, new game"),
        ("draw", "the player's picture, drawing only"),
        ("twice", "the player's 2x picture for the web"),
    )
    for kind, name in rows:
        for label, figure in (("median", statistics.median), ("best", min)):
            old, new = figure(found["before"][kind]), figure(found["now"][kind])
            print(f"  {f'{name}, ms ({label})':<56} {old:8.2f} {new:8.2f} {old / new:10.1f}x")
    actions, rounds = len(found["now"]["fresh"]), len(found["now"]["same"])
    print(f"  ({actions} actions of a new game, {rounds} rounds)")


if __name__ == "__main__":
    main()
