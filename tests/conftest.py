"""What every test leaves as it found it: the process's handling of Ctrl-C. A command a
test starts inherits both (a blocked or ignored SIGINT survives exec), so a test that
leaves them changed makes a later Ctrl-C test fail for no fault of its own."""

import signal

import pytest


@pytest.fixture(autouse=True)
def ctrl_c_handling_unchanged():
    before = signal.pthread_sigmask(signal.SIG_BLOCK, []), signal.getsignal(signal.SIGINT)
    yield
    after = signal.pthread_sigmask(signal.SIG_BLOCK, []), signal.getsignal(signal.SIGINT)
    assert after == before, "the test left SIGINT blocked or its handler changed"
