"""How dates and times read on every page, PDF and message of the room (English, the casino's language): one date
format, "Nov 24, 2026", and one date-and-time format, "Nov 24, 2026 09:55" (24-hour clock, as the floor's logs).

Django reads these for the active language (settings.FORMAT_MODULE_PATH; localization is always on in Django 5):
`{{ day }}` and `{{ day|date }}` write DATE_FORMAT, `{{ moment }}` and `{{ moment|date:"DATETIME_FORMAT" }}` write
DATETIME_FORMAT. The formats not named here (the input formats of forms among them) are Django's own for English.
Machine text (CSV, JSON, URLs, data attributes) writes ISO 8601, never these."""

DATE_FORMAT = "M j, Y"
DATETIME_FORMAT = "M j, Y H:i"
TIME_FORMAT = "H:i"
SHORT_DATE_FORMAT = "M j, Y"
SHORT_DATETIME_FORMAT = "M j, Y H:i"
MONTH_DAY_FORMAT = "M j"
YEAR_MONTH_FORMAT = "M Y"
