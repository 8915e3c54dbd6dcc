// The board in a box (boards/box/box.py): the desk as CXXRTL compiles it, and beside it the
// host's serial port, a UART at the host's own baud rate, both counted in the board's
// clocks. Bytes given to box_send go out on rx one bit at a time (start bit, 8 data bits
// from the lowest, stop bit, back to back); bytes the desk sends on tx are sampled in the
// middle of each bit and come back from box_run. Python would need microseconds per clock
// for this; a move is some 50 000 clocks.
//
// TTT_DESIGN_CC (the file write_cxxrtl made) and TTT_TOP (its top module class) come from
// the compiler's command line; the top's ports are clk, rx and tx.

#include <cmath>
#include <cstdint>
#include <deque>

#include TTT_DESIGN_CC

namespace {

// A port is a value, or a wire when a register drives it, as Yosys sees fit.
bool level(const cxxrtl::value<1> &port) { return port.get<bool>(); }
bool level(const cxxrtl::wire<1> &port) { return port.curr.get<bool>(); }

constexpr int FRAME_BITS = 10;      // start, 8 data, stop
constexpr int STOP_BIT = 9;

struct Box {
    TTT_TOP top;
    double bit;                     // the host's bit time, in the board's clocks
    int64_t now = 0;                // clocks since power-up

    std::deque<uint8_t> queued;     // bytes for rx, not begun
    bool sending = false;
    uint8_t sent = 0;               // the byte on rx now
    double sent_at = 0;             // the clock its start bit began (exact, not rounded)

    bool hearing = false;           // a byte from tx is being sampled
    int64_t heard_at = 0;           // the clock its start bit was seen
    int heard_bits = 0;             // bits sampled so far (the start bit is bit 0)
    uint32_t heard = 0;
    int64_t broken = 0;             // bytes from tx whose stop bit was low: dropped

    bool rx_level() {
        if (!sending && !queued.empty()) {
            sent = queued.front();
            queued.pop_front();
            // Back to back: the next start bit follows the last stop bit.
            sent_at = std::max(sent_at + FRAME_BITS * bit, double(now));
            sending = true;
        }
        if (!sending)
            return true;
        int index = int(std::floor((now - sent_at) / bit));
        if (index >= FRAME_BITS) {
            sending = false;
            return rx_level();
        }
        return index == 0 ? false : index == STOP_BIT ? true : (sent >> (index - 1)) & 1;
    }

    // After each rising edge: returns true with `byte` when a whole byte has come.
    bool listen(bool tx, uint8_t &byte) {
        if (!hearing) {
            if (!tx) {
                hearing = true;
                heard_at = now;
                heard_bits = 0;
                heard = 0;
            }
            return false;
        }
        // Bit n (the start bit is 0) is sampled in its middle, n + 0.5 bits in.
        if (now < heard_at + int64_t(std::llround((heard_bits + 0.5) * bit)))
            return false;
        if (heard_bits >= 1 && heard_bits <= 8)
            heard |= uint32_t(tx) << (heard_bits - 1);
        if (heard_bits++ < STOP_BIT)
            return false;
        hearing = false;
        if (!tx) {
            broken++;
            return false;
        }
        byte = uint8_t(heard);
        return true;
    }

    void cycle() {
        top.p_rx.set<bool>(rx_level());
        top.p_clk.set<bool>(false);
        top.step();
        top.p_clk.set<bool>(true);
        top.step();
        now++;
    }
};

}  // namespace

extern "C" {

void *box_create(double bit) {
    auto *box = new Box;
    box->bit = bit;
    box->sent_at = -FRAME_BITS * bit;
    box->top.p_rx.set<bool>(true);  // an idle line
    box->top.step();                // settle the power-up values
    return box;
}

void box_destroy(void *box) { delete static_cast<Box *>(box); }

void box_send(void *opaque, const uint8_t *data, int32_t length) {
    auto *box = static_cast<Box *>(opaque);
    box->queued.insert(box->queued.end(), data, data + length);
}

// Up to `cycles` clocks, or until `room` bytes have come from tx or a line has ended (the
// reader has what it waits for: clocking on to the end of `cycles` would only delay it);
// returns the bytes' number.
int32_t box_run(void *opaque, int64_t cycles, uint8_t *out, int32_t room) {
    auto *box = static_cast<Box *>(opaque);
    int32_t got = 0;
    for (int64_t c = 0; c < cycles && got < room; c++) {
        box->cycle();
        uint8_t byte;
        if (box->listen(level(box->top.p_tx), byte)) {
            out[got++] = byte;
            if (byte == '\n')
                break;
        }
    }
    return got;
}

// A byte is on either line, or waits to go out.
int32_t box_busy(void *opaque) {
    auto *box = static_cast<Box *>(opaque);
    return box->sending || !box->queued.empty() || box->hearing;
}

int64_t box_broken(void *opaque) { return static_cast<Box *>(opaque)->broken; }

}  // extern "C"
