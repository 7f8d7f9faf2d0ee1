"""Reading what a made PDF says about its pages, as a printer would: each page's size (its /MediaBox) in points."""
import re
import zlib

_STREAM = re.compile(rb"<<(?P<dict>(?:(?!>>\s*stream).)*?)>>\s*stream\r?\n(?P<data>.*?)\r?\nendstream", re.DOTALL)
_MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]")


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """(width, height) in points (1/72 inch) of each page box of `pdf`, in the order the file holds them: the page
    objects written as they are and those inside compressed object streams (weasyprint writes PDF 1.7 with object
    streams). US Letter is (612, 792), landscape (792, 612); A4 (595.28, 841.89)."""
    texts = [pdf]
    for stream in _STREAM.finditer(pdf):
        if b"/FlateDecode" in stream.group("dict"):
            try:
                texts.append(zlib.decompress(stream.group("data")))
            except zlib.error:
                continue
    return [(float(x1) - float(x0), float(y1) - float(y0))
            for text in texts for x0, y0, x1, y1 in _MEDIA_BOX.findall(text)]
