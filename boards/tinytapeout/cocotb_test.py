"""The Tiny Tapeout project's cocotb test, test/test.py as TT's template runs it: games
played on the tt_um pins, through the UART and through the chip's own pins, each answer
compared with the golden model's (docs/tinytapeout.md).

`make tinytapeout` writes this file with `PROJECT` filled in: the pins, the clocks of a
UART bit and the golden model's games, so that it runs with cocotb alone, as TT's
workflow runs it. The line ``PROJECT = {}`` is the one it replaces.
"""

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, with_timeout

PROJECT = {}

# TT_GAMES=all plays every game; the default is the first of each kind.
GAMES = slice(None) if os.environ.get("TT_GAMES") == "all" else slice(1)


def clock(dut):
    period = round(1e9 / PROJECT["clock_hz"])
    cocotb.start_soon(Clock(dut.clk, period, unit="ns").start())


async def reset(dut):
    dut.ena.value = 1
    dut.ui_in.value = 1 << PROJECT["rx"]       # the UART's line idles high
    dut.uio_in.value = 0
    dut.rst_n.value = 0
    await ClockCycles(dut.clk, 10)
    dut.rst_n.value = 1
    await ClockCycles(dut.clk, 10)


async def send(dut, text):
    bit, rx = PROJECT["bit_cycles"], PROJECT["rx"]
    for byte in text.encode():
        for level in [0, *((byte >> n) & 1 for n in range(8)), 1]:
            dut.ui_in.value = level << rx
            await ClockCycles(dut.clk, bit)


async def receive_line(dut):
    """The bytes on TX up to a newline, each sampled in the middle of its bits."""
    bit, tx = PROJECT["bit_cycles"], PROJECT["tx"]
    line = b""
    while not line.endswith(b"\n"):
        await FallingEdge(dut.uart_tx)
        await ClockCycles(dut.clk, bit // 2)
        byte = 0
        for n in range(8):
            await ClockCycles(dut.clk, bit)
            byte |= (int(dut.uo_out.value) >> tx & 1) << n
        await ClockCycles(dut.clk, bit)
        assert int(dut.uo_out.value) >> tx & 1, f"a broken stop bit after {line!r}"
        line += bytes([byte])
    return line.decode().strip()


def answer_ns():
    """The longest an answer may take: the slowest move, then a line of 40 bytes."""
    clocks = PROJECT["patience"] + 40 * 10 * PROJECT["bit_cycles"]
    return round(clocks * 1e9 / PROJECT["clock_hz"])


@cocotb.test()
async def test_uart(dut):
    """Games through the host link, frame by frame as `make play-board` sends them."""
    clock(dut)
    for game in PROJECT["uart_games"][GAMES]:
        await reset(dut)
        for frame, expected in game:
            # The answer may begin before the frame's last stop bit ends.
            answering = cocotb.start_soon(receive_line(dut))
            await send(dut, frame + "\r")
            answer = await with_timeout(answering, answer_ns(), "ns")
            dut._log.info(f"{frame} -> {answer}")
            assert answer == expected, f"{frame}: {answer!r}, the golden model {expected!r}"


def lamps(dut):
    out = int(dut.uo_out.value)
    return "".join(str(out >> pin & 1) for pin in PROJECT["lamps"])


async def read_board(dut):
    """The board as the display shows it, a row at a time: `.` `O` (the chip) `X`."""
    rows = {}
    while len(rows) < 3:
        await ClockCycles(dut.clk, 64)
        out, uio = int(dut.uo_out.value), int(dut.uio_out.value)
        for row, pin in enumerate(PROJECT["rows"]):
            if out >> pin & 1:
                rows[row] = "".join(
                    ".OX*"[(uio >> red & 1) | (uio >> green & 1) << 1]
                    for red, green in zip(PROJECT["red"], PROJECT["green"]))
    return "|".join(rows[row] for row in range(3))


async def settle(dut):
    """Clocks until the chip prompts for a key or has finished."""
    for _ in range(PROJECT["patience"] // 64):
        await ClockCycles(dut.clk, 64)
        if lamps(dut)[:2] != "00":
            return
    raise AssertionError("the chip neither prompts nor finishes")


@cocotb.test()
async def test_pins(dut):
    """Games through the chip's own pins: a place index and its strobe per key."""
    clock(dut)
    for game in PROJECT["pin_games"][GAMES]:
        await reset(dut)
        await settle(dut)
        for key, board, expected in game:
            press = 1 << PROJECT["strobe"] | key << PROJECT["index"]
            dut.ui_in.value = 1 << PROJECT["rx"] | press
            await ClockCycles(dut.clk, 16)
            dut.ui_in.value = 1 << PROJECT["rx"]
            await settle(dut)
            shown = (await read_board(dut), lamps(dut))
            dut._log.info(f"key {key} -> {shown}")
            assert shown == (board, expected), f"key {key}: {shown}, the golden model " \
                f"{(board, expected)}"
