"""What the benchmark is given by the console above sim/ (ttt): each board's build
report (make bitstream's), the time from a key's click to the LEDs' answer on make
serve's page, measured in a browser, and make serve under a classroom's load."""

__all__ = ["board_reports", "measured"]


def board_reports(boards):
    """Each of `boards`' report from make bitstream, or a row that says how to make it."""
    return [board.report() or {"board": board.name, "missing": f"no build: {board.command}"}
            for board in boards]


def measured(measure, what, quick, log):
    """The figures `measure()` gives (or ``missing`` and why), said in the log as
    `what`; none with --quick (a browser and a server's load take minutes)."""
    if quick:
        return {"missing": "not run with --quick"}
    if measure is None:
        return {"missing": "not measured: ttt benchmark measures it"}
    log(what)
    return measure()
