"""The 2 de Mayo map's text is stamped (``core.stamps``): the same pixels as Pillow drawing every
text itself, on every view of the render tests, at both scales, the base layer included."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import Image
from test_dos_de_mayo_render import ALL_VIEWS

from adjudicator.core import picture as kit
from adjudicator.core.stamps import STAMPS
from adjudicator.games.dos_de_mayo import render, render_art


@pytest.fixture
def fresh_layers() -> Iterator[None]:
    """The base layers drawn anew for the test and again after it, as they would be."""
    render.layer.cache_clear()
    yield
    render.layer.cache_clear()


def drawn(name: str, scale: int) -> Image.Image:
    render.layer.cache_clear()
    return render.picture(ALL_VIEWS[name], scale)


@pytest.mark.parametrize("scale", [1, 2])
def test_stamped_text_gives_the_pixels_pillow_draws(
    scale: int, fresh_layers: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    STAMPS.clear()
    stamped = {name: drawn(name, scale).tobytes() for name in ALL_VIEWS}
    # Again with every stamp made before: what a long-running worker draws.
    assert {name: drawn(name, scale).tobytes() for name in ALL_VIEWS} == stamped
    monkeypatch.setattr(render_art, "StampCanvas", kit.Canvas)
    for name in ALL_VIEWS:
        assert drawn(name, scale).tobytes() == stamped[name], name
