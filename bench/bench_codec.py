"""Load and dump times of each game's stored position, side by side: the hand-written codecs the
games had before the shared codec (read from git at BASELINE), the shared codec in
``adjudicator/core/codec.py`` (what the games use now), and msgspec (when installed) converting the
same dataclasses with the renames and re-orderings the stored form needs.

The position of each game is the largest one in tests/core/data/stored_positions.json (a
mid-game or late position from a random play-out). Every variant runs the game's rule checks
after the shape check, as ``load`` does, and every variant's output is checked to be the stored
JSON itself before it is timed. Figures are microseconds per call, best of ``--repeat`` runs,
and each variant's ratio to the hand-written codec (below 1.00: faster); "calib." is the shared
codec's time as a multiple of the fixed calibration workload timed in the same run
(``bench/calibration.py``), which compares across runs and machines.

    .venv/bin/python bench/bench_codec.py [--number 200] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import timeit
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from calibration import Yardstick

from adjudicator.games.dos_de_mayo import codec as dos_codec
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.musket_and_pike.rules import state as mp_state
from adjudicator.games.thermopyles import state as th_state

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "90e2e89"  # the last commit before the games shared one codec
STORED = json.loads((ROOT / "tests/core/data/stored_positions.json").read_text())
FILES = {
    "2demayo": "adjudicator/games/dos_de_mayo/codec.py",
    "musketpike": "adjudicator/games/musket_and_pike/rules/state.py",
    "thermopyles": "adjudicator/games/thermopyles/state.py",
}
Codecs = tuple[Callable[[Any], Any], Callable[[Any], Any]]  # (load, dump)


def baseline(key: str) -> Codecs | None:
    """The game's codec as it was at BASELINE, run as a module of its own."""
    try:
        source = subprocess.run(
            ["git", "show", f"{BASELINE}:{FILES[key]}"],
            cwd=ROOT,
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType(f"baseline_{key}")
    sys.modules[module.__name__] = module  # dataclasses look their module up by name
    exec(compile(source, FILES[key], "exec"), module.__dict__)
    return module.load, module.dump


def kit(key: str) -> Codecs:
    module = {"2demayo": dos_codec, "musketpike": mp_state, "thermopyles": th_state}[key]
    return module.load, module.dump


def msgspec_codecs(key: str) -> Codecs | None:
    try:
        import msgspec
    except ImportError:
        return None
    return {"2demayo": _msgspec_dos, "musketpike": _msgspec_mp, "thermopyles": _msgspec_th}[key](
        msgspec
    )


def _msgspec_mp(msgspec: Any) -> Codecs:
    order = mp_state.CODEC.forms[mp_state.Position].order

    def load(data: Any) -> Any:
        return msgspec.convert(data, mp_state.Position)

    def dump(position: Any) -> Any:
        plain = msgspec.to_builtins(position)
        return {"schema": mp_state.SCHEMA, **{key: plain[key] for key in order}}

    return load, dump


def _msgspec_th(msgspec: Any) -> Codecs:
    def load(data: Any) -> Any:
        options = data["options"]
        settings = {"win_when": options["win_when"], "hand_limit": int(options["hand_limit"])}
        position = msgspec.convert({**data, "settings": settings}, th_state.Position)
        th_state._check_cards(position)
        return position

    def dump(position: Any) -> Any:
        plain = msgspec.to_builtins(position)
        settings = plain.pop("settings")
        options = {"win_when": settings["win_when"], "hand_limit": str(settings["hand_limit"])}
        return {"schema": th_state.SCHEMA, "options": options, **plain}

    return load, dump


def _msgspec_dos(msgspec: Any) -> Codecs:
    the_board = board()

    def load(data: Any) -> Any:
        areas = data["areas"]
        units = {
            side: [areas[area][side] for area in the_board.areas] for side in ("france", "spain")
        }
        stacks = [data["off_map"].get(stack, 0) for stack in the_board.stacks]
        last = data["last"]
        if last is not None:
            last = {
                **last,
                "plays": [
                    {"card": p["id"], "side": p["side"], "args": p["args"]} for p in last["plays"]
                ],
                "orders": [{**o, "seat": o["side"]} for o in last["orders"]],
            }
        plain = {
            **data,
            "settings": data["options"],
            "units": units,
            "stacks": stacks,
            "last": last,
        }
        position = msgspec.convert(plain, dos_codec.Position)
        problems: list[str] = []
        dos_codec._check(position, data, problems)
        return position

    def dump(position: Any) -> Any:
        plain = msgspec.to_builtins(position)
        units = plain.pop("units")
        stacks = plain.pop("stacks")
        last = plain["last"]
        if last is not None:
            last["moves"] = [
                {"side": m["side"], "from": m["path"][0], "to": m["path"][-1], "units": m["units"],
                 "path": m["path"], "result": m["result"], "why": m["why"]}
                for m in last["moves"]
            ]  # fmt: skip
            last["plays"] = [
                {"id": p["card"], "side": p["side"], "args": p["args"]} for p in last["plays"]
            ]
            last["orders"] = [
                {"side": o["seat"], "order": o["order"], "code": o["code"], "detail": o["detail"]}
                for o in last["orders"]
            ]
        out = {"schema": dos_codec.SCHEMA, "options": plain.pop("settings")}
        out.update(
            {key: plain[key] for key in ("turn", "last_turn", "status", "winner", "end_reason")}
        )
        out["areas"] = {
            area: {"france": units["france"][i], "spain": units["spain"][i]}
            for i, area in enumerate(the_board.areas)
        }
        out["off_map"] = dict(zip(the_board.stacks, stacks, strict=True))
        out.update(plain)  # the keys already written keep their place
        return out

    return load, dump


def largest(key: str) -> Any:
    return max(STORED[key], key=lambda data: len(json.dumps(data)))


def timed(call: Callable[[], Any], number: int, repeat: int) -> float:
    """Microseconds per call, the best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(call, number=number, repeat=repeat)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    yard = Yardstick()
    print(
        f"{'game':<12} {'call':<5} {'hand-written':>13} {'shared codec':>19} {'msgspec':>19}"
        f" {'calib.':>8}"
    )
    for key in FILES:
        data = largest(key)
        variants = {"hand-written": baseline(key), "shared codec": kit(key)}
        variants["msgspec"] = msgspec_codecs(key)
        figures: dict[str, dict[str, float | None]] = {"load": {}, "dump": {}}
        for name, codecs in variants.items():
            if codecs is None:
                figures["load"][name] = figures["dump"][name] = None
                continue
            load, dump = codecs
            position = load(data)
            if json.dumps(dump(position)) != json.dumps(data):
                raise SystemExit(f"{key}: {name} does not write the stored JSON back")
            figures["load"][name] = timed(
                lambda load=load, data=data: load(data), args.number, args.repeat
            )
            figures["dump"][name] = timed(
                lambda dump=dump, position=position: dump(position), args.number, args.repeat
            )
        for call, by_name in figures.items():
            base = by_name["hand-written"]
            cells = []
            for name in variants:
                value = by_name[name]
                if value is None:
                    cells.append("n/a")
                elif base is None or name == "hand-written":
                    cells.append(f"{value:,.0f} µs")
                else:
                    cells.append(f"{value:,.0f} µs ×{value / base:.2f}")
            shared = by_name["shared codec"]
            calib = f"{yard.ratio(shared / 1e6):.3g}" if shared is not None else "n/a"
            print(f"{key:<12} {call:<5} {cells[0]:>13} {cells[1]:>19} {cells[2]:>19} {calib:>8}")
    yard.again()
    print(yard.describe())


if __name__ == "__main__":
    main()
