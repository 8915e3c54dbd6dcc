"""Pin-level stimulus for the chip: what a careless person at its pins might do."""

from firmware_ref.eth.cycle import Inputs, key_down

__all__ = ["random_session"]


def random_session(rng, edges):
    """Inputs for `edges` clock edges of a person at the chip's pins, and worse: resets
    at any time (searches included), setups with piN, keys held for long, keys on
    taken places, chords, and userbegins changing."""
    session = [Inputs(resetN=0)]
    userbegins = 1
    while len(session) < edges:
        kind = rng.choices(["key", "held", "chord", "idle", "reset", "setup"],
                           weights=[6, 2, 1, 4, 2, 2])[0]
        if kind == "key":
            session += [Inputs(keyboardN=key_down(rng.randrange(9)), userbegins=userbegins)]
        elif kind == "held":
            session += [Inputs(keyboardN=key_down(rng.randrange(9)),
                               userbegins=userbegins)] * rng.randrange(2, 60)
        elif kind == "chord":
            keys = rng.sample(range(9), rng.randrange(2, 4))
            session += [Inputs(keyboardN=key_down(*keys), userbegins=userbegins)] * \
                rng.randrange(1, 4)
        elif kind == "idle":
            session += [Inputs(userbegins=userbegins)] * rng.randrange(1, 400)
        elif kind == "reset":
            userbegins = rng.randrange(2)
            session += [Inputs(resetN=0, userbegins=userbegins)] * rng.randrange(1, 3)
        else:                                   # a setup during reset, as E.1 does
            userbegins = rng.randrange(2)
            keys = [rng.randrange(9) for _ in range(rng.randrange(1, 6))]
            session += [Inputs(resetN=0, keyboardN=key_down(keys[0]), userbegins=userbegins)]
            session += [Inputs(keyboardN=key_down(k), piN=rng.randrange(2),
                               userbegins=userbegins) for k in keys[1:]]
            session += [Inputs(piN=rng.randrange(2), userbegins=userbegins)]
    return session[:edges]
