"""The worked examples' notes and the checker's caption in the page's language: each game's
examples.toml gives every note (and the caption under the checker's picture) in each language it
lists, which must be every language the service writes; a text missing in one refuses the file,
naming it."""

from __future__ import annotations

import html
import tomllib
from importlib import resources
from typing import Any

import pytest
from test_help_pages import check

from adjudicator import i18n
from adjudicator.core import datafile, said
from adjudicator.games import registry
from adjudicator.services.reading import checker
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

GAMES = ("2demayo", "musketpike", "thermopyles")


def raw_examples(key: str) -> dict[str, Any]:
    rules = registry.get(key)
    assert rules is not None
    package = type(rules).__module__.rsplit(".", 1)[0]
    text = resources.files(package).joinpath("examples.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def test_every_file_lists_every_language_the_service_writes() -> None:
    others = [lang for lang in i18n.languages() if lang != i18n.SOURCE]
    for key in GAMES:
        raw = raw_examples(key)
        assert raw["translated"] == others, key
        # Read, each note is the English where nobody asks for another language.
        samples = checker.read_samples(raw, key)
        assert [str(e.note) for e in samples.examples] == [e["note"] for e in raw["examples"]]


def test_a_note_or_caption_missing_in_a_language_refuses_the_file() -> None:
    raw = raw_examples("2demayo")
    del raw["examples"][1]["note_ru"]
    raw["examples"][3]["note_es"] = ""
    del raw["preview_caption_es"]
    with pytest.raises(datafile.DataError) as refused:
        checker.read_samples(raw, "2demayo examples")
    assert [(p.code, p.message) for p in refused.value.problems] == [
        ("missing-translation", "examples[1].note_ru (its ru text) is missing"),
        ("missing-translation", "examples[3].note_es (its es text) is missing"),
        ("missing-translation", "file.preview_caption_es (its es text) is missing"),
    ]
    assert str(refused.value).startswith("2demayo examples: [missing-translation]")


@pytest.mark.parametrize("lang", ["ru", "es"])
def test_the_help_pages_notes_and_the_checkers_caption_are_in_the_pages_language(
    runtime: Runtime, lang: str
) -> None:
    web = create_app(runtime).test_client()
    for key in GAMES:
        raw = raw_examples(key)
        page = html.unescape(web.get(f"/help/{key}?lang={lang}").get_data(as_text=True))
        for example in raw["examples"]:
            assert f"<td>{example[f'note_{lang}']}</td>" in page, (key, example)
            assert f"<td>{example['note']}</td>" not in page
        # The checker's caption under its picture of orders checked.
        sample = raw["examples"][0]
        # The checker's answer to an example posted from its form.
        url = f"/help/{key}/check?lang={lang}"
        shown = html.unescape(check(web, url, sample["text"], sample["seat"]))
        caption = " ".join(raw[f"preview_caption_{lang}"].split())
        english = " ".join(raw["preview_caption"].split())
        assert caption in shown, (key, lang)
        assert english not in shown
    rules = registry.get("2demayo")
    assert rules is not None
    with i18n.speaking(lang):
        notes = [said.anew(example.note) for example in checker.samples(rules).examples]
    assert notes[0] == raw_examples("2demayo")["examples"][0][f"note_{lang}"]
