"""Momentum signal: rank stocks by their past twelve-month return."""


def momentum_signal(returns, lookback=12, skip_recent_month=1):
    """Cumulative return over the lookback window, skipping the most recent month."""
    end = len(returns) - skip_recent_month
    window = returns[end - lookback : end]
    total = 1.0
    for r in window:
        total *= 1.0 + r
    return total - 1.0
