"""The picture kit: fonts, text wrapped to a width, a scaled canvas, dashes, palettes, PNG bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from adjudicator.core import picture

REGULAR = ("DejaVuSansCondensed.ttf", "LiberationSansNarrow-Regular.ttf", "DejaVuSans.ttf")


def test_a_missing_font_falls_back_to_pillows_own_and_is_cached() -> None:
    face = picture.font(14, ("no-such-font-anywhere.ttf",))
    assert picture.is_built_in(face)
    assert picture.font(14, ("no-such-font-anywhere.ttf",)) is face
    assert picture.font(14) is picture.font(14)
    assert picture.font(14) is not picture.font(15)


def test_the_first_font_found_is_used() -> None:
    face = picture.font(14, ("no-such-font-anywhere.ttf", *REGULAR))
    try:
        expected = next(
            ImageFont.truetype(name, 14).getname() for name in REGULAR if _present(name)
        )
    except StopIteration:
        pytest.skip("none of the art fonts is installed here")
    assert isinstance(face, ImageFont.FreeTypeFont) and face.getname() == expected
    assert not picture.is_built_in(face)


def _present(name: str) -> bool:
    try:
        ImageFont.truetype(name, 10)
    except OSError:
        return False
    return True


def test_accents_are_dropped_only_where_the_font_cannot_show_them() -> None:
    built_in = picture.font(12)
    assert picture.plain("José Blas Molina · Ñ", built_in) == "Jose Blas Molina · N"
    real = picture.font(12, REGULAR)
    if not picture.is_built_in(real):
        assert picture.plain("José", real) == "José"


def test_wrap_keeps_every_word_and_each_line_within_the_width() -> None:
    face = picture.font(12)
    assert picture.wrap("short", face, 200) == ["short"]
    text = "a rather long card name that cannot fit"
    lines = picture.wrap(text, face, 80)
    assert len(lines) > 1 and " ".join(lines) == text
    assert all(picture.length(line, face) <= 80 for line in lines)
    # A word wider than the width is kept whole on a line of its own.
    assert picture.wrap("unbreakable word", face, 5) == ["unbreakable", "word"]


def test_recording_lists_each_label_with_its_size_and_only_inside() -> None:
    face = picture.font(12)
    draw = ImageDraw.Draw(Image.new("RGB", (200, 30)))
    with picture.recording() as drawn:
        picture.label(draw, (2, 2), "Calle Mayor", face, (0, 0, 0))
    picture.label(draw, (2, 2), "outside", face, (0, 0, 0))
    [one] = drawn
    assert (one.text, one.size) == ("Calle Mayor", 12.0)
    # Its box: where the words lie, from the point it was drawn at, as wide as they measure.
    left, top, right, bottom = one.box
    assert 2 <= left < 6 and 2 <= top < bottom <= 2 + 16
    assert right - left == pytest.approx(picture.length("Calle Mayor", face), abs=3)


def test_a_canvas_at_scale_two_draws_the_same_picture_twice_as_large() -> None:
    def drawing(scale: int) -> Image.Image:
        image = Image.new("RGB", (60 * scale, 30 * scale), (255, 255, 255))
        canvas = picture.Canvas(image, scale)
        canvas.rectangle((5, 5, 25, 25), fill=(0, 0, 0))
        picture.label(canvas, (30, 15), "x", picture.font(12), (0, 0, 0), "lm")
        return image

    one, two = drawing(1), drawing(2)
    assert two.size == (2 * one.width, 2 * one.height)
    assert two.crop((10, 10, 50, 50)).getcolors() == [(1600, (0, 0, 0))]
    ink = Image.eval(two, lambda value: 255 - value).crop((60, 0, 120, 60)).getbbox()
    small = Image.eval(one, lambda value: 255 - value).crop((30, 0, 60, 30)).getbbox()
    assert ink is not None and small is not None
    assert abs((ink[3] - ink[1]) - 2 * (small[3] - small[1])) <= 2


def test_dashes_run_on_round_corners_or_restart_on_each_segment() -> None:
    corner = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]
    running = picture.dashes(corner, 4, 4)
    assert running[0] == ((0.0, 0.0), (4.0, 0.0))
    assert running[1] == ((8.0, 0.0), (10.0, 0.0))
    assert running[2] == ((10.0, 0.0), (10.0, 2.0))  # the dash goes on round the corner
    fresh = picture.dashes(corner, 4, 4, restart=True)
    assert ((10.0, 0.0), (10.0, 4.0)) in fresh  # a whole dash starts the second segment
    assert picture.dashes([(1.0, 1.0), (1.0, 1.0)], 4, 4) == []


def test_a_palette_keeps_the_given_colours_in_order() -> None:
    colours = [(10, 20, 30), (200, 100, 0), (255, 255, 255)]
    palette = picture.palette_of(colours)
    assert picture.colours_of(palette)[:3] == colours
    many = [(i, i, i) for i in range(256)] + [(1, 2, 3)]
    assert len(picture.colours_of(picture.palette_of(many))) == picture.MAX_PALETTE


def test_keeping_puts_the_exact_colours_first_and_every_pixel_near_its_own() -> None:
    image = Image.new("RGB", (40, 20), (250, 240, 230))
    draw = ImageDraw.Draw(image)
    draw.ellipse((2, 2, 18, 18), fill=(43, 76, 155))
    draw.text((22, 4), "ab", fill=(178, 34, 34), font=picture.font(12))
    exact = [(43, 76, 155), (178, 34, 34), (250, 240, 230)]
    indexed = picture.keeping(image, exact)
    assert indexed.mode == "P"
    assert picture.colours_of(indexed)[:3] == exact
    # Pillow maps each pixel through a coarse colour cache, so near is all it promises.
    spread = ImageChops.difference(indexed.convert("RGB"), image).getextrema()
    assert all(high <= 8 for _, high in spread)


def test_png_bytes_decode_to_the_same_pixels_for_every_encoding() -> None:
    image = Image.new("RGB", (30, 30), (255, 255, 255))
    ImageDraw.Draw(image).rectangle((5, 5, 20, 20), fill=(0, 128, 0))
    palette = picture.palette_of([(255, 255, 255), (0, 128, 0)])
    for indexed, options in (
        (image, picture.SMALLEST),
        (picture.on_palette(image, palette), picture.PLAIN),
        (picture.reduced(image, 8), picture.SMALLEST),
        (picture.on_palette(image, palette), picture.BALANCED),
        (picture.on_palette(image, palette), picture.QUICK),
    ):
        data = picture.png(indexed, options)
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        decoded = Image.open(io.BytesIO(data)).convert("RGB")
        assert decoded.tobytes() == image.tobytes()
    assert picture.png(image) == picture.png(image, picture.SMALLEST)


def _striped(colours: int, size: tuple[int, int] = (37, 11)) -> Image.Image:
    """A palette picture of ``colours`` entries, every entry used, rows of odd widths."""
    image = Image.new("P", size)
    image.putpalette(
        [(index * 37 + channel * 91) % 256 for index in range(colours) for channel in range(3)]
    )
    image.putdata([(x * 7 + y * 3) % colours for y in range(size[1]) for x in range(size[0])])
    return image


@pytest.mark.parametrize("colours", [1, 2, 3, 4, 5, 16, 17, 60, 256])
def test_a_palette_picture_is_written_as_pillow_writes_it_to_the_same_pixels(colours: int) -> None:
    image = _striped(colours)
    data = picture.png(image, picture.BALANCED)
    written = io.BytesIO()
    image.save(written, format="PNG")
    ours, pillows = Image.open(io.BytesIO(data)), Image.open(written)
    # The same kind of PNG: palette, bits per pixel and palette entries as Pillow's own.
    assert (ours.mode, ours.size, ours.getpalette()) == (
        pillows.mode,
        pillows.size,
        pillows.getpalette(),
    )
    assert data[24:26] == written.getvalue()[24:26]  # bit depth and colour type
    assert ours.tobytes() == image.tobytes()


def test_every_level_decodes_and_a_higher_one_is_never_larger_on_a_map_like_picture() -> None:
    image = Image.new("RGB", (300, 200), (238, 231, 214))
    draw = ImageDraw.Draw(image)
    for x in range(0, 300, 40):
        draw.rounded_rectangle(
            (x, 20, x + 30, 180), 6, fill=(253, 250, 242), outline=(120, 100, 80)
        )
        draw.text((x + 4, 30), "Sol", fill=(44, 36, 30))
    indexed = picture.reduced(image, 32)
    sizes = []
    for level in range(1, 10):
        data = picture.png(indexed, {"compress_level": level})
        assert Image.open(io.BytesIO(data)).tobytes() == indexed.tobytes()
        sizes.append(len(data))
    assert sizes[-1] <= sizes[0]
    assert picture.png(indexed, {"optimize": True}) == picture.png(indexed, {"compress_level": 9})


def test_a_picture_with_more_than_a_palette_to_carry_is_left_to_pillow() -> None:
    image = _striped(4)
    image.info["transparency"] = 0
    assert b"tRNS" in picture.png(image)
    assert not picture.png(image.convert("RGB")).count(b"PLTE")
