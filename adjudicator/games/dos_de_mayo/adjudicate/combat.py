"""Step 8, Resolution: the resolution-window cards and aimed lasting bonuses in effect order, then
every area holding both sides fights, all at once. Losses count for the whole game."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.said import _, ngettext
from adjudicator.games.dos_de_mayo.adjudicate.start import effect_key
from adjudicator.games.dos_de_mayo.adjudicate.work import Work
from adjudicator.games.dos_de_mayo.cards import Card
from adjudicator.games.dos_de_mayo.orders import Play
from adjudicator.games.dos_de_mayo.sides import FRANCE, SPAIN, Side, other, title
from adjudicator.games.dos_de_mayo.state import CombatRecord, Pair, RemovedRecord


@dataclass
class _Effect:
    side: Side
    card: Card
    area: str
    order: str  # the order text for the outcome
    note: str = ""  # set when the effect is void before combat


@dataclass
class _Field:
    """What the cards registered for this Resolution."""

    bonus: dict[tuple[Side, str], int]
    shields: dict[tuple[Side, str], int]
    silenced: set[tuple[str, str]]  # (lasting card, area) that gives nothing this turn


def loss_count(strong: int, weak: int, units: int) -> int:
    """The weaker side loses floor(strong / weak) units, never more than it has; none if equal."""
    return min(strong // weak, units) if strong > weak else 0


def resolution(work: Work, plays: list[tuple[Side, Play]]) -> None:
    effects = _effects(work, plays)
    field = _Field({}, {}, set())
    for effect in effects:
        work.effect_order.append(effect.card.keyword)
        _register(work, effect, field)
    for effect in effects:
        if effect.card.effect.kind == "remove_enemy":
            _remove(work, effect, field)
    fought = _fight(work, field)
    for effect in effects:
        if effect.card.effect.kind != "remove_enemy":
            _report(work, effect, fought)


def _effects(work: Work, plays: list[tuple[Side, Play]]) -> list[_Effect]:
    """Resolution plays and aims of lasting cards in play, sorted into effect order."""
    found: list[tuple[tuple[int, int, int, int], _Effect]] = []
    for side, play in plays:
        card = work.data.card(play.card)
        if card.window == "resolution" and play.target is not None:
            key = effect_key(work, side, card, len(found))
            found.append((key, _Effect(side, card, play.target, play.text())))
    for side in (FRANCE, SPAIN):
        for aim in work.orders[side].aims:
            card = work.data.card(aim.card)
            if aim.card in work.in_play:
                key = effect_key(work, side, card, len(found))
                found.append((key, _Effect(side, card, aim.area, aim.text())))
    return [effect for _, effect in sorted(found, key=lambda entry: entry[0])]


def _register(work: Work, effect: _Effect, field: _Field) -> None:
    kind, amount = effect.card.effect.kind, effect.card.effect.amount
    area, side = effect.area, effect.side
    if kind == "strength":
        field.bonus[(side, area)] = field.bonus.get((side, area), 0) + amount
        if effect.card.effect.cancels:
            field.silenced.add((effect.card.effect.cancels, area))
    elif kind == "aimed_strength":
        if (effect.card.id, area) in field.silenced:
            effect.note = _(
                "%(card)s gives no bonus in %(area)s this turn", card=effect.card.name, area=area
            )
        elif work.at(side, area) == 0:
            effect.note = _("no %(side)s units in %(area)s", side=title(side), area=area)
        else:
            field.bonus[(side, area)] = field.bonus.get((side, area), 0) + amount
    elif kind == "loss_shield":
        field.shields[(side, area)] = field.shields.get((side, area), 0) + amount
    elif kind == "remove_enemy" and not (work.at(side, area) and work.at(other(side), area)):
        effect.note = _("%(area)s does not hold both sides", area=area)


def _shielded(field: _Field, side: Side, area: str, losses: int) -> int:
    """Losses left after the side's shield there (Malasaña) takes what it can."""
    shield = field.shields.get((side, area), 0)
    saved = min(shield, losses)
    field.shields[(side, area)] = shield - saved
    return losses - saved


def _remove(work: Work, effect: _Effect, field: _Field) -> None:
    """Shootings: enemy units removed before combat, as losses (a shield saves what it can)."""
    if effect.note:
        work.outcome(effect.side, effect.order, "no-effect", effect.note)
        return
    enemy, area = other(effect.side), effect.area
    wanted = min(effect.card.effect.amount, work.at(enemy, area))
    removed = _shielded(field, enemy, area, wanted)
    if removed:
        work.add(enemy, area, -removed)
        work.losses[enemy] += removed
        work.removed.append(RemovedRecord(area, enemy, removed, effect.card.en))
        detail = ngettext(
            "%(num)s %(side)s unit removed in %(area)s",
            "%(num)s %(side)s units removed in %(area)s",
            removed,
            side=title(enemy),
            area=area,
        )
        work.outcome(effect.side, effect.order, "played", detail)
    else:
        nobody = _("nobody removed in %(area)s", area=area)
        work.outcome(effect.side, effect.order, "no-effect", nobody)


def _fight(work: Work, field: _Field) -> set[str]:
    """Every area with both sides, at once; returns the areas that fought."""
    fought: set[str] = set()
    france_units, spain_units = work.units[FRANCE], work.units[SPAIN]
    for index, area in enumerate(work.board.areas):
        french, spanish = france_units[index], spain_units[index]
        if not french or not spanish:
            continue
        fought.add(area)
        strength = Pair(
            french + field.bonus.get((FRANCE, area), 0),
            spanish + field.bonus.get((SPAIN, area), 0),
        )
        lost_f = loss_count(strength.spain, strength.france, french)
        lost_s = loss_count(strength.france, strength.spain, spanish)
        lost_f = _shielded(field, FRANCE, area, lost_f)
        lost_s = _shielded(field, SPAIN, area, lost_s)
        france_units[index] -= lost_f
        spain_units[index] -= lost_s
        work.losses[FRANCE] += lost_f
        work.losses[SPAIN] += lost_s
        work.combats.append(CombatRecord(area, strength, Pair(lost_f, lost_s)))
    return fought


def _report(work: Work, effect: _Effect, fought: set[str]) -> None:
    card, area = effect.card, effect.area
    if effect.note:
        work.outcome(effect.side, effect.order, "no-effect", effect.note)
    elif area not in fought:
        work.outcome(effect.side, effect.order, "no-effect", _("no fight in %(area)s", area=area))
    elif card.effect.kind == "loss_shield":
        reduced = _("losses in %(area)s reduced", area=area)
        work.outcome(effect.side, effect.order, "played", reduced)
    else:
        amount = card.effect.amount
        stronger = _("+%(amount)s strength in %(area)s", amount=amount, area=area)
        work.outcome(effect.side, effect.order, "played", stronger)
