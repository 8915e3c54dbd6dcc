"""What the benchmark is given by the console above sim/ (ttt): each board's build
report (make bitstream's), the time from a key's click to the LEDs' answer on make
serve's page, measured in a browser, and make serve under a classroom's load."""

__all__ = ["board_reports", "browser", "classroom"]


def board_reports(boards):
    """Each of `boards`' report from make bitstream, or a row that says how to make it."""
    return [board.report() or {"board": board.name, "missing": f"no build: {board.command}"}
            for board in boards]


def browser(web, quick, log):
    """The console in a browser, measured by `web()` (its figures, or ``missing`` and
    why), unless quick."""
    if quick:
        return {"missing": "not run with --quick"}
    if web is None:
        return {"missing": "not measured: ttt benchmark measures it"}
    log("the console in a browser: click to lights")
    return web()


def classroom(measured, quick, log):
    """The server under a classroom's load, measured by `measured()`, unless quick."""
    if quick:
        return {"missing": "not run with --quick"}
    if measured is None:
        return {"missing": "not measured: ttt benchmark measures it"}
    log("the console under a classroom's load")
    return measured()
