import math


def span(lo: float, hi: float) -> float:
    """Width of the range [lo, hi] – never negative."""
    return hi - lo


def mean(values: list[float]) -> float:
    return sum(values) / len(values)
