"""Hex geometry: flat-topped hexes in "odd-q" offset columns, neighbours, distance, facing, sight.

A hex is ``(column, row)``; column 0 is the west edge, row 0 the north edge. Hexes are flat-topped
and stand in vertical columns; every odd column sits half a hex lower than its even neighbours
("odd-q"). A hex has six sides, numbered clockwise from north; a facing (0..5) names the side the
unit's front looks across:

    0 north, 1 north-east, 2 south-east, 3 south, 4 south-west, 5 north-west

The arithmetic goes through cube coordinates, where neighbours and distance are simple.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

Hex = tuple[int, int]
Cube = tuple[int, int, int]

DIRECTIONS = 6
DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
# Cube steps for the six sides, in facing order (x east, z south-ish, x + y + z == 0).
_CUBE_STEPS: tuple[Cube, ...] = (
    (0, 1, -1),
    (1, 0, -1),
    (1, -1, 0),
    (0, -1, 1),
    (-1, 0, 1),
    (-1, 1, 0),
)
SQRT3 = math.sqrt(3.0)


def to_cube(where: Hex) -> Cube:
    column, row = where
    x = column
    z = row - (column - (column & 1)) // 2
    return (x, -x - z, z)


def from_cube(cube: Cube) -> Hex:
    x, _, z = cube
    return (x, z + (x - (x & 1)) // 2)


def step(where: Hex, direction: int) -> Hex:
    """The hex across side ``direction`` (may lie off any map)."""
    x, y, z = to_cube(where)
    dx, dy, dz = _CUBE_STEPS[direction % DIRECTIONS]
    return from_cube((x + dx, y + dy, z + dz))


# Legal-move searches ask for the same few hundred hexes' neighbours hundreds of thousands of
# times a game; the answer never changes, so it is worked out once.
@functools.cache
def neighbours(where: Hex) -> tuple[Hex, ...]:
    """The six hexes around ``where``, in facing order 0..5 (off-map ones included)."""
    return tuple(step(where, direction) for direction in range(DIRECTIONS))


def distance(a: Hex, b: Hex) -> int:
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def direction_to(a: Hex, b: Hex) -> int | None:
    """The side of ``a`` that ``b`` lies across, when they are adjacent; else None."""
    around = neighbours(a)
    return around.index(b) if b in around else None


def centre(where: Hex) -> tuple[float, float]:
    """The hex centre in units of the hex's outer radius; y grows southwards."""
    column, row = where
    return (1.5 * column, SQRT3 * (row + 0.5 * (column & 1)))


def bearing(a: Hex, b: Hex) -> float:
    """Compass bearing in degrees (0 north, clockwise) from the centre of ``a`` to ``b``."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    return math.degrees(math.atan2(bx - ax, -(by - ay))) % 360.0


def _off(angle: float, facing: int) -> float:
    """How far (0..180 degrees) ``angle`` lies from the middle of side ``facing``."""
    gap = abs(angle - 60.0 * (facing % DIRECTIONS)) % 360.0
    return min(gap, 360.0 - gap)


def aspect(where: Hex, facing: int, other: Hex) -> str:
    """Where ``other`` stands relative to a unit at ``where`` facing ``facing``.

    "front" within 90 degrees of the facing, "rear" beyond 150, "flank" between. On neighbours this
    gives the usual three front hexsides, one flank hexside each side and one rear hexside; farther
    off it extends the same arcs, so fire arcs and flank attacks share one definition.
    """
    if other == where:
        return "front"
    off = _off(bearing(where, other), facing)
    # A hair of slack keeps exact 90/150 degree lines (hexes straight along an arc) deterministic.
    if off <= 90.0 + 1e-9:
        return "front"
    if off < 150.0 - 1e-9:
        return "flank"
    return "rear"


def front_hexes(where: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three neighbours across the front hexsides (facing - 1, facing, facing + 1)."""
    return (step(where, facing - 1), step(where, facing), step(where, facing + 1))


def flank_hexes(where: Hex, facing: int) -> tuple[Hex, Hex]:
    return (step(where, facing - 2), step(where, facing + 2))


def rear_hex(where: Hex, facing: int) -> Hex:
    return step(where, facing + 3)


def facing_towards(a: Hex, b: Hex) -> int:
    """The facing whose side best points from ``a`` at ``b`` (ties to the lower number)."""
    angle = bearing(a, b)
    return min(range(DIRECTIONS), key=lambda facing: (_off(angle, facing), facing))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from centre to centre crosses, ``a`` and ``b`` included.

    Cube interpolation with a tiny nudge, so a line running exactly along a hexside picks one side
    consistently instead of flickering between the two.
    """
    count = distance(a, b)
    if count == 0:
        return [a]
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    nudge = (1e-6, 2e-6, -3e-6)
    out: list[Hex] = []
    for index in range(count + 1):
        t = index / count
        out.append(
            from_cube(
                _round_cube(
                    ax + (bx - ax) * t + nudge[0],
                    ay + (by - ay) * t + nudge[1],
                    az + (bz - az) * t + nudge[2],
                )
            )
        )
    return out


def _round_cube(x: float, y: float, z: float) -> Cube:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (int(rx), int(ry), int(rz))


def line_of_sight(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
    """True when no hex strictly between ``a`` and ``b`` blocks (the ends never block)."""
    return not any(blocks(where) for where in line(a, b)[1:-1])


def on_map(where: Hex, width: int, height: int) -> bool:
    column, row = where
    return 0 <= column < width and 0 <= row < height
