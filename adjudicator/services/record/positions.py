"""The position every game mail shows: a turn's state loaded once per session, the seat's view
of it in words, and its picture, the seat's own or the public one all players share (the
stored one for English readers, drawn once per language for the others)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Hashable, Mapping
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.contract import Decision
from adjudicator.core.contract import Game as Rules
from adjudicator.core.recent import Recent
from adjudicator.core.words import agreeing, listed
from adjudicator.mail.building import Picture
from adjudicator.models import Game, Seat, Turn
from adjudicator.services.record import subjects
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus

# What each seat owes at a position, kept by what the position is (its game and stored state,
# never a row's id, which another database or a rollback gives another position) for the next
# mail about the same turn: every receipt, status and report of a turn asks, the rules' answer
# for a state never changes, and its prompts are worded when shown, in each reader's language.
_OWED: Recent[tuple[str, bytes], dict[str, Decision]] = Recent(256)


class Snapshot:
    """A turn's stored state as its rules load it, and what every seat owes after it (worked
    out when first asked): the same for every seat's mail of the turn, so made once per
    session (``snapshot``)."""

    def __init__(self, rules: Rules[Any], turn: Turn) -> None:
        self.rules, self.turn = rules, turn
        self.state = rules.load(turn.state)

    @functools.cached_property
    def owed(self) -> dict[str, Decision]:
        key = (self.rules.key, view_digest(self.turn.state))
        return dict(_OWED.get(key, lambda: dict(self.rules.pending(self.state))))

    @functools.cached_property
    def finished(self) -> bool:
        """Whether the rules ended the game at this position (else a game over at it was ended
        from outside them: a resignation, the game master's END, a game closed)."""
        return self.rules.outcome(self.state).finished

    @functools.cached_property
    def public_view(self) -> Any:
        """The view every player is shown (the stored picture's)."""
        return self.rules.view(self.state, None)

    @functools.cached_property
    def public_digest(self) -> bytes:
        """What the public picture shows, as the key of its drawings in other languages."""
        return view_digest(self.public_view)


def view_digest(view: Any) -> bytes:
    """A view's digest, the key a picture drawn from it is kept by: what it shows, never the
    turn's row, which another database or a rollback gives another position. A stored state's
    digest likewise keys what the rules make of it (``Snapshot.owed``)."""
    shown = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(shown.encode()).digest()


def snapshot(session: Session, rules: Rules[Any], turn: Turn) -> Snapshot:
    """The turn's ``Snapshot``, made once per session: a turn report goes to every seat, and
    each would load and examine the same state again, as would the reading of a mail's orders
    and its receipt. Kept by row id for the very Turn object it was loaded from, so a row the
    session no longer holds is never mistaken for it."""
    memo: dict[int, Snapshot] = session.info.setdefault("pbem.snapshots", {})
    found = memo.get(turn.id)
    if found is None or found.turn is not turn:
        found = memo[turn.id] = Snapshot(rules, turn)
    return found


def position(
    runtime: Runtime,
    rules: Rules[Any],
    game: Game,
    seat: Seat,
    shot: Snapshot,
    facts: Any = None,
    *,
    drawn: bool = True,
) -> tuple[dict[str, Any], Picture | None]:
    """The seat's view of a turn in words and, when ``drawn``, as a picture, plus what it may do
    next; ``facts``: the moves a turn report's picture shows. Its words are in the current
    reader's language (``i18n.speaking``), the decision's prompt written anew in it (a
    snapshot's decisions are worked out once for every reader)."""
    turn = shot.turn
    view = rules.view(shot.state, seat.seat)
    # A game that is over owes nothing and offers no move, whatever the position would offer;
    # one ended from outside its rules is worded as ended (Game.ended_view).
    over = game.status in (GameStatus.FINISHED, GameStatus.CLOSED)
    ended = over and not shot.finished
    if ended:
        view = rules.ended_view(view)
    owed = {} if over else shot.owed
    decision = owed.get(seat.seat)
    shared = rules.shared_picture
    # The picture's alt text and Content-Description name it in one sentence: the mail gives
    # the whole position in words beside it, and a screen reader would read it twice.
    alt = map_alt(rules, turn.number, None if shared else seat.seat, owed)
    whose = (shot, None if shared else seat.seat)
    picture = _picture(runtime, game, whose, (view, facts, ended), alt) if drawn else None
    context = {
        "turn": turn.number,
        "description": rules.describe(view),
        "prompt": said.anew(decision.prompt) if decision else "",
        "legal": list(decision.legal) if decision else [],
        "waiting_for": [rules.seat_title(owing) for owing in sorted(owed)],
        "owes": subjects.owes(owed, rules.seat_title),
        # No picture: the templates name the mail that has this map instead (email/_position.*).
        "picture_cid": picture.content_id if picture else None,
        "picture_alt": alt,
        # The picture is every player's: the templates say the seat's own cards are in words.
        "picture_shared": shared,
    }
    return context, picture


def public_position(runtime: Runtime, game: Game, shot: Snapshot) -> tuple[dict[str, Any], Picture]:
    """The position every player is shown, in words and as the public picture, for the game
    master's mail at the game's end; in the current reader's language."""
    rules, number = shot.rules, shot.turn.number
    view = shot.public_view
    if game.status in (GameStatus.FINISHED, GameStatus.CLOSED) and not shot.finished:
        view = rules.ended_view(view)
    alt = map_alt(rules, number, None, {})
    picture = _picture(runtime, game, (shot, None), (shot.public_view, None, False), alt)
    words = {"turn": number, "description": rules.describe(view)}
    return {**words, "picture_cid": picture.content_id, "picture_alt": alt}, picture


def _picture(
    runtime: Runtime,
    game: Game,
    whose: tuple[Snapshot, str | None],
    drawing: tuple[Any, Any, bool],
    alt: str,
) -> Picture:
    """The turn's picture for one seat, or the public one every seat shares (seat None), in
    the current reader's language. The public one in English is the archive's, drawn once when
    the turn was stored, never again (Turn.public_png, perhaps a deferred column: read here
    only, so a mail without the map never loads it); in another language it is drawn once for
    every reader of that language (``_public``), under a content id of its own.
    ``drawing``: the seat's view and the facts its own picture is drawn from, and whether that
    view is the one of a game ended from outside its rules (a drawing of its own)."""
    shot, seat = whose
    turn, rules = shot.turn, shot.rules
    view, facts, ended = drawing
    domain, lang = runtime.config.mail_domain, said.language()
    if seat is None and lang == i18n.SOURCE:
        content_id, png = f"game{game.id}.turn{turn.number}@{domain}", turn.public_png
    elif seat is None:
        content_id = f"game{game.id}.turn{turn.number}.{lang}@{domain}"
        png = _public(shot, lang)
    else:
        content_id = f"game{game.id}.turn{turn.number}.{seat}@{domain}"
        png = _render(rules, view, facts, (turn.id, seat, ended))
    return Picture(content_id, png, alt, f"game{game.id}-turn{turn.number}.png")


def map_alt(rules: Rules[Any], turn: int, seat: str | None, owed: Mapping[str, Decision]) -> str:
    """The map's alternative text in one sentence, what it shows and whose turn it is: the
    position in words follows the picture once, in the mail itself. ``seat`` None: the map
    every player is shown. In the current reader's language."""
    lang = said.language()
    _ = i18n.translator(lang)
    words = {"title": rules.title, "noun": _(rules.turn_noun), "turn": turn}
    shown = (
        _(
            "Map of %(title)s after %(noun)s %(turn)s, as %(seat)s sees it",
            **words,
            seat=rules.seat_title(seat),
        )
        if seat
        else _("Map of %(title)s after %(noun)s %(turn)s, as every player sees it", **words)
    )
    if not owed:
        return _("%(shown)s; the game is over.", shown=shown)
    brief = said.anew(next((d.brief for d in owed.values() if d.brief), "")) or _("send orders")
    titles = [rules.seat_title(s) for s in sorted(owed)]
    # One side's title may be plural ("Royalists"): its verb agrees with the title alone.
    many = len(owed) > 1 or agreeing(listed(titles), "is", "are").endswith(" are")
    return i18n.ngettext(
        "%(shown)s; next, %(names)s is to %(brief)s.",
        "%(shown)s; next, %(names)s are to %(brief)s.",
        2 if many else 1,
        lang,
        shown=shown,
        names=i18n.listed(titles, lang),
        brief=brief,
    )


# A seat's own picture of a turn (a game whose seats see different pictures) is drawn once per
# process and language: the invitation, the welcome and the notices showing that position would
# otherwise redraw it. A shared picture is drawn here only in a language other than English,
# once for all the readers of that language; in English it is the one stored on the Turn.
_PICTURES: Recent[Hashable, bytes] = Recent(256)


def _render(rules: Rules[Any], view: Any, facts: Any, whose: tuple[int, str, bool]) -> bytes:
    if facts is not None:  # a turn report's picture shows the turn's moves: drawn once anyway
        return rules.render(view, facts)
    # Kept by the language it is drawn in (the current one), whatever the caller says.
    return _PICTURES.get((*whose, said.language()), lambda: rules.render(view, None))


def _public(shot: Snapshot, lang: str) -> bytes:
    """The public picture of a turn in ``lang`` (the current language), drawn as the stored
    one is (``play.public_picture``) and kept by what it shows."""
    key = (shot.rules.key, lang, shot.public_digest)
    return _PICTURES.get(key, lambda: shot.rules.render(shot.public_view, None))
