"""Musket & Pike in the reader's language: the position in words, the decisions owed, a receipt's
reasons and a resolved step's outcomes and report are written in Spanish and Russian where the
service holds that reader's language (``i18n.speaking``), and a sentence made at resolve time in
English is written anew in each reader's; English stays as it was."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from adjudicator import i18n
from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus
from adjudicator.core.said import anew
from adjudicator.games.musket_and_pike.game import MusketAndPike
from adjudicator.games.musket_and_pike.rules.state import Position

GAME = MusketAndPike()
OPTIONS = {"scenario": "skirmish"}
SEED = b"l" * 32

# Words of the English sentences converted: none may be left in a translated text. The canonical
# order forms (MOVE, DEFAULT ROUTS, activate R-A...) and the ids, kinds and names stay.
ENGLISH = (
    "Turn",
    "turn",
    "wing",
    "Wing",
    "unit",
    "lost",
    "withdraws",
    "commander",
    "facing",
    "morale",
    "rating",
    "initiative",
    "phase",
    "handed",
    "secret",
    "none yet",
    "is not",
    "there is no",
    "moves",
    "fires",
    "passes",
    "fails",
    "UNIT ACTIONS",
    "CLOSE COMBAT",
    "WHAT CHANGED",
    "needs",
    "or less",
    "begins",
    "finished",
    "activation",
    "activates",
    "Decision",
    "Result",
    "owed",
    "the",
    "and",
    "with",
    "your",
    "you",
    "each",
    "of",
    "to",
    "try",
    "order",
    "orders",
    "hex",
    "hexes",
    "path",
    "close combat",
    "enemy",
    "army",
    "Army",
    "revealed",
    "stops",
    "changes",
    "gains",
    "success",
    "failure",
)
WORD = re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in ENGLISH))


def english_left(text: str) -> list[str]:
    return sorted(set(WORD.findall(text)))


def opening() -> Position:
    return GAME.new_game(OPTIONS, Chance(SEED, "t", 0))


def played(steps: int = 60) -> list[tuple[Position, Any]]:
    """A random legal play-out in English (as a turn is resolved, with no reader's language):
    every (state before, resolution) pair."""
    choose = random.Random(7)
    state = opening()
    history = []
    for number in range(1, steps):
        pending = GAME.pending(state)
        if not pending:
            break
        orders = {s: choose.choice(list(GAME.legal_orders(state, s))) for s in sorted(pending)}
        resolution = GAME.resolve(state, orders, Chance(SEED, "t", number))
        history.append((state, resolution))
        state = resolution.state
    return history


def _texts_of_the_opening() -> list[str]:
    state = opening()
    texts = [GAME.describe(GAME.view(state, seat)) for seat in (*GAME.seats, None)]
    for decision in GAME.pending(state).values():
        texts += [decision.prompt, decision.brief]
    return texts


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_opening_position_and_prompts_are_in_the_readers_language(lang: str) -> None:
    with i18n.speaking(lang):
        texts = _texts_of_the_opening()
    for text in texts:
        assert text and english_left(text) == [], text
    english = _texts_of_the_opening()
    assert "Decision owed by" in english[0] and "Turn 1 of" in english[0]
    assert "secret orders for each of your wings" in " ".join(english)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_prompt_made_in_english_is_written_anew(lang: str) -> None:
    state = opening()
    made = GAME.pending(state)["royalist"]
    view = GAME.view(state, "royalist")
    with i18n.speaking(lang):
        assert english_left(anew(made.prompt)) == []
        assert english_left(anew(made.brief)) == []
        assert english_left(GAME.describe(view)) == []


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_receipts_rejected_lines_give_their_reasons_in_the_readers_language(lang: str) -> None:
    state = opening()
    mail = "ORDERS R-A=charge R-Q=rally\nR-A fly\nP-A charge\nSTANDING PREEMPT NEVER\n"
    english = GAME.parse_orders(state, "royalist", mail)
    with i18n.speaking(lang):
        report = GAME.parse_orders(state, "royalist", mail)
        again = [anew(line.reason) for line in english.lines if line.reason]
        missing = [anew(note) for note in english.missing]
    rejected = [line for line in report.lines if line.status is LineStatus.REJECTED]
    assert rejected and all(line.reason for line in rejected)
    for line in report.lines:
        if line.reason:
            assert english_left(line.reason) == [], line
    for text in (*again, *missing, *report.missing):
        assert english_left(text) == [], text
    # The canonical forms are the same in every language: the archive and the other side read them.
    assert [line.canonical for line in report.lines] == [line.canonical for line in english.lines]
    assert [line.suggestion for line in report.lines] == [line.suggestion for line in english.lines]


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_resolved_steps_outcomes_and_report_are_written_anew(lang: str) -> None:
    history = played()
    assert len(history) > 10
    with i18n.speaking(lang):
        for _state, resolution in history:
            for outcome in resolution.outcomes:
                detail = anew(outcome.detail)
                assert english_left(detail) == [], (outcome, detail)
            report = GAME.step_report(resolution.facts)
            assert english_left(report) == [], report
            summary = anew(GAME.outcome(resolution.state).summary)
            assert english_left(summary) == [], summary
    # English is the text as written.
    reports = "\n".join(GAME.step_report(r.facts) for _s, r in history)
    assert "UNIT ACTIONS" in reports and "WHAT CHANGED" in reports and "d10 for" in reports


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_step_resolved_in_the_readers_language_is_in_it(lang: str) -> None:
    choose = random.Random(3)
    state = opening()
    with i18n.speaking(lang):
        for number in range(1, 40):
            pending = GAME.pending(state)
            if not pending:
                break
            for decision in pending.values():
                assert english_left(decision.prompt) == [], decision
            orders = {s: choose.choice(list(GAME.legal_orders(state, s))) for s in sorted(pending)}
            resolution = GAME.resolve(state, orders, Chance(SEED, "u", number))
            for outcome in resolution.outcomes:
                assert english_left(outcome.detail) == [], outcome
            assert english_left(GAME.step_report(resolution.facts)) == []
            state = resolution.state
            assert english_left(GAME.describe(GAME.view(state, None))) == []


# --- order words in Spanish and Russian -------------------------------------------------------

# Each English word of a canonical line and its Spanish and Russian words (words.toml).
SAID = {
    "ORDERS": ("órdenes", "приказы"),
    "ACTIVATE": ("activar", "активировать"),
    "FIRST": ("primera", "первым"),
    "PASS": ("pasar", "пас"),
    "PREEMPT": ("anticipar", "перехват"),
    "NO PREEMPT": ("sin anticipar", "не перехватывать"),
    "KEEP ORDER": ("mantener orden", "оставить приказ"),
    "CHANGE TO": ("cambiar a", "сменить на"),
    "CONTINUE": ("continuar", "продолжить"),
    "STOP": ("parar", "стоп"),
    "NO ACTIONS": ("sin acciones", "без действий"),
    "DEFAULT ROUTS": ("por defecto desbandada", "по умолчанию бегство"),
    "DEFAULT RETREAT": ("por defecto retirada", "по умолчанию отступление"),
    "WITH AC": ("con comandante", "командующим"),
    "MOVE": ("mover", "двигаться"),
    "FIRE": ("fuego", "огонь"),
    "SALVO": ("descarga", "залп"),
    "PISTOL": ("pistola", "пистолет"),
    "CHARGE": ("cargar", "атаковать"),
    "RALLY": ("reagrupar", "сбор"),
    "REFORM": ("reorganizar", "перестроиться"),
    "HOLD": ("aguantar", "стоять"),
    "ROUT": ("huir", "бежать"),
    "RETREAT": ("retirarse", "отступить"),
    "FACE": ("frente", "фронтом"),
    "charge": ("carga", "атака"),
    "make ready": ("preparados", "изготовку"),
    "receive charge": ("recibir la carga", "встреча атаки"),
    "rally": ("reagrupamiento", "сбор"),
}
FACINGS = {"N": ("N", "С"), "NE": ("NE", "СВ"), "SE": ("SE", "ЮВ"), "S": ("S", "Ю")}
FACINGS |= {"SW": ("SO", "ЮЗ"), "NW": ("NO", "СЗ")}
PHRASE = re.compile(
    "|".join(re.escape(w) for w in sorted(SAID, key=len, reverse=True)) + r"|(?<=FACE )[NSEW]+"
)


def in_language(line: str, lang: str) -> str:
    """A canonical English line written with the words of ``lang``."""
    index = 1 if lang == "ru" else 0

    def word(found: re.Match[str]) -> str:
        text = found.group()
        return FACINGS[text][index] if text in FACINGS else SAID[text][index]

    return PHRASE.sub(word, line)


def english_lines(state: Position, seat: str) -> list[str]:
    """Every line a player might write now, as the canonical English the receipts echo."""
    lines = []
    for orders in GAME.legal_orders(state, seat)[:8]:
        text = GAME.orders_text(orders) or ""
        text = re.sub(
            r"^(activate|first|preempt|change to|keep order|continue|stop|pass)\b",
            lambda m: m.group().upper(),
            text,
            flags=re.M,
        )
        text = text.replace("no preempt", "NO PREEMPT").replace(" with ac", " WITH AC")
        text = text.replace("default routs", "DEFAULT ROUTS")
        text = text.replace("default retreat", "DEFAULT RETREAT")
        lines.append(text)
    return lines


def test_spanish_and_russian_order_words_read_as_the_canonical_orders() -> None:
    seen: set[str] = set()
    for state, _resolution in played(200):
        for seat in GAME.pending(state):
            for english in english_lines(state, seat):
                wanted = GAME.parse_orders(state, seat, english)
                assert wanted.orders is not None, english
                for lang in ("es", "ru"):
                    written = in_language(english, lang)
                    assert written != english or not re.search("[A-Z]{3}", english), english
                    report = GAME.parse_orders(state, seat, written)
                    assert report.orders == wanted.orders, (written, report.lines)
                    assert [line.canonical for line in report.lines] == [
                        line.canonical for line in wanted.lines
                    ]
                seen.add(state.step)
    assert {"setup_orders", "activate", "order_change", "actions", "continuation"} <= seen


@pytest.mark.parametrize(
    ("english", "spanish", "russian"),
    [
        ("STANDING PREEMPT NEVER", "permanente anticipar nunca", "постоянно перехват никогда"),
        ("STANDING CONTINUE UP TO 2", "permanente continuar hasta 2", "постоянно продолжить до 2"),
        (
            "STANDING RETREAT ASK ME",
            "permanente retirada pregúntame",
            "постоянно отступление спрашивай меня",
        ),
        (
            "STANDING RETREAT TOWARD MY EDGE",
            "permanente retirada hacia mi borde",
            "постоянно отход к своему краю",
        ),
        (
            "STANDING PREEMPT ALWAYS WITH AC",
            "PERMANENTE ANTICIPAR SIEMPRE CON GENERAL",
            "постоянно перехват всегда с командующим",
        ),
    ],
)
def test_standing_instructions_are_read_in_every_language(
    english: str, spanish: str, russian: str
) -> None:
    state = opening()
    wanted = GAME.parse_orders(state, "royalist", english)
    assert wanted.orders is not None and wanted.orders.get("standing")
    for text in (spanish, russian):
        report = GAME.parse_orders(state, "royalist", text)
        assert report.orders == wanted.orders, report.lines
        assert [line.canonical for line in report.lines] == [english]


def test_order_words_in_any_language_whatever_the_readers_language() -> None:
    state = opening()
    english = GAME.parse_orders(state, "royalist", "ORDERS R-A=charge R-B=make ready")
    for lang in ("en", "es", "ru"):
        with i18n.speaking(lang):
            for text in ("órdenes R-A=carga R-B=preparados", "приказы R-A=атака R-B=изготовка"):
                assert GAME.parse_orders(state, "royalist", text).orders == english.orders
    assert english.lines[0].canonical == "ORDERS R-A=charge R-B=make ready"


# --- the help -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words", "english"),
    [
        ("es", ("ÓRDENES", "ACTIVAR", "SIN ACCIONES", "POR DEFECTO", "Tras el último turno"), ()),
        ("ru", ("ПРИКАЗЫ", "АКТИВИРОВАТЬ", "БЕЗ ДЕЙСТВИЙ", "ПО УМОЛЧАНИЮ", "После последнего"), ()),
    ],
)
def test_the_help_is_in_the_readers_language_with_its_words(
    lang: str, words: tuple[str, ...], english: tuple[str, ...]
) -> None:
    options = {"scenario": "braddock-down"}
    shown = GAME.help_text(options)
    with i18n.speaking(lang):
        translated = GAME.help_text(options)
    assert GAME.help_text(options) == shown  # the cache keeps each language apart
    for word in words:
        assert word in translated and word not in shown
    from adjudicator.games.musket_and_pike.rules.data import ruleset
    from adjudicator.games.musket_and_pike.words.tables import tables_text

    written = translated.split(tables_text(ruleset()))[0]
    # The order forms' slots (<hex>, <dir>) are the canonical forms' own.
    assert english_left(re.sub(r"<[^>]*>", "", written)) == [], written
    # The tables are written from the ruleset in the reader's language too (the data's names,
    # musket or woods, stay).
    headings = ("EACH TURN", "THE TABLES", "COMMAND ROLLS", "MOVEMENT", "CLOSE COMBAT", "MORALE")
    for sentence in ("Every line of your mail gets a receipt", "After the last turn", *headings):
        assert sentence in shown and sentence not in translated
    # Every order line the help shows in the reader's words reads as its canonical order.
    state = opening()
    for text, canonical in (
        ("ÓRDENES R-A=carga R-B=preparados", "ORDERS R-A=charge R-B=make ready"),
        ("ПРИКАЗЫ R-A=атака R-B=изготовка", "ORDERS R-A=charge R-B=make ready"),
    ):
        assert [line.canonical for line in GAME.parse_orders(state, "royalist", text).lines] == [
            canonical
        ]


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_unit_action_the_rules_refuse_is_refused_in_the_readers_language(lang: str) -> None:
    for state, _resolution in played(200):
        if state.step == "actions" and state.current is not None:
            break
    else:
        pytest.fail("no activation in the play-out")
    units = [u.id for u in state.units if u.wing == state.current and u.hex is not None]
    mail = f"{units[0]} MOVE 9.9\n{units[-1]} FIRE NOBODY-1\n{units[0]} HOLD"
    english = GAME.parse_orders(state, str(state.active), mail)
    assert "is not next to" in str(english.lines[0].reason)
    with i18n.speaking(lang):
        report = GAME.parse_orders(state, str(state.active), mail)
        again = [anew(line.reason) for line in english.lines]
        missing = [anew(note) for note in english.missing]
    assert [line.status for line in report.lines] == [line.status for line in english.lines]
    for text in (*[line.reason or "" for line in report.lines], *again, *missing):
        assert english_left(text) == [], text


# --- by mail --------------------------------------------------------------------------------------

# The sentences this game writes into a mail, in English: none may be left in a Russian one.
GAME_ENGLISH = (
    "secret orders for each of your wings",
    "Decision owed by",
    "Wing orders handed in",
    "Army commander",
    "facing",
    "SECRET WING ORDERS",
    "UNIT ACTIONS",
    "WHAT CHANGED",
    "handed in the wing orders",
    "wins the initiative",
    "is not your wing",
)


def test_a_game_by_mail_in_russian_with_spanish_order_words(runtime: Any) -> None:
    from playbymail import compose, deliver_mail, sent, text_of

    royalist, parliament = "hopton@example.com", "ruthin@example.com"
    body = (
        f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {royalist}\nPARLIAMENT {parliament}\n"
        "LANGUAGE ru\n"
    )
    deliver_mail(runtime, compose("gm@example.com", "new@pbem.localhost", body))
    seats = {str(m["To"]): str(m["Reply-To"]) for m in sent(runtime) if m["Reply-To"]}
    for address in (royalist, parliament):
        deliver_mail(runtime, compose(address, seats[address], "JOIN"))

    def last(address: str) -> str:
        mails = [m for m in sent(runtime) if str(m["To"]) == address]
        return " ".join(text_of(mails[-1]).split())

    opening = last(royalist)
    assert "тайные приказы каждому из ваших крыльев" in opening, opening
    assert "Крыло R-A" in opening and "Командующий армией" in opening
    # The scenario's rule for the last turn, written by the rules, in the reader's language too.
    assert "После последнего хода, если обе армии ещё на поле" in opening, opening
    assert [e for e in GAME_ENGLISH if e in opening] == [], opening
    # Spanish words from a player of a Russian game: read, and echoed canonically.
    mail = "órdenes R-A=carga R-B=preparados\nP-A carga"
    deliver_mail(runtime, compose(royalist, seats[royalist], mail))
    receipt = last(royalist)
    # The receipt in Russian, the orders echoed canonically, the game's reason written anew; a
    # mail with a refused line is refused whole, so its good line is understood, not carried out.
    assert "-> понято, не выполнено: ORDERS R-A=charge R-B=make ready" in receipt, receipt
    assert "P-A carga -> отклонено (P-A — не ваше крыло)" in receipt
    deliver_mail(runtime, compose(royalist, seats[royalist], "órdenes R-A=carga R-B=preparados"))
    deliver_mail(runtime, compose(parliament, seats[parliament], "приказы P-A=атака P-B=сбор"))
    report = last(parliament)
    assert "ТАЙНЫЕ ПРИКАЗЫ КРЫЛЬЯМ" in report and "приказы крыльям раскрыты" in report, report
    assert [e for e in GAME_ENGLISH if e in report] == [], report


def test_the_maps_words_are_in_the_readers_language_and_cached_apart() -> None:
    from adjudicator.games.musket_and_pike.pictures import preview

    history = played(40)
    state, facts = history[-1][1].state, history[-1][1].facts
    view = GAME.view(state, None)
    english = GAME.render(view, facts)
    with i18n.speaking("ru"):
        russian = GAME.render(view, facts)
        notes = preview.notes({"wing_orders": {"R-A": "charge"}})
    assert russian != english  # the header and the side panel are written in Russian
    assert GAME.render(view, facts) == english  # each language's drawing is its own
    assert all(english_left(note) == [] for note in notes), notes


def test_each_scenario_side_has_a_title_in_each_language_its_commander_kept() -> None:
    from adjudicator.games.musket_and_pike.rules.scenario import scenario, scenario_names
    from adjudicator.games.musket_and_pike.words.describe import side_names

    for ident in scenario_names():
        battle = scenario(ident)
        for lang in i18n.languages():
            with i18n.speaking(lang):
                titles = {GAME.seat_title(info.id) for info in battle.sides}
            assert len(titles) == 2, (ident, lang)
            if lang != "en":
                # Every side has its own title in this language (the scenario's ``words``).
                assert not titles & {"Royalists", "Parliament"}, (ident, lang, titles)
    shown = {"id": "braddock-down", "sides": {"royalist": "Royalists (Hopton)"}}
    with i18n.speaking("ru"):
        text = GAME.describe(
            GAME.view(
                GAME.new_game({**OPTIONS, "scenario": "braddock-down"}, Chance(SEED, "t", 0)), None
            )
        )
    assert "Брэддок-Даун, 19 января 1643 года" in text and "January" not in text
    assert "корнуоллская пехота" in text and "horse" not in text
    with i18n.speaking("ru"):
        assert side_names(shown) == {"royalist": "Армия короля (Hopton)"}
    with i18n.speaking("es"):
        assert GAME.seat_title("parliament") == "Ejército del Parlamento"
    assert side_names(shown) == {"royalist": "Royalists (Hopton)"}
