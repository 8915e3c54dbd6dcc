"""The golden model's batch mode (firmware_ref.eth.batch) against its own probe."""

import random

import numpy as np

from firmware_ref.eth.batch import (INPUT_COLUMNS, PROBE_COLUMNS, UNKNOWN, Recorder, columns, 
                                record_session)
from firmware_ref.eth.cycle import CycleModel
from firmware_ref.eth.pins import press, start
from sim.chip import e2
from sim.chip.stimulus import random_session


def _probes(session, random=0):
    chip, rows = CycleModel(random=random), []
    for inputs in session:
        chip.set(inputs)
        chip.tick()
        rows.append([UNKNOWN if v is None else int(v)
                     for v in (getattr(chip.probe, name) for name in PROBE_COLUMNS)])
    return np.array(rows)


def test_recorded_columns_are_the_probe_of_every_cycle():
    for session, power_up in ((e2.SESSION, 0),
                              (random_session(random.Random(7), 3000), 5)):
        inputs, probes = columns(record_session(session, random=power_up).rows)
        assert (probes == _probes(session, power_up)).all()
        assert inputs.tolist() == [[getattr(i, c) for c in INPUT_COLUMNS] for i in session]
    # E.2's 'u' after the edges: i, until the first search sets it.
    _, probes = columns(record_session(e2.SESSION).rows)
    unknown = np.argwhere(probes == UNKNOWN)
    assert {PROBE_COLUMNS[c] for c in unknown[:, 1]} == {"i"}
    assert unknown[:, 0].max() < 20


def test_a_recorder_from_registers_records_what_follows():
    chip = CycleModel(random=2)
    start(chip, userbegins=True)
    recorder = Recorder.from_registers(chip.registers())
    thought = press(recorder, 4)
    assert len(recorder.rows) == len(thought) + 2       # the key's two edges, the search
    _, probes = columns(recorder.rows)
    states = probes[2:, PROBE_COLUMNS.index("state")]
    assert states.tolist() == [int(s) for s in thought]
