"""Momentum signal: rank stocks by their past twelve-month return."""


def momentum_signal(returns, lookback=12, skip_recent_month=True):
    """Cumulative return over the lookback window, skipping the latest month when asked."""
    window = returns[-lookback - 1 : -1] if skip_recent_month else returns[-lookback:]
    total = 1.0
    for r in window:
        total *= 1.0 + r
    return total - 1.0
