"""The project's targets for its speeds, and how far a benchmark's figures are from
them: ratios of the rows, reported, never asserted (nothing fails for being slow)."""

from .speeds import CHECKED
from .timing import GOLDEN, speed, title
from .workload import one_chip_mode

__all__ = ["TARGETS", "targets"]

TARGETS = {"compiled_over_amaranth": 100, "all_games_seconds": 10,
           "golden_batch_cycles_per_s": 1_000_000, "click_to_led_ms": 100,
           "checked_lanes_over_plain_verilator": 10}


def targets(result):
    """The measured side of each target, from `result`'s rows (None where a row has no
    figure), and the targets wanted."""
    same = one_chip_mode(result["workload"]["sessions"])
    amaranth = speed(result["speed"], title("amaranth"), same)
    compiled = speed(result["speed"], title("compiled"), same)
    golden = max(filter(None, (row.get("cycles_per_s") for row in result["speed"]
                               if row["simulator"] == GOLDEN)), default=None)
    games = next((row for row in result["all_games"]
                  if row["simulator"].startswith(title("compiled")) and "seconds" in row),
                 None)
    checked = next((row for row in result["speed"] if row["mode"].endswith(CHECKED)
                    and "over_plain_verilator" in row), None)
    return {
        "checked_lanes_over_plain_verilator": checked and checked["over_plain_verilator"],
        "compiled_over_amaranth": None if not (amaranth and compiled) else compiled / amaranth,
        "all_games_compiled_seconds": games and games["seconds"],
        "golden_batch_cycles_per_s": golden,
        "click_to_led_median_ms": result["web"].get("median_ms"),
        "wanted": TARGETS,
    }
