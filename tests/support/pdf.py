"""Reading what a made PDF says about its pages, as a printer would: each page's size (its /MediaBox) in points,
read by pypdf (object streams, compressed cross-reference streams and inherited page boxes included)."""
import io

from pypdf import PdfReader


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """(width, height) in points (1/72 inch) of each page of `pdf`, in page order. US Letter is (612, 792), landscape
    (792, 612); A4 (595.28, 841.89). Raises pypdf.errors.PdfReadError when `pdf` is not a readable PDF."""
    return [(round(float(page.mediabox.width), 6), round(float(page.mediabox.height), 6))
            for page in PdfReader(io.BytesIO(pdf), strict=True).pages]
