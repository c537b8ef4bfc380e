"""What the fairness page's own check (static/fairness.js) says, in the page's language.

The script is one file for every reader, cached as such; the page hands it its sentences as a
JSON block, written here in the page's language. The counts the server knows (the draws, the
contributions) are filled in here; what only the browser finds out is a ``{name}`` the script
fills: the values recorded and replayed, an error's detail, and how many draws differ, whose
sentence is given in each plural form the language has, keyed by the CLDR category the
browser's ``Intl.PluralRules`` picks for the count.
"""

from __future__ import annotations

from collections.abc import Callable

from babel import Locale

from adjudicator import i18n
from adjudicator.web import languages

# Numbers tried for an example of each plural category of a language (Russian's "few" is 2).
SAMPLES = range(200)


def plural_forms(form: Callable[[int], str], lang: str, **values: object) -> dict[str, str]:
    """A sentence in each plural category of ``lang`` ("one", "few", "many", "other"): ``form``
    gives the catalog's form for a count, its count left as ``{num}`` for the script to fill."""
    rule = Locale.parse(lang).plural_form
    forms: dict[str, str] = {}
    for sample in SAMPLES:
        forms.setdefault(rule(sample), form(sample) % {"num": "{num}", **values})
    return forms


def words(draws: int, contributions: int, scheme: str) -> dict[str, object]:
    """Every sentence the script shows for a game of ``draws`` recorded draws, keyed by use."""
    lang = languages.current()
    _ = i18n.translator(lang)
    if scheme == "v2":
        how = i18n.ngettext(
            "the key made from the seed and %(num)s player contribution",
            "the key made from the seed and %(num)s player contributions",
            contributions,
            lang,
        )
        good = i18n.ngettext(
            "✓ Checked on your machine: the seed hashes to the commitment, and %(how)s "
            "reproduces the %(num)s recorded draw.",
            "✓ Checked on your machine: the seed hashes to the commitment, and %(how)s "
            "reproduces all %(num)s recorded draws.",
            draws,
            lang,
            how=how,
        )
    else:
        how = _("the seed")
        good = i18n.ngettext(
            "✓ Checked on your machine: the seed hashes to the commitment and reproduces the "
            "%(num)s recorded draw.",
            "✓ Checked on your machine: the seed hashes to the commitment and reproduces all "
            "%(num)s recorded draws.",
            draws,
            lang,
        )
    return {
        "checking": _("Checking every draw on your machine…"),
        "nothing": _("Nothing to check yet: the seed is revealed when the game ends."),
        "checked": _("✓ checked on your machine"),
        "differs": _("✗ differs"),
        "detail": _(
            "recorded %(recorded)s; your machine gives %(replayed)s",
            recorded="{recorded}",
            replayed="{replayed}",
        ),
        "good": good,
        "different": _("✗ Your machine finds a difference:"),
        "seed": _("the seed does not hash to the commitment."),
        # Counted by the draws that differ, which only the browser knows.
        "wrong": plural_forms(
            lambda n: i18n.translations(lang).ngettext(
                "%(num)s of %(draws)s recorded draws differs from what %(how)s gives "
                "(marked below).",
                "%(num)s of %(draws)s recorded draws differ from what %(how)s gives "
                "(marked below).",
                n,
            ),
            lang,
            draws=draws,
            how=how,
        ),
        "unable": _(
            "Your browser cannot check here: it offers its Web Crypto only to secure (HTTPS) "
            "pages, or this browser has none. The server's own check is below; "
            "`pbem verify --file` checks the record on your computer."
        ),
        "failed": _(
            "Your machine could not check: %(error)s. The server's own check is below.",
            error="{error}",
        ),
        # Why the check could not be made, as the script finds it.
        "answered": _("the record answered %(answer)s", answer="{answer}"),
        "not_hex": _("the seed is not hex"),
        "scheme": _("unknown chance scheme %(scheme)s", scheme="{scheme}"),
        "kind": _("unknown kind of draw %(kind)s", kind="{kind}"),
        "no_draw": _("no draw in 64 steps"),
    }
