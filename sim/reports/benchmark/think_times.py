"""The chip's think time per move over every position a user can reach (the golden
model, sim.chip.games), its figures and a histogram (PNG)."""

import numpy as np

from firmware_ref.cli import replacing

from sim import ROOT
from sim.chip import games

__all__ = ["EDGES", "think_times"]

# The histogram's bins, in cycles, as the report's table lists them.
EDGES = [0, 10, 30, 100, 300, 1000, 3000, 6000, 10000, 20000]


def think_times(png):
    """The think times' figures; their histogram is drawn into `png`."""
    report = games.survey()
    per_position = np.array([m.cycles for m in report.positions.values()])
    worst = max(report.positions.values(), key=lambda m: m.cycles)
    counts, _ = np.histogram(per_position, bins=EDGES)
    _plot(per_position, png)
    return {"positions": len(per_position), "moves_in_all_games": len(report.cycles_per_move),
            "worst": int(worst.cycles), "worst_position": list(worst.board),
            "mean_per_position": float(per_position.mean()),
            "mean_per_move_of_all_games": float(np.mean(report.cycles_per_move)),
            "median": float(np.median(per_position)),
            "p90": float(np.percentile(per_position, 90)),
            "p99": float(np.percentile(per_position, 99)),
            "bins": [[EDGES[k], EDGES[k + 1], int(counts[k])] for k in range(len(counts))],
            "png": str(png.relative_to(ROOT) if png.is_relative_to(ROOT) else png)}


def _plot(cycles, png):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot
    figure, axes = pyplot.subplots(figsize=(8, 4.5), dpi=100)
    bins = np.logspace(0, np.log10(max(cycles.max(), 10) * 1.1), 40)
    axes.hist(cycles, bins=bins, color="#3b6ea5", edgecolor="white")
    axes.set_xscale("log")
    axes.set_yscale("log")     # the slow positions are few: let them show
    axes.set_xlabel("think time of the chip's move, clock cycles (log scale)")
    axes.set_ylabel("positions (log scale)")
    axes.set_title(f"Think time over all {len(cycles)} positions a user can reach")
    axes.axvline(6000, color="#c0392b", linestyle="--", linewidth=1)
    axes.text(6000, axes.get_ylim()[1] * 0.9, " 1 ms at 6 MHz", color="#c0392b")
    figure.tight_layout()
    with replacing(png, "wb") as file:
        figure.savefig(file, format="png")
    pyplot.close(figure)
