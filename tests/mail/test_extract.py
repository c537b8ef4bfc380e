"""Finding the player's own lines: quotes, attributions, signatures, the ORDERS block, subjects."""

from __future__ import annotations

import pytest

from adjudicator.mail.extract import order_lines, subject_line


def lines(*text: str) -> str:
    return "\n".join(text)


def test_plain_lines_pass_through_with_trailing_space_stripped() -> None:
    assert order_lines("A Sparta - Argos   \n\tF Gytheio hold\t\n") == [
        "A Sparta - Argos",
        "\tF Gytheio hold",
    ]


def test_leading_and_trailing_blank_lines_go_inner_ones_stay() -> None:
    text = lines("", "  ", "A Sparta hold", "", "", "F Gytheio hold", "", "   ")
    assert order_lines(text) == ["A Sparta hold", "", "", "F Gytheio hold"]


def test_crlf_and_cr_line_ends() -> None:
    assert order_lines("A Sparta hold\r\nF Gytheio hold\rA Argos hold") == [
        "A Sparta hold",
        "F Gytheio hold",
        "A Argos hold",
    ]


def test_empty_text() -> None:
    assert order_lines("") == []
    assert order_lines("\n\n  \n") == []


def test_quoted_lines_are_dropped() -> None:
    text = lines("> Reply with your orders", ">> older", "A Sparta hold", "  > indented quote")
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize(
    "attribution",
    [
        "On Mon, 4 Mar 2024 at 10:12, PBEM Judge <orders+1-x-1-aa@pbem.example> wrote:",
        "On 04/03/2024 10:12, PBEM Judge wrote:",
        "El lun, 4 mar 2024 a las 10:12, PBEM Judge (<orders@pbem.example>) escribió:",
        "Le lun. 4 mars 2024 à 10:12, PBEM Judge <orders@pbem.example> a écrit :",
        "Le 04/03/2024 à 10:12, PBEM Judge a écrit\u00a0:",
        "Am Mo., 4. März 2024 um 10:12 Uhr schrieb PBEM Judge <orders@pbem.example>:",
        "Am 04.03.2024 um 10:12 schrieb PBEM Judge:",
        "04.03.2024 10:12, PBEM Judge пишет:",
        "4 марта 2024 г., в 10:12, PBEM Judge <orders@pbem.example> написал(а):",
        "Понедельник, 4 марта 2024, 10:12 от PBEM Judge написала:",
    ],
)
def test_attribution_without_quote_marks_cuts_everything_after(attribution: str) -> None:
    text = lines("A Sparta hold", "", attribution, "", "Game 12, turn 3", "A Argos hold")
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize(
    "attribution",
    [
        "On 04/03/2024 10:12, PBEM Judge wrote:",
        "Am 04.03.2024 um 10:12 schrieb PBEM Judge:",
        "04.03.2024 10:12, PBEM Judge пишет:",
    ],
)
def test_inline_reply_below_a_marked_quote_is_kept(attribution: str) -> None:
    # Bottom-posting (Thunderbird's default, mutt): the player's text follows the "> " quote.
    text = lines(attribution, "> Reply with your orders.", "", "A Sparta hold", "> More?", "No.")
    assert order_lines(text) == ["A Sparta hold", "No."]


def test_attribution_wrapped_by_gmail_over_two_lines() -> None:
    text = lines(
        "A Sparta hold",
        "",
        "On Mon, 4 Mar 2024 at 10:12, PBEM Judge <",
        "orders+12-spartans-1-942c723b85fb6772@pbem.example> wrote:",
        "",
        "Game 12 text that Gmail did not mark",
    )
    assert order_lines(text) == ["A Sparta hold"]


def test_attribution_wrapped_over_three_lines() -> None:
    text = lines(
        "A Sparta hold",
        "On Mon, 4 Mar 2024 at 10:12, A Judge With A Very Long Name",
        "<orders+12-spartans-1-942c723b85fb6772@pbem.example>",
        "wrote:",
        "unmarked quoted text",
    )
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize(
    "chatter",
    [
        "On turn 3 Bob wrote to me privately.",  # no "wrote:" at the end
        "On reflection I hold.",
        "Bob wrote: hold everything",  # not an attribution: text after the colon
        "On Monday",  # an opening that never becomes an attribution
    ],
)
def test_chatter_that_resembles_an_attribution_is_kept(chatter: str) -> None:
    text = lines(chatter, "A Sparta hold", "He wrote:", "F Gytheio hold")
    assert order_lines(text) == [chatter, "A Sparta hold", "He wrote:", "F Gytheio hold"]


def test_wrapped_join_does_not_swallow_the_line_above() -> None:
    text = lines("A Sparta hold", "On Mon, 4 Mar 2024, Judge <j@pbem.example> wrote:", "quoted")
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize(
    "separator",
    [
        "-----Original Message-----",
        "-----Ursprüngliche Nachricht-----",
        "-----Message d'origine-----",
        "-----Mensaje original-----",
        "-------- Original Message --------",
        "---------- Forwarded message ---------",
        "-------- Weitergeleitete Nachricht --------",
        "Begin forwarded message:",
    ],
)
def test_separators_cut_everything_after(separator: str) -> None:
    text = lines("A Sparta hold", "", separator, "From: Judge", "A Argos hold")
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize(
    "header",
    [
        ("From: PBEM Judge <orders@pbem.example>", "Sent: Monday, March 4, 2024 10:12 AM"),
        ("From: PBEM Judge <orders@pbem.example>", "Date: Monday, March 4, 2024 10:12 AM"),
        ("*From:* PBEM Judge", "*Sent:* Monday, March 4, 2024 10:12 AM"),
        ("Von: PBEM Judge <orders@pbem.example>", "Gesendet: Montag, 4. März 2024 10:12"),
        ("De : PBEM Judge <orders@pbem.example>", "Envoyé : lundi 4 mars 2024 10:12"),
        ("De: PBEM Judge <orders@pbem.example>", "Enviado el: lunes, 4 de marzo de 2024 10:12"),
        ("От: PBEM Judge <orders@pbem.example>", "Отправлено: 4 марта 2024 г. 10:12"),
    ],
)
def test_outlook_header_block_cuts_everything_after(header: tuple[str, str]) -> None:
    text = lines("A Sparta hold", "", *header, "To: Gorgo", "Subject: turn 3", "", "A Argos")
    assert order_lines(text) == ["A Sparta hold"]


def test_outlook_underscore_rule_goes_with_the_header_block() -> None:
    text = lines("A Sparta hold", "_" * 32, "From: PBEM Judge", "Sent: Monday", "", "A Argos")
    assert order_lines(text) == ["A Sparta hold"]


def test_a_from_line_without_a_date_is_not_a_header_block() -> None:
    text = lines("From: Sparta", "To: Argos", "A Sparta hold", "_" * 32, "done")
    assert order_lines(text) == ["From: Sparta", "To: Argos", "A Sparta hold", "_" * 32, "done"]


@pytest.mark.parametrize("separator", ["-- ", "--"])
def test_signature_separator_ends_the_text(separator: str) -> None:
    text = lines("A Sparta hold", "", separator, "Leonidas", "A Argos hold")
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize("line", ["---", " --", "A Sparta -- Argos", "-- Leonidas"])
def test_dashes_that_are_not_a_signature_separator_stay(line: str) -> None:
    assert order_lines(lines("A Sparta hold", line, "F Gytheio hold")) == [
        "A Sparta hold",
        line.rstrip(),
        "F Gytheio hold",
    ]


@pytest.mark.parametrize(
    "footer",
    [
        "Sent from my iPhone",
        "Sent from my Galaxy",
        "Sent from Mail for Windows",
        "Get Outlook for iOS<https://aka.ms/o0ukef>",
        "Get Outlook for Android",
        "Von meinem iPhone gesendet",
        "Enviado desde mi iPhone",
        "Envoyé de mon iPhone",
        "Отправлено с iPhone",
    ],
)
def test_client_footer_lines_are_dropped_but_not_what_follows(footer: str) -> None:
    assert order_lines(lines("A Sparta hold", footer, "F Gytheio hold")) == [
        "A Sparta hold",
        "F Gytheio hold",
    ]


def test_footer_words_inside_a_sentence_stay() -> None:
    line = "I sent from my iPhone last time and it broke."
    assert order_lines(line) == [line]


# --- the explicit block ------------------------------------------------------------------------


def test_explicit_block_wins_over_everything_around_it() -> None:
    text = lines(
        "Chatter before.",
        "Orders",
        "",
        "A Sparta - Argos",
        "> not a quote here",
        "--",
        "Sent from my iPhone",
        "",
        "end",
        "Chatter after.",
    )
    assert order_lines(text) == [
        "A Sparta - Argos",
        "> not a quote here",
        "--",
        "Sent from my iPhone",
    ]


def test_explicit_block_markers_tolerate_spacing_case_and_a_colon() -> None:
    assert order_lines(lines("  ORDERS:  ", "A Sparta hold", " End ")) == ["A Sparta hold"]


def test_first_complete_block_is_taken() -> None:
    text = lines("ORDERS", "A Sparta hold", "END", "ORDERS", "A Argos hold", "END")
    assert order_lines(text) == ["A Sparta hold"]


def test_empty_block_means_no_orders() -> None:
    assert order_lines(lines("hello", "ORDERS", "", "END", "A Sparta hold")) == []


def test_orders_without_end_falls_back_to_the_heuristics() -> None:
    # A lone "ORDERS" is also the command asking what is on file: it stays for the parser.
    text = lines("ORDERS", "A Sparta hold", "", "-- ", "Leonidas")
    assert order_lines(text) == ["ORDERS", "A Sparta hold"]


def test_block_in_quoted_history_is_not_taken() -> None:
    # Our own receipt may show an ORDERS block; a reply quoting it must not resubmit it.
    text = lines(
        "A Sparta hold",
        "",
        "-----Original Message-----",
        "From: PBEM Judge",
        "ORDERS",
        "A Argos hold",
        "END",
    )
    assert order_lines(text) == ["A Sparta hold"]


def test_block_below_a_marked_quote_is_taken() -> None:
    text = lines(
        "On 04/03/2024 10:12, PBEM Judge wrote:",
        "> Reply with your orders.",
        "",
        "ORDERS",
        "A Sparta hold",
        "END",
        "",
        "-- ",
        "Aristodemos",
    )
    assert order_lines(text) == ["A Sparta hold"]


def test_end_found_only_in_quoted_history_does_not_close_a_block() -> None:
    text = lines("ORDERS", "A Sparta hold", "", "-----Original Message-----", "END", "A Argos")
    assert order_lines(text) == ["ORDERS", "A Sparta hold"]


def test_block_marked_as_quote_is_not_taken() -> None:
    text = lines("A Sparta hold", "> ORDERS", "> A Argos hold", "> END")
    assert order_lines(text) == ["A Sparta hold"]


# --- subjects -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("JOIN 12", "JOIN 12"),
        ("Re: HELP", "HELP"),
        ("RE: Re: Fwd: status", "status"),
        ("Fw: AW: Sv: WG: SV: orders", "orders"),
        ("Re[2]: status", "status"),
        ("[pbem] Re: [Game 12] STATUS  12", "STATUS 12"),
        ("Re : Partie 12", "Partie 12"),
        ("Ответ: ход", "ход"),
        ("  resign \t now ", "resign now"),
        ("Regarding turn 3", "Regarding turn 3"),  # "Re" only counts with a colon
        ("Status [draft]", "Status [draft]"),  # tags only at the start
    ],
)
def test_subject_line(subject: str, expected: str) -> None:
    assert subject_line(subject) == expected


@pytest.mark.parametrize("subject", ["", "   ", "Re:", "Re: [pbem]", "[a] [b] Fwd: "])
def test_subject_line_empty_is_none(subject: str) -> None:
    assert subject_line(subject) is None
