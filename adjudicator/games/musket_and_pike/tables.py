"""The unit reference and our tables written out for players, straight from ruleset.toml.

The help page and the HELP mail print this text, so what players read is always what the
adjudicator uses: a group that types its own numbers into ruleset.toml sees them documented.
"""

from __future__ import annotations

import textwrap

from adjudicator.core.words import counted
from adjudicator.games.musket_and_pike.data import CombatRow, FireRow, Ruleset
from adjudicator.games.musket_and_pike.state import KINDS

ORDER_NAMES = {
    "charge": "Charge",
    "make_ready": "Make Ready",
    "receive_charge": "Receive Charge",
    "rally": "Rally",
}
CONTACT_WORDS = {
    "always": "may move into contact",
    "never": "never moves into contact",
    "near": "moves into contact only from {near} hexes away or nearer",
}


def tables_text(rules: Ruleset) -> str:
    """Every number of our rules, as plain-text tables wrapped for a mail (78 columns)."""
    sections = [
        _units(rules),
        _command(rules),
        _movement(rules),
        _orders(rules),
        _fire(rules),
        _close_combat(rules),
        _morale(rules),
    ]
    return "\n\n".join(_wrapped(section) for section in sections)


def _wrapped(section: str) -> str:
    lines = []
    for line in section.split("\n"):
        if len(line) <= 78:
            lines.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()))
        lines.extend(textwrap.wrap(line, 78, subsequent_indent=indent + "  "))
    return "\n".join(lines)


def _signed(value: int) -> str:
    return f"{value:+d}"


def _command(rules: Ruleset) -> str:
    low, high = rules.continuation_max
    lines = [
        f"THE TABLES (our own numbers; one d{rules.die}, low is good for command rolls)",
        "",
        "COMMAND ROLLS: d10 + the wing commander's rating (-2 best)",
        f"  pre-emption succeeds on <= {rules.preempt_max}; the army commander may help "
        f"({_signed(rules.preempt_ac_help)}) and is then finished for that activation",
        f"  continuation: a 2nd activation on <= {low}, a 3rd on <= {high}",
        "  order change from the order held (rows) to the one wanted, succeeds on <=:",
    ]
    orders = list(ORDER_NAMES)
    lines.append("  " + " " * 15 + "".join(f"{ORDER_NAMES[o]:>15}" for o in orders))
    for current in orders:
        cells = [rules.order_change.get((current, wanted)) for wanted in orders]
        shown = "".join(f"{'-' if c is None else c:>15}" for c in cells)
        lines.append(f"  {ORDER_NAMES[current]:<15}{shown}")
    faces = ", ".join(str(face) for face in sorted(rules.leader_loss))
    lines.append(f"  a leader with a unit in close combat is lost on a natural {faces}")
    bands = ", ".join(f"<= {top}: {rating}" for top, rating in rules.leader_replacement)
    lines.append(f"  leader replacement, d10 -> rating: {bands}")
    return "\n".join(lines)


# What each kind's abbreviation in a unit id (R-HI-1) stands for.
KIND_NAMES = {
    "HI": "heavy infantry (pike and shot)",
    "LI": "light infantry (shot)",
    "CAV": "cavalry (horse)",
    "ART": "artillery (guns)",
}


def _units(rules: Ruleset) -> str:
    """The unit kinds with their abbreviations, moves and weapons: the reference to the ids."""
    lines = [
        "UNITS: a unit's id names its side, kind and number (R-HI-1: Royalist heavy",
        "infantry 1); the map shows the id and its strength points (SP)",
        f"  {'kind':<6}{'what it is':<30}{'move':>5}{'road':>6}{'rout':>6}  fires (range)",
    ]
    for kind in KINDS:
        weapons = ", ".join(
            f"{weapon.name} ({len(weapon.range_mods)})"
            for weapon in rules.weapons.values()
            if kind in weapon.kinds
        )
        lines.append(
            f"  {kind:<6}{KIND_NAMES.get(kind, kind):<30}{rules.allowance[kind]:>5}"
            f"{'+' + str(rules.road_bonus.get(kind, 0)):>6}{rules.rout_hexes.get(kind, 0):>6}"
            f"  {weapons or '-'}"
        )
    lines.append(
        f"  leaders (AC army commander, WC wing commander) move {rules.leader_allowance}, "
        f"{rules.leader_cost} a hex whatever the ground; a rout of 0 hexes: the guns are "
        "abandoned"
    )
    return "\n".join(lines)


def _movement(rules: Ruleset) -> str:
    allowances = ", ".join(f"{kind} {rules.allowance[kind]}" for kind in KINDS)
    lines = [
        "MOVEMENT",
        f"  allowance: {allowances}, leaders {rules.leader_allowance}",
        "  terrain: cost for " + "/".join(KINDS) + " (- may not enter), cover, defence",
    ]
    for terrain in rules.terrain.values():
        costs = "/".join(str(terrain.cost.get(kind, "-")) for kind in KINDS)
        notes = []
        if terrain.blocks_sight:
            notes.append("blocks sight")
        if terrain.disorders:
            notes.append("disorders " + "/".join(sorted(terrain.disorders)))
        extra = f"; {', '.join(notes)}" if notes else ""
        lines.append(
            f"    {terrain.name} ({terrain.letter}): {costs}, cover {terrain.cover}, "
            f"defence {terrain.defence}{extra}"
        )
    bonus = ", ".join(f"{kind} +{rules.road_bonus.get(kind, 0)}" for kind in KINDS)
    lines.append(f"  a move wholly along a road gains: {bonus}")
    return "\n".join(lines)


def _orders(rules: Ruleset) -> str:
    lines = ["ORDERS"]
    for order, limits in rules.orders.items():
        parts = []
        if limits.max_hexes:
            parts.append(f"moves at most {counted(limits.max_hexes, 'hex', 'hexes')}")
        parts.append(CONTACT_WORDS[limits.into_contact].format(near=limits.near_distance))
        if limits.must_close:
            parts.append("must end nearer an enemy (adjacent units may only turn)")
        parts.append("may fight close combat" if limits.close_combat else "no close combat")
        if not limits.rally:
            parts.append("no rally or reform")
        elif limits.rally_bonus:
            parts.append(f"rally and reform {_signed(limits.rally_bonus)} to the number to roll")
        lines.append(f"  {ORDER_NAMES.get(order, order)}: " + "; ".join(parts))
    return "\n".join(lines)


def _fire_row(row: FireRow) -> str:
    check = "" if row.check is None else f", morale check {_signed(row.check)}"
    return f"{row.min}+: {counted(row.hits, 'hit')}{check}"


def _fire(rules: Ruleset) -> str:
    lines = ["FIRE: d10 + modifiers, read the highest row reached"]
    for weapon in rules.weapons.values():
        ranges = ", ".join(f"{n} {_signed(m)}" for n, m in enumerate(weapon.range_mods, start=1))
        who = "/".join(sorted(weapon.kinds))
        lines.append(f"  {weapon.name} ({who}); range {ranges}")
        lines.append("    " + "; ".join(_fire_row(row) for row in weapon.table))
    mods = rules.fire
    kinds = ", ".join(f"{kind} {_signed(value)}" for kind, value in mods.target_kind.items())
    strength = ", ".join(f"{sp}+ SP {_signed(mod)}" for sp, mod in mods.strength)
    lines.append(
        f"  modifiers: firer disordered {_signed(mods.firer_disordered)}, shaken "
        f"{_signed(mods.firer_shaken)}; target in flank {_signed(mods.target_flank)}; "
        f"target {kinds}; firer strength {strength}; target cover subtracts"
    )
    return "\n".join(lines)


def _combat_row(row: CombatRow) -> str:
    def side(sp: int, disorder: bool, check: int | None, retreat: int) -> str:
        parts = [f"-{sp} SP"] if sp else []
        if disorder:
            parts.append("disordered")
        if check is not None:
            parts.append(f"check {_signed(check)}")
        if retreat:
            parts.append(f"retreat {retreat}")
        return ", ".join(parts) or "-"

    low = "any" if row.min <= -9 else f"{row.min}+"
    attacker = side(row.a_sp, row.a_disorder, row.a_check, row.a_retreat)
    defender = side(row.d_sp, row.d_disorder, row.d_check, row.d_retreat)
    return f"    {low:>4}  attacker: {attacker}  |  defender: {defender}"


def _close_combat(rules: Ruleset) -> str:
    combat = rules.close_combat
    odds = ", ".join(f"{ratio:g}:1 {_signed(mod)}" for ratio, mod in combat.odds)
    against = ", ".join(f"1:{ratio:g} {_signed(mod)}" for ratio, mod in combat.odds_against)
    lines = [
        "CLOSE COMBAT: d10 + modifiers, read the highest row reached",
        f"  attackers: {'/'.join(sorted(combat.kinds))}; each extra attacker "
        f"{_signed(combat.extra_attacker)}; odds {odds}; against the odds {against}",
        f"  attacker disordered {_signed(combat.attacker_disordered)}, shaken "
        f"{_signed(combat.attacker_shaken)}; defender disordered "
        f"{_signed(combat.defender_disordered)}, shaken {_signed(combat.defender_shaken)}; "
        f"flank {_signed(combat.flank)}, rear {_signed(combat.rear)}; defence of terrain "
        "subtracts",
    ]
    if combat.kind_vs:
        pairs = ", ".join(
            f"{a} v {d} {_signed(mod)}" for (a, d), mod in sorted(combat.kind_vs.items())
        )
        lines.append(f"  arms: {pairs}")
    lines.extend(_combat_row(row) for row in combat.table)
    return "\n".join(lines)


def _morale(rules: Ruleset) -> str:
    morale = rules.morale
    routs = ", ".join(f"{kind} {rules.rout_hexes.get(kind, 0)}" for kind in KINDS)
    return "\n".join(
        [
            "MORALE AND ROUT",
            "  a morale check passes on d10 <= morale + modifiers: shaken "
            f"{_signed(morale.shaken)}, disordered {_signed(morale.disordered)}, broken "
            f"{_signed(morale.broken)}; a failure worsens morale one step (good, shaken, "
            f"routed), two when it fails by {morale.rout_margin} or more",
            f"  rally passes on d10 <= morale {_signed(rules.rally_mod)}, reform on d10 <= "
            f"{rules.reform_target}; the order's bonus and a leader with the unit add",
            f"  a rout move runs {routs} hexes (artillery 0: the guns are abandoned); a unit "
            f"that cannot retreat loses {rules.rout_blocked_sp} SP",
        ]
    )
