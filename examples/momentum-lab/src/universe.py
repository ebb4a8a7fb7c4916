"""Investable universe."""

MIN_PRICE = 5.0


def investable(price, listed):
    """Listed stocks priced at or above five dollars."""
    return listed and price >= MIN_PRICE
