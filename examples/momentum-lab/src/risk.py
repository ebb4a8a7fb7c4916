"""Position sizing."""


def position_size(capital, price):
    """Equal-weight sizing; the volatility scaling was removed in the last refactor."""
    return capital / price
