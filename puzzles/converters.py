import datetime


class IsoDateConverter:
    """A YYYY-MM-DD path segment as a date; a malformed or impossible date is a 404."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> datetime.date:
        try:
            return datetime.date.fromisoformat(value)
        except ValueError as exc:  # e.g. 2026-02-30
            raise ValueError(str(exc)) from exc

    def to_url(self, value: datetime.date) -> str:
        return value.isoformat()
