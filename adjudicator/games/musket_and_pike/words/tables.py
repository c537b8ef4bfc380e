"""The unit reference and our tables written out for players, straight from ruleset.toml.

The help page and the HELP mail print this text, so what players read is always what the
adjudicator uses: a group that types its own numbers into ruleset.toml sees them documented.
"""

from __future__ import annotations

import textwrap

from adjudicator.core.said import N_, _, ngettext, words_of
from adjudicator.games.musket_and_pike.rules.data import CombatRow, FireRow, Ruleset
from adjudicator.games.musket_and_pike.rules.state import KINDS
from adjudicator.games.musket_and_pike.words.describe import ORDER_WORDS

CONTACT_WORDS = {
    "always": N_("may move into contact"),
    "never": N_("never moves into contact"),
    "near": N_("moves into contact only from %(near)s hexes away or nearer"),
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
        _(
            "THE TABLES (our own numbers; one d%(die)s, low is good for command rolls)",
            die=rules.die,
        ),
        "",
        _("COMMAND ROLLS: d10 + the wing commander's rating (-2 best)"),
        _(
            "  pre-emption succeeds on <= %(most)s; the army commander may help (%(help)s) and"
            " is then finished for that activation",
            most=rules.preempt_max,
            help=_signed(rules.preempt_ac_help),
        ),
        _(
            "  continuation: a 2nd activation on <= %(low)s, a 3rd on <= %(high)s",
            low=low,
            high=high,
        ),
        _("  order change from the order held (rows) to the one wanted, succeeds on <=:"),
    ]
    orders = list(ORDER_WORDS)
    lines.append("  " + " " * 15 + "".join(f"{words_of(ORDER_WORDS, o):>15}" for o in orders))
    for current in orders:
        cells = [rules.order_change.get((current, wanted)) for wanted in orders]
        shown = "".join(f"{'-' if c is None else c:>15}" for c in cells)
        lines.append(f"  {words_of(ORDER_WORDS, current):<15}{shown}")
    faces = ", ".join(str(face) for face in sorted(rules.leader_loss))
    lines.append(
        _("  a leader with a unit in close combat is lost on a natural %(faces)s", faces=faces)
    )
    bands = ", ".join(f"<= {top}: {rating}" for top, rating in rules.leader_replacement)
    lines.append(_("  leader replacement, d10 -> rating: %(bands)s", bands=bands))
    return "\n".join(lines)


# What each kind's abbreviation in a unit id (R-HI-1) stands for.
KIND_NAMES = {
    "HI": N_("heavy infantry (pike and shot)"),
    "LI": N_("light infantry (shot)"),
    "CAV": N_("cavalry (horse)"),
    "ART": N_("artillery (guns)"),
}


def _units(rules: Ruleset) -> str:
    """The unit kinds with their abbreviations, moves and weapons: the reference to the ids."""
    lines = [
        *_(
            "UNITS: a unit's id names its side, kind and number (R-HI-1: Royalist heavy\n"
            "infantry 1); the map shows the id and its strength points (SP)"
        ).split("\n"),
        _("  kind  what it is                     move  road  rout  fires (range)"),
    ]
    for kind in KINDS:
        weapons = ", ".join(
            f"{weapon.name} ({len(weapon.range_mods)})"
            for weapon in rules.weapons.values()
            if kind in weapon.kinds
        )
        lines.append(
            f"  {kind:<6}{words_of(KIND_NAMES, kind):<30}"
            f"{rules.allowance[kind]:>5}"
            f"{'+' + str(rules.road_bonus.get(kind, 0)):>6}{rules.rout_hexes.get(kind, 0):>6}"
            f"  {weapons or '-'}"
        )
    lines.append(
        _(
            "  leaders (AC army commander, WC wing commander) move %(allowance)s, %(cost)s a hex"
            " whatever the ground; a rout of 0 hexes: the guns are abandoned",
            allowance=rules.leader_allowance,
            cost=rules.leader_cost,
        )
    )
    return "\n".join(lines)


def _movement(rules: Ruleset) -> str:
    allowances = ", ".join(f"{kind} {rules.allowance[kind]}" for kind in KINDS)
    lines = [
        _("MOVEMENT"),
        _(
            "  allowance: %(allowances)s, leaders %(leaders)s",
            allowances=allowances,
            leaders=rules.leader_allowance,
        ),
        _("  terrain: cost for %(kinds)s (- may not enter), cover, defence", kinds="/".join(KINDS)),
    ]
    for terrain in rules.terrain.values():
        costs = "/".join(str(terrain.cost.get(kind, "-")) for kind in KINDS)
        notes = []
        if terrain.blocks_sight:
            notes.append(_("blocks sight"))
        if terrain.disorders:
            notes.append(_("disorders %(kinds)s", kinds="/".join(sorted(terrain.disorders))))
        extra = f"; {', '.join(notes)}" if notes else ""
        said = _(
            "%(costs)s, cover %(cover)s, defence %(defence)s",
            costs=costs,
            cover=terrain.cover,
            defence=terrain.defence,
        )
        lines.append(f"    {terrain.name} ({terrain.letter}): {said}{extra}")
    bonus = ", ".join(f"{kind} +{rules.road_bonus.get(kind, 0)}" for kind in KINDS)
    lines.append(_("  a move wholly along a road gains: %(bonus)s", bonus=bonus))
    return "\n".join(lines)


def _orders(rules: Ruleset) -> str:
    lines = [_("ORDERS")]
    for order, limits in rules.orders.items():
        parts = []
        if limits.max_hexes:
            parts.append(
                ngettext(
                    "moves at most %(num)s hex", "moves at most %(num)s hexes", limits.max_hexes
                )
            )
        contact = CONTACT_WORDS[limits.into_contact]
        parts.append(_(contact, near=limits.near_distance) if "%(near)s" in contact else _(contact))
        if limits.must_close:
            parts.append(_("must end nearer an enemy (adjacent units may only turn)"))
        parts.append(_("may fight close combat") if limits.close_combat else _("no close combat"))
        if not limits.rally:
            parts.append(_("no rally or reform"))
        elif limits.rally_bonus:
            parts.append(
                _(
                    "rally and reform %(bonus)s to the number to roll",
                    bonus=_signed(limits.rally_bonus),
                )
            )
        lines.append(f"  {words_of(ORDER_WORDS, order)}: " + "; ".join(parts))
    return "\n".join(lines)


def _fire_row(row: FireRow) -> str:
    hits = ngettext("%(num)s hit", "%(num)s hits", row.hits)
    if row.check is None:
        return f"{row.min}+: {hits}"
    return f"{row.min}+: {hits}, " + _("morale check %(check)s", check=_signed(row.check))


def _fire(rules: Ruleset) -> str:
    lines = [_("FIRE: d10 + modifiers, read the highest row reached")]
    for weapon in rules.weapons.values():
        ranges = ", ".join(f"{n} {_signed(m)}" for n, m in enumerate(weapon.range_mods, start=1))
        who = "/".join(sorted(weapon.kinds))
        lines.append(f"  {weapon.name} ({who}); " + _("range %(ranges)s", ranges=ranges))
        lines.append("    " + "; ".join(_fire_row(row) for row in weapon.table))
    mods = rules.fire
    kinds = ", ".join(f"{kind} {_signed(value)}" for kind, value in mods.target_kind.items())
    strength = ", ".join(f"{sp}+ SP {_signed(mod)}" for sp, mod in mods.strength)
    lines.append(
        _(
            "  modifiers: firer disordered %(disordered)s, shaken %(shaken)s; target in flank"
            " %(flank)s; target %(kinds)s; firer strength %(strength)s; target cover subtracts",
            disordered=_signed(mods.firer_disordered),
            shaken=_signed(mods.firer_shaken),
            flank=_signed(mods.target_flank),
            kinds=kinds,
            strength=strength,
        )
    )
    return "\n".join(lines)


def _combat_row(row: CombatRow) -> str:
    def side(sp: int, disorder: bool, check: int | None, retreat: int) -> str:
        parts = [f"-{sp} SP"] if sp else []
        if disorder:
            parts.append(_("disordered"))
        if check is not None:
            parts.append(_("check %(check)s", check=_signed(check)))
        if retreat:
            parts.append(_("retreat %(hexes)s", hexes=retreat))
        return ", ".join(parts) or "-"

    low = _("any") if row.min <= -9 else f"{row.min}+"
    attacker = side(row.a_sp, row.a_disorder, row.a_check, row.a_retreat)
    defender = side(row.d_sp, row.d_disorder, row.d_check, row.d_retreat)
    said = _(
        "attacker: %(attacker)s  |  defender: %(defender)s", attacker=attacker, defender=defender
    )
    return f"    {low:>4}  {said}"


def _close_combat(rules: Ruleset) -> str:
    combat = rules.close_combat
    odds = ", ".join(f"{ratio:g}:1 {_signed(mod)}" for ratio, mod in combat.odds)
    against = ", ".join(f"1:{ratio:g} {_signed(mod)}" for ratio, mod in combat.odds_against)
    lines = [
        _("CLOSE COMBAT: d10 + modifiers, read the highest row reached"),
        _(
            "  attackers: %(kinds)s; each extra attacker %(extra)s; odds %(odds)s; against the"
            " odds %(against)s",
            kinds="/".join(sorted(combat.kinds)),
            extra=_signed(combat.extra_attacker),
            odds=odds,
            against=against,
        ),
        _(
            "  attacker disordered %(a_disordered)s, shaken %(a_shaken)s; defender disordered"
            " %(d_disordered)s, shaken %(d_shaken)s; flank %(flank)s, rear %(rear)s; defence of"
            " terrain subtracts",
            a_disordered=_signed(combat.attacker_disordered),
            a_shaken=_signed(combat.attacker_shaken),
            d_disordered=_signed(combat.defender_disordered),
            d_shaken=_signed(combat.defender_shaken),
            flank=_signed(combat.flank),
            rear=_signed(combat.rear),
        ),
    ]
    if combat.kind_vs:
        pairs = ", ".join(
            f"{a} v {d} {_signed(mod)}" for (a, d), mod in sorted(combat.kind_vs.items())
        )
        lines.append(_("  arms: %(pairs)s", pairs=pairs))
    lines.extend(_combat_row(row) for row in combat.table)
    return "\n".join(lines)


def _morale(rules: Ruleset) -> str:
    morale = rules.morale
    routs = ", ".join(f"{kind} {rules.rout_hexes.get(kind, 0)}" for kind in KINDS)
    return "\n".join(
        [
            _("MORALE AND ROUT"),
            _(
                "  a morale check passes on d10 <= morale + modifiers: shaken %(shaken)s,"
                " disordered %(disordered)s, broken %(broken)s; a failure worsens morale one"
                " step (good, shaken, routed), two when it fails by %(margin)s or more",
                shaken=_signed(morale.shaken),
                disordered=_signed(morale.disordered),
                broken=_signed(morale.broken),
                margin=morale.rout_margin,
            ),
            _(
                "  rally passes on d10 <= morale %(rally)s, reform on d10 <= %(reform)s; the"
                " order's bonus and a leader with the unit add",
                rally=_signed(rules.rally_mod),
                reform=rules.reform_target,
            ),
            _(
                "  a rout move runs %(routs)s hexes (artillery 0: the guns are abandoned); a unit"
                " that cannot retreat loses %(sp)s SP",
                routs=routs,
                sp=rules.rout_blocked_sp,
            ),
        ]
    )
