"""A worker loads what its tasks need before it forks its pool (adjudicator/preload.py)."""

from __future__ import annotations

import pytest
from celery import signals
from jinja2 import FileSystemLoader

from adjudicator import preload, templating
from adjudicator.games import registry
from workers import app  # noqa: F401  (connects the worker's signals)


def mail_templates(suffix: str) -> list[str]:
    names = FileSystemLoader(templating.TEMPLATES).list_templates()
    return [name for name in names if templating.is_mail_template(name) and name.endswith(suffix)]


def test_after_preload_every_mail_template_is_compiled_and_the_disk_is_not_read_again() -> None:
    wanted = {".txt": mail_templates(".txt"), ".html": mail_templates(".html")}
    assert len(wanted[".txt"]) > 20 and len(wanted[".html"]) > 20
    preload.preload()

    def no_disk(*_: object) -> None:
        raise AssertionError("a mail template was read from the disk after preload")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FileSystemLoader, "get_source", no_disk)
        for environment, suffix in (
            (templating.text_environment(), ".txt"),
            (templating.html_environment(), ".html"),
        ):
            for name in wanted[suffix]:
                assert environment.get_template(name).name == name


def test_preload_loads_every_game_and_the_worker_runs_it_before_forking() -> None:
    preload.preload()
    assert set(registry.games()) == {"2demayo", "musketpike", "thermopyles"}
    calls: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(preload, "preload", lambda: calls.append("preload"))
        # What Celery sends in a worker's main process before the pool starts.
        signals.worker_init.send(sender=None)
    assert calls == ["preload"]
