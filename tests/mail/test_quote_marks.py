"""Quoted history as each language's clients mark it: header block, attribution, separator."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from adjudicator.mail import quote_marks
from adjudicator.mail.extract import order_lines, subject_line

JUDGE = "PBEM Judge <orders@pbem.example>"

# The first two lines of the header block Outlook (desktop, web) or Hotmail writes above the mail
# answered, in each language, as the localised client writes them.
HEADER_BLOCKS = {
    "en": (f"From: {JUDGE}", "Sent: Monday, March 4, 2024 10:12 AM"),
    "de": (f"Von: {JUDGE}", "Gesendet: Montag, 4. März 2024 10:12"),
    "fr": (f"De\u00a0: {JUDGE}", "Envoyé\u00a0: lundi 4 mars 2024 10:12"),
    "es": (f"De: {JUDGE}", "Enviado el: lunes, 4 de marzo de 2024 10:12"),
    "it": (f"Da: {JUDGE}", "Inviato: lunedì 4 marzo 2024 10:12"),
    "pt": (f"De: {JUDGE}", "Enviado: segunda-feira, 4 de março de 2024 10:12"),
    "pt-br": (f"De: {JUDGE}", "Enviado em: segunda-feira, 4 de março de 2024 10:12"),
    "nl": (f"Van: {JUDGE}", "Verzonden: maandag 4 maart 2024 10:12"),
    "sv": (f"Från: {JUDGE}", "Skickat: den 4 mars 2024 10:12"),
    "da": (f"Fra: {JUDGE}", "Sendt: 4. marts 2024 10:12"),
    "nb": (f"Fra: {JUDGE}", "Sendt: mandag 4. mars 2024 10:12"),
    "fi": (f"Lähettäjä: {JUDGE}", "Lähetetty: maanantai 4. maaliskuuta 2024 10.12"),
    "pl": (f"Od: {JUDGE}", "Wysłano: poniedziałek, 4 marca 2024 10:12"),
    "cs": (f"Od: {JUDGE}", "Odesláno: pondělí 4. března 2024 10:12"),
    "sk": (f"Od: {JUDGE}", "Odoslané: pondelok 4. marca 2024 10:12"),
    "hu": (f"Feladó: {JUDGE}", "Elküldve: 2024. március 4., hétfő 10:12"),
    "ro": (f"De la: {JUDGE}", "Trimis: luni, 4 martie 2024 10:12"),
    "el": (f"Από: {JUDGE}", "Στάλθηκε: Δευτέρα, 4 Μαρτίου 2024 10:12 πμ"),
    "bg": (f"От: {JUDGE}", "Изпратено: понеделник, 4 март 2024 г. 10:12"),
    "hr": (f"Od: {JUDGE}", "Poslano: ponedjeljak, 4. ožujka 2024. 10:12"),
    "sr": (f"Od: {JUDGE}", "Poslato: ponedeljak, 4. mart 2024. 10:12"),
    "sl": (f"Od: {JUDGE}", "Poslano: ponedeljek, 4. marec 2024 10:12"),
    "lt": (f"Nuo: {JUDGE}", "Išsiųsta: 2024 m. kovo 4 d. 10:12"),
    "lv": (f"No: {JUDGE}", "Nosūtīts: pirmdiena, 2024. gada 4. martā 10:12"),
    "et": (f"Saatja: {JUDGE}", "Saadetud: esmaspäev, 4. märts 2024 10:12"),
    "ca": (f"De: {JUDGE}", "Enviat el: dilluns, 4 de març de 2024 10:12"),
    "ru": (f"От: {JUDGE}", "Отправлено: 4 марта 2024 г. 10:12"),
    "uk": (f"Від: {JUDGE}", "Надіслано: 4 березня 2024 р. 10:12"),
    "tr": (f"Kimden: {JUDGE}", "Gönderildi: 4 Mart 2024 Pazartesi 10:12"),
    "ar": (f"\u200fمن: {JUDGE}", "\u200fتم الإرسال: الاثنين، 4 مارس، 2024 10:12 ص"),
    "he": (f"\u200fמאת: {JUDGE}", "\u200fנשלח: יום שני 04 מרץ 2024 10:12"),
    "zh-hans": (f"发件人: {JUDGE}", "发送时间: 2024年3月4日 10:12"),
    "zh-hant": (f"寄件者: {JUDGE}", "寄件日期: 2024年3月4日 上午 10:12"),
    "ja": (f"差出人: {JUDGE}", "送信日時: 2024年3月4日 10:12"),
    "ko": (f"보낸 사람: {JUDGE}", "보낸 날짜: 2024년 3월 4일 월요일 오전 10:12"),
    "id": (f"Dari: {JUDGE}", "Dikirim: Senin, 04 Maret 2024 10.12"),
}

# Attributions as Gmail, Apple Mail, Thunderbird and other clients write them in each language.
ATTRIBUTIONS = {
    "en": f"On Mon, 4 Mar 2024 at 10:12, {JUDGE} wrote:",
    "de": f"Am Mo., 4. März 2024 um 10:12 Uhr schrieb {JUDGE}:",
    "de-android": f"{JUDGE} schrieb am Mo., 4. März 2024, 10:12:",
    "fr": f"Le lun. 4 mars 2024 à 10:12, {JUDGE} a écrit :",
    "es": f"El lun, 4 mar 2024 a las 10:12, {JUDGE} escribió:",
    "it": f"Il giorno lun 4 mar 2024 alle ore 10:12 {JUDGE} ha scritto:",
    "pt-br": f"Em seg., 4 de mar. de 2024 às 10:12, {JUDGE} escreveu:",
    "pt": f"{JUDGE} escreveu (segunda, 4/03/2024 à(s) 10:12):",
    "nl": f"Op ma 4 mrt 2024 om 10:12 schreef {JUDGE}:",
    "sv": f"Den mån 4 mars 2024 kl 10:12 skrev {JUDGE}:",
    "da": f"Den man. 4. mar. 2024 kl. 10.12 skrev {JUDGE}:",
    "nb": f"man. 4. mar. 2024 kl. 10:12 skrev {JUDGE}:",
    "fi": f"{JUDGE} kirjoitti ma 4.3.2024 klo 10.12:",
    "pl": f"pon., 4 mar 2024 o 10:12 {JUDGE} napisał(a):",
    "pl-thunderbird": "W dniu 4.03.2024 o 10:12, PBEM Judge pisze:",
    "cs": f"po 4. 3. 2024 v 10:12 odesílatel {JUDGE} napsal:",
    "sk": f"po 4. 3. 2024 o 10:12 {JUDGE} napísal(a):",
    "hu": f"{JUDGE} ezt írta (időpont: 2024. márc. 4., H, 10:12):",
    "ro": f"În lun., 4 mar. 2024 la 10:12, {JUDGE} a scris:",
    "el": f"Στις Δευ 4 Μαρ 2024 στις 10:12, ο/η {JUDGE} έγραψε:",
    "bg": f"пн, 4.03.2024 г. в 10:12 ч. {JUDGE} написа:",
    "hr": f"pon, 4. ožu 2024. u 10:12 {JUDGE} napisao je:",
    "sr": f"пон, 4. мар 2024. у 10:12 {JUDGE} је написао/ла:",
    "sl": f"V pon., 4. mar. 2024 ob 10:12 je {JUDGE} napisal(a):",
    "lt": f"2024-03-04, pr, 10:12 {JUDGE} rašė:",
    "lv": f"pirmd., 2024. g. 4. marts, plkst. 10:12 — lietotājs {JUDGE} rakstīja:",
    "et": f"E, 4. märts 2024 kell 10:12 {JUDGE} kirjutas:",
    "ca": f"El dl., 4 de març 2024 a les 10:12, {JUDGE} va escriure:",
    "ru": f"пн, 4 мар. 2024 г. в 10:12, {JUDGE}:",
    "uk": f"пн, 4 бер. 2024 р. о 10:12 {JUDGE} пише:",
    "tr": f"{JUDGE}, 4 Mar 2024 Pzt, 10:12 tarihinde şunu yazdı:",
    "ar": f"\u202bفي الاثنين، 4 مارس 2024 في 10:12 ص تمت كتابة ما يلي بواسطة {JUDGE}:\u202c",
    "he": f"\u202bבתאריך יום ב׳, 4 במרץ 2024 ב-10:12 מאת {JUDGE}:\u202c",
    "zh-hans": f"{JUDGE} 于2024年3月4日周一 10:12写道：",
    "zh-hans-apple": "在 2024年3月4日，10:12，PBEM Judge 写道：",
    "zh-hant": f"{JUDGE} 於 2024年3月4日 週一 上午10:12寫道：",
    "ja": f"2024年3月4日(月) 10:12 {JUDGE}:",
    "ja-apple": f"2024/03/04 10:12、{JUDGE}のメッセージ:",
    "ko": f"2024년 3월 4일 (월) 오전 10:12, {JUDGE}님이 작성:",
    "ko-apple": f"2024. 3. 4. 오전 10:12, {JUDGE} 작성:",
    "id": f"Pada tanggal Sen, 4 Mar 2024 10.12, {JUDGE} menulis:",
    "zoho": f"---- On Mon, 04 Mar 2024 10:12:00 +0000 {JUDGE} wrote ----",
    "de-zoho": f"---- Am Mo, 04 Mär 2024 10:12:00 +0000 schrieb {JUDGE} ----",
    "de-yahoo": f"Am Montag, 4. März 2024 um 10:12:00 MEZ hat {JUDGE} Folgendes geschrieben:",
    "en-horde": f"Quoting {JUDGE}:",
    "fi-thunderbird": "PBEM Judge kirjoitti 4.3.2024 klo 10.12:",
    "tr-apple": f"{JUDGE} şunları yazdı (4 Mar 2024 10:12):",
    "ar-thunderbird": "في 04/03/2024 10:12 ص، كتب PBEM Judge:",
    "ja-apple-mail": f"2024/03/04 10:12、{JUDGE}のメール:",
    "ko-thunderbird": "2024-03-04 오전 10:12에 PBEM Judge 이(가) 쓴 글:",
    "no-colon": f"On Mon, 4 Mar 2024 at 10:12 {JUDGE} wrote",
}

# Lines after which the rest is an earlier or forwarded mail.
SEPARATORS = {
    "en": "-----Original Message-----",
    "en-reply": "-----Reply Message-----",
    "en-thunderbird": "-------- Original Message --------",
    "en-apple": "Begin forwarded message:",
    "en-gmail": "---------- Forwarded message ---------",
    "de": "-----Ursprüngliche Nachricht-----",
    "fr": "-------- Message d'origine --------",
    "es": "-----Mensaje original-----",
    "it": "-----Messaggio originale-----",
    "pt": "-----Mensagem original-----",
    "pt-apple": "Início da mensagem encaminhada:",
    "nl": "-----Oorspronkelijk bericht-----",
    "sv": "-----Ursprungligt meddelande-----",
    "da": "-----Oprindelig meddelelse-----",
    "nb": "-----Opprinnelig melding-----",
    "fi": "-----Alkuperäinen viesti-----",
    "pl": "-----Oryginalna wiadomość-----",
    "cs": "-----Původní zpráva-----",
    "sk": "-----Pôvodná správa-----",
    "hu": "-----Eredeti üzenet-----",
    "ro": "-----Mesaj original-----",
    "el": "-----Αρχικό μήνυμα-----",
    "bg": "-----Оригинално съобщение-----",
    "hr": "-----Izvorna poruka-----",
    "sl": "-----Izvirno sporočilo-----",
    "lt": "-----Originalus laiškas-----",
    "lv": "-----Sākotnējais ziņojums-----",
    "et": "-----Algne kiri-----",
    "ca": "-----Missatge original-----",
    "ru": "-------- Пересылаемое сообщение --------",
    "uk": "-----Оригінальне повідомлення-----",
    "tr": "-----Orijinal İleti-----",
    "ar": "-----الرسالة الأصلية-----",
    "he": "-----הודעה מקורית-----",
    "zh-hans": "------------------\u00a0原始邮件\u00a0------------------",
    "zh-hant": "-----原始郵件-----",
    "ja": "-----元のメッセージ-----",
    "ko": "-----원본 메시지-----",
    "id": "-----Pesan Asli-----",
    "ru-apple": "Начало переадресованного сообщения:",
    "zh-netease": "---- Replied Message ----",
    "da-gmail": "-------- Oprindelig besked --------",
}

OLD = ("", "Game 12, turn 3: your orders, please.", "A Argos hold")


def lines(*text: str) -> str:
    return "\n".join(text)


@pytest.mark.parametrize("language", sorted(HEADER_BLOCKS))
def test_header_block_cuts_everything_after(language: str) -> None:
    sender, sent = HEADER_BLOCKS[language]
    text = lines("A Sparta hold", "", sender, sent, "Subject: Game 12", *OLD)
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize("language", sorted(HEADER_BLOCKS))
def test_header_block_below_outlooks_rule_goes_with_it(language: str) -> None:
    sender, sent = HEADER_BLOCKS[language]
    text = lines("A Sparta hold", "_" * 32, sender, sent, *OLD)
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize("language", sorted(HEADER_BLOCKS))
def test_a_from_line_alone_is_the_players_own(language: str) -> None:
    sender, _ = HEADER_BLOCKS[language]
    text = lines(sender, "A Sparta hold", "", "F Gytheio hold", "A Argos hold", "done")
    assert order_lines(text) == text.split("\n")


@pytest.mark.parametrize("language", sorted(ATTRIBUTIONS))
def test_attribution_cuts_the_unmarked_quote_after_it(language: str) -> None:
    text = lines("A Sparta hold", "", ATTRIBUTIONS[language], *OLD)
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize("language", sorted(ATTRIBUTIONS))
def test_attribution_wrapped_before_the_address(language: str) -> None:
    attribution = ATTRIBUTIONS[language]
    if "<" not in attribution:
        assert quote_marks.attribution_span([attribution], 0) == 1
        return
    head, tail = attribution.split("<", 1)
    text = lines("A Sparta hold", "", head + "<", tail, *OLD)
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize("language", sorted(SEPARATORS))
def test_separator_cuts_everything_after(language: str) -> None:
    text = lines("A Sparta hold", "", SEPARATORS[language], f"From: {JUDGE}", *OLD)
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize(
    "chatter",
    [
        "Den här gången skrev jag:",  # "this time I wrote:", no date and no address
        "Bob schrieb: alles halten",
        "Он пишет:",
        "他写道：",
        "In turn 3 Bob wrote:",
        "Original message below is wrong",
        "De: Sparte à Argos",
        "Data: 4 marzo",
        "Bob wrote 3 orders:",
        "Quoting the rules:",
        "12월 7일 명령 작성:",  # "orders written on 7 December:"
        "12月7日のメール:",  # "the mail of 7 December:"
    ],
)
def test_chatter_that_looks_like_a_mark_is_kept(chatter: str) -> None:
    text = lines(chatter, "A Sparta hold", "F Gytheio hold")
    assert order_lines(text) == [chatter, "A Sparta hold", "F Gytheio hold"]


@pytest.mark.parametrize(
    "footer",
    [
        "Sent from my iPhone",
        "Von meinem iPhone gesendet",
        "Envoyé de mon iPhone",
        "Inviato da iPhone",
        "Enviado do meu iPhone",
        "Verzonden vanaf mijn iPhone",
        "Skickat från min iPhone",
        "Sendt fra min iPhone",
        "Lähetetty iPhonesta",
        "Wysłane z iPhone'a",
        "Odesláno z iPhonu",
        "Trimis de pe iPhone",
        "Εστάλη από το iPhone μου",
        "Изпратено от моя iPhone",
        "Poslano s mog iPhonea",
        "Отправлено с iPhone",
        "Надіслано з iPhone",
        "iPhone'umdan gönderildi",
        "\u200fأُرسلت من الـ iPhone الخاص بي",
        "נשלח מה-iPhone שלי",
        "发自我的iPhone",
        "從我的 iPhone 傳送",
        "iPhoneから送信",
        "내 iPhone에서 보냄",
        "Dikirim dari iPhone saya",
        "Enviat des del meu iPhone",
        "Von meinem Samsung Galaxy Smartphone gesendet.",
        "Pobierz aplikację Outlook dla systemu Android",
        "Az iPhone-omról küldve",
        "Envoyé avec la messagerie sécurisée Proton Mail.",
        "Enviado con el correo electrónico seguro de Proton Mail.",
        "קבל את Outlook עבור Android",
        "Android için Outlook'u edinin",
        "发自网易邮箱大师",
        "Envoyé à partir de Outlook pour iOS<https://aka.ms/o0ukef>",
        "Sent from TypeApp<http://www.typeapp.com/r?b=2621>",
    ],
)
def test_mobile_footer_line_goes_and_the_text_around_it_stays(footer: str) -> None:
    assert order_lines(lines("A Sparta hold", footer, "F Gytheio hold")) == [
        "A Sparta hold",
        "F Gytheio hold",
    ]


def test_every_language_named_is_in_the_data() -> None:
    wanted = {"en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "cs", "sk"}
    wanted |= {"hu", "ro", "el", "bg", "hr", "sl", "lt", "lv", "et", "ca", "ru", "uk", "tr"}
    wanted |= {"ar", "he", "zh-hans", "zh-hant", "ja", "ko", "id"}
    assert wanted <= set(quote_marks.languages())


@pytest.mark.parametrize(
    "prefix",
    [
        *("RE:", "FW:", "AW:", "WG:", "TR:", "RV:", "R:", "I:", "RES:", "ENC:", "Antw:"),
        *("SV:", "VB:", "VS:", "VL:", "ODP:", "PD:", "VÁ:", "ΑΠ:", "ΠΡΘ:", "ODG:", "ATB:"),
        *("Ответ:", "ВІДП:", "YNT:", "İLT:", "رد:", "השב:", "回复:", "答复：", "回覆:", "轉寄:"),
        *("返信:", "転送:", "회신:", "전달:", "BLS:", "Re[3]:", "RE :"),
    ],
)
def test_reply_and_forward_prefixes_of_each_language_leave_the_subject(prefix: str) -> None:
    assert subject_line(f"{prefix} [pbem #12] STATUS") == "STATUS"


def test_every_language_says_each_kind_of_mark() -> None:
    # A table that lost a key would be read as knowing no such mark in that language.
    source = resources.files("adjudicator.mail").joinpath("quote_marks.toml")
    table = tomllib.loads(source.read_text(encoding="utf-8"))
    needed = {"from", "sent", "to", "subject", "reply_prefixes", "wrote", "separators", "footers"}
    for language, marks in table.items():
        assert needed <= {key for key, value in marks.items() if value}, language
        assert set(marks) <= needed | {"attributions", "disclaimers", "openings"}, language


@pytest.mark.parametrize("rule", [" " + "-" * 30, "_" * 32, "===="])
def test_a_rule_above_a_header_block_goes_with_it(rule: str) -> None:
    text = lines("A Sparta hold", "", rule, "", f"*From:* {JUDGE}", "*Sent:* Monday", *OLD)
    assert order_lines(text) == ["A Sparta hold"]


@pytest.mark.parametrize(
    "wrapped",
    [
        ("On Nov 21, 2014,", "at 10:18,", f"{JUDGE} wrote:"),
        ("On Wed, Dec 9, PBEM Judge", "<orders@pbem.example>", "wrote:"),
        ("W dniu 4 marca 2024", "o 10:12, PBEM Judge <orders@pbem.example>", "pisze:"),
    ],
)
def test_attribution_wrapped_after_its_opening_word(wrapped: tuple[str, ...]) -> None:
    text = lines("A Sparta hold", "", *wrapped, *OLD)
    assert order_lines(text) == ["A Sparta hold"]


def test_an_opening_word_alone_does_not_join_chatter_to_an_attribution() -> None:
    text = lines("On reflection I hold.", "A Sparta hold", f"On Monday, {JUDGE} wrote:", *OLD)
    assert order_lines(text) == ["On reflection I hold.", "A Sparta hold"]


def test_lines_of_orders_above_an_attribution_are_not_joined_to_it() -> None:
    text = lines("On 3 fronts I attack", "A Sparta hold", f"{JUDGE} wrote:", *OLD)
    assert order_lines(text) == ["On 3 fronts I attack", "A Sparta hold"]
