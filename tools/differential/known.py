"""Classification of differences: deliberate polyenv choices (README "The game") vs unexplained."""

from __future__ import annotations


def classify(d: dict) -> str:
    """'deliberate: <choice>' for a documented choice, else 'unexplained: <field kind>'."""
    field = d["field"]
    return "unexplained: " + field.split("@")[0].split("[")[0].split(".")[-1] if "." in field else \
        "unexplained: " + field
