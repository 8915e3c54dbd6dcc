"""The desk's blocks (boards/gateware/) one at a time, each against a statement of what
its docstring says it does: every chord and single key of the panel, the cartridge slots,
the pending key, the position, the switches, the think time and the new games, on random
inputs. tests/test_desk_sim.py and tests/test_box.py play whole games on the desk."""

import random

from bench import simulate

from boards.gateware.command import Command
from boards.gateware.key_event import KeyEvent
from boards.gateware.new_game import NewGame
from boards.gateware.pending_key import PendingKey
from boards.gateware.position import Position
from boards.gateware.slots import Slots
from boards.gateware.switches import Switches
from boards.gateware.think_time import CYCLES_MAX, ThinkTime
from hdl.cartridge import SETTLE, SWITCHES

EMPTY, MACHINE, PERSON = 0, 1, 2        # a place: red (bit 0) the machine's, green the person's


def drive(ctx, dut, **values):
    for name, value in values.items():
        ctx.set(getattr(dut, name), value)


def host(ctx, dut, rng, chance, **argument):
    """A command at random on the block's command bus for this clock, ``valid`` with
    `chance`, with `argument`: the block acts on its own commands when valid and on
    nothing else. Returns the command, or None when not valid."""
    command, valid = rng.choice(list(Command)), rng.random() < chance
    drive(ctx, dut.commands, valid=valid, command=command, argument=argument)
    return command if valid else None


def test_a_panel_key_alone_is_an_event_and_a_chord_is_none():
    dut = KeyEvent()
    rng = random.Random(6)

    async def bench(ctx):
        for closing in range(1 << 9):
            drive(ctx, dut, closing=closing, agree=0)
            await ctx.tick().repeat(2)      # the count is registered twice
            assert not ctx.get(dut.events.valid)    # nothing without the debouncer
            ctx.set(dut.agree, 1)
            alone = bin(closing).count("1") == 1
            assert ctx.get(dut.events.valid) == alone, f"{closing:09b}"
            assert ctx.get(dut.events.payload) == closing
            # The host's key wins, whatever the panel does; its other commands do nothing.
            key = 1 << closing % 9
            command = host(ctx, dut, rng, 1, key=key)
            if command == Command.KEY:
                assert (ctx.get(dut.events.valid), ctx.get(dut.events.payload)) == (1, key)
            else:
                assert ctx.get(dut.events.valid) == (bin(closing).count("1") == 1)
            ctx.set(dut.commands.valid, 0)

    simulate(dut, bench)


def test_the_cartridge_playing_has_the_slot_and_the_others_are_idle():
    count = 3
    dut = Slots(count)
    rng = random.Random(7)
    shown = ("ready", "busy", "over", "lamps")

    async def bench(ctx):
        for _ in range(500):
            game = rng.randrange(count)
            ctx.set(dut.game, game)
            sides = []
            for slot in dut.slots:
                side = {name: rng.getrandbits(len(getattr(slot, name))) for name in shown}
                side.update(board=rng.getrandbits(18), tx_valid=rng.getrandbits(1),
                            tx_payload=rng.getrandbits(8), rx_ready=rng.getrandbits(1))
                drive(ctx, slot, **{name: side[name] for name in shown})
                ctx.set(slot.board.as_value(), side["board"])
                drive(ctx, slot.tx, valid=side["tx_valid"], payload=side["tx_payload"])
                ctx.set(slot.rx.ready, side["rx_ready"])
                sides.append(side)
            key, start = 1 << rng.randrange(9), rng.getrandbits(1)
            position, switches = rng.getrandbits(18), rng.getrandbits(SWITCHES)
            drive(ctx, dut.playing, key=key, start=start, switches=switches)
            ctx.set(dut.playing.position.as_value(), position)
            drive(ctx, dut.playing.rx, valid=1, payload=0x55)
            ctx.set(dut.playing.tx.ready, 1)
            side = sides[game]
            for name in shown:
                assert ctx.get(getattr(dut.playing, name)) == side[name]
            assert ctx.get(dut.playing.board.as_value()) == side["board"]
            assert (ctx.get(dut.playing.tx.valid), ctx.get(dut.playing.tx.payload),
                    ctx.get(dut.playing.rx.ready)) == (side["tx_valid"], side["tx_payload"],
                                                       side["rx_ready"])
            for n, slot in enumerate(dut.slots):
                mine = n == game
                assert (ctx.get(slot.key), ctx.get(slot.start)) == (
                    key if mine else 0, start if mine else 0)
                assert (ctx.get(slot.rx.valid), ctx.get(slot.rx.payload),
                        ctx.get(slot.tx.ready)) == ((1, 0x55, 1) if mine else (0, 0, 0))
                assert (ctx.get(slot.position.as_value()), ctx.get(slot.switches)) == (
                    position, switches)

    simulate(dut, bench)        # wiring and multiplexers: simulate gives it no clock


def test_a_pending_key_is_given_once_when_the_cartridge_is_ready():
    dut = PendingKey()
    rng = random.Random(8)

    async def bench(ctx):
        pending, waiting, last_event, since_give, given = 0, 0, 0, SETTLE + 1, 0
        for _ in range(20000):
            fired = rng.random() < 0.02
            event = 1 << rng.randrange(9)
            setup = rng.random() < 0.05
            start, ready, over = rng.random() < 0.02, rng.random() < 0.5, rng.random() < 0.02
            drive(ctx, dut.events, valid=fired, payload=event)
            drive(ctx, dut, setup=setup, start=start, ready=ready, over=over)
            # Given: it waits, a clock after its event at the soonest, once the SETTLE
            # clocks after the last key are over, to a cartridge that is ready and not
            # at a new game.
            settled = since_give > SETTLE
            give = not setup and waiting and not last_event and not start and settled and ready
            assert ctx.get(dut.give) == give
            assert ctx.get(dut.key) == (pending if give else 0)
            assert ctx.get(dut.settled) == settled
            given += give
            await ctx.tick()
            since_give = 1 if give else since_give + 1
            if last_event and not setup:
                waiting = 1
            elif give or over or start or setup:
                waiting = 0
            if fired:
                pending = event
            last_event = fired
            assert (ctx.get(dut.pending), ctx.get(dut.waiting)) == (pending, waiting)
        assert given > 50

    simulate(dut, bench)


def test_the_position_takes_the_hosts_places_and_steps_the_keys_places():
    dut = Position()
    rng = random.Random(9)
    stepped = {EMPTY: PERSON, PERSON: MACHINE, MACHINE: EMPTY}   # docs/boards.md

    async def bench(ctx):
        position = [EMPTY] * 9
        for _ in range(4000):
            clear, step = rng.random() < 0.02, rng.random() < 0.3
            place, key = rng.choice((EMPTY, MACHINE, PERSON)), rng.getrandbits(9)
            drive(ctx, dut, clear=clear, step=step, key=key)
            shift = host(ctx, dut, rng, 0.8,
                         place={"red": place & 1, "green": place >> 1}) == Command.PLACE
            await ctx.tick()
            if clear:
                position = [EMPTY] * 9
            elif shift:
                position = position[1:] + [place]
            elif step:
                position = [stepped[v] if key >> k & 1 else v
                            for k, v in enumerate(position)]
            bits = ctx.get(dut.position.as_value())
            assert [bits >> 2 * k & 3 for k in range(9)] == position

    simulate(dut, bench)


def test_the_host_sets_a_switch_and_a_button_toggles_its_own():
    buttons, init = 2, 0b0101
    dut = Switches(buttons=buttons, init=init)
    rng = random.Random(10)

    async def bench(ctx):
        switches = init
        assert ctx.get(dut.switches) == init
        for _ in range(3000):
            number, value = rng.randrange(SWITCHES), rng.getrandbits(1)
            set_ = host(ctx, dut, rng, 0.8, switch=number, on=value) == Command.SWITCH
            toggle = rng.getrandbits(buttons) if rng.random() < 0.3 else 0
            ctx.set(dut.toggle, toggle)
            await ctx.tick()
            if set_:
                switches = switches & ~(1 << number) | value << number
            elif toggle:
                switches ^= toggle & -toggle        # the lowest button pressed
            assert ctx.get(dut.switches) == switches

    simulate(dut, bench)


def test_the_think_time_counts_the_busy_clocks_after_a_key_it_took():
    dut = ThinkTime()
    rng = random.Random(11)

    async def bench(ctx):
        cycles, armed, counting = 0, False, False
        for _ in range(6000):
            give, start = rng.random() < 0.05, rng.random() < 0.01
            busy = rng.random() < 0.7
            drive(ctx, dut, give=give, busy=busy, start=start)
            await ctx.tick()
            # A run of busy clocks after a key: its first clock counts 1, each next one
            # more; a run after no key (a key refused) leaves the figure.
            if busy and armed:
                cycles, counting = 1, True
            elif busy and counting:
                cycles = min(cycles + 1, CYCLES_MAX)
            counting = counting and busy
            armed = not (busy and armed) and (give or armed) and not start
            assert ctx.get(dut.cycles) == cycles
        # A move longer than the counter holds stays at CYCLES_MAX.
        drive(ctx, dut, give=1, busy=0, start=0)
        await ctx.tick()
        drive(ctx, dut, give=0, busy=1)
        await ctx.tick().repeat(CYCLES_MAX + 10)
        assert ctx.get(dut.cycles) == CYCLES_MAX

    simulate(dut, bench)


def test_new_games_from_the_reset_button_and_the_hosts_frames():
    count = 3
    dut = NewGame(count)
    rng = random.Random(12)

    async def bench(ctx):
        holding, start, used, clear, cleared, game, stepping = (False,) * 5 + (0, False)
        for _ in range(20000):
            pressed = rng.random() < (0.002 if not holding else 0)
            released = holding and rng.random() < 0.02
            choice, empty, fired = rng.randrange(count), rng.getrandbits(1), rng.random() < 0.1
            command = host(ctx, dut, rng, 0.1, game=choice, empty=empty)
            select = command == Command.GAME
            begin = select or command == Command.RESET
            afresh = begin and empty                # from the empty board
            drive(ctx, dut, pressed=pressed, released=released, fired=fired)
            assert ctx.get(dut.setup) == holding
            assert ctx.get(dut.hold) == (start or used)
            await ctx.tick()
            # RUN: the host's RESET and GAME (on the cartridge chosen) begin a game from
            # the position, or with empty, empty it and begin a clock later. HOLD: held
            # at a new game until the button is released; a press empties the position
            # and starts.
            stepping, used = fired and holding, start
            if not holding:
                clear, start = afresh, begin and not empty or cleared
                game = choice if select else game
            else:
                clear, start = False, not released
            cleared = afresh
            if pressed:
                clear = start = True
            holding = pressed or holding and not released
            assert (ctx.get(dut.start), ctx.get(dut.clear), ctx.get(dut.game),
                    ctx.get(dut.stepping)) == (start, clear, game, stepping)

    simulate(dut, bench)
