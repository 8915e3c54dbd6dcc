// A C interface to the chip as CXXRTL compiles it, for sim/backends/compiled.py (ctypes).
//
// A handle holds `lanes` independent chips. Signals are named as in the netlist's
// hierarchy ("keyboardN", "controller state") and found through CXXRTL's debug
// information, so internal nodes read the same way as pins. Every value is at most 32
// bits wide. One cycle is what E.1 draws: the inputs change while cp is low, then cp
// rises; what is read after a cycle is the chip just after that rising edge.
//
// TTT_DESIGN_CC (the file write_cxxrtl made) and TTT_TOP (its top module class) come
// from the compiler's command line.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include TTT_DESIGN_CC

namespace {

using cxxrtl::debug_item;

struct Signal {
    std::vector<debug_item> parts;  // a wire may be split into parts (lsb_at)
};

struct Lane {
    TTT_TOP top;
    cxxrtl::debug_items items;
    std::vector<Signal> signals;    // by index, the same in every lane
    debug_item *cp = nullptr;
};

struct Handle {
    std::vector<std::unique_ptr<Lane>> lanes;
    std::vector<std::string> names;
    std::string error;
};

void write(const debug_item &item, uint32_t value) {
    uint32_t mask = item.width >= 32 ? ~0u : (1u << item.width) - 1;
    // An input is a value (curr only); a register is a wire, whose next state must
    // agree, or the next commit would bring the old value back.
    item.curr[0] = value & mask;
    if (item.next)
        item.next[0] = value & mask;
}

uint32_t read(const Signal &signal) {
    uint32_t value = 0;
    for (const debug_item &part : signal.parts) {
        if (part.type == debug_item::OUTLINE)
            part.outline->eval();   // computed on demand from the registers
        uint32_t mask = part.width >= 32 ? ~0u : (1u << part.width) - 1;
        value |= (part.curr[0] & mask) << part.lsb_at;
    }
    return value;
}

void set(Lane &lane, int32_t index, uint32_t value) {
    for (const debug_item &part : lane.signals[index].parts)
        write(part, value >> part.lsb_at);
}

// cp low with the new inputs, the logic settled: what shows just before the edge.
void settle(Lane &lane) {
    write(*lane.cp, 0);
    lane.top.step();
}

void cycle(Lane &lane) {
    settle(lane);
    write(*lane.cp, 1);
    lane.top.step();
}

}  // namespace

extern "C" {

void *ttt_create(int32_t lanes) {
    auto *handle = new Handle;
    for (int32_t n = 0; n < lanes; n++) {
        auto lane = std::make_unique<Lane>();
        lane->top.debug_info(&lane->items, nullptr, "");
        auto &cp = lane->items.table.at("cp");
        lane->cp = &cp[0];
        lane->top.step();           // settle the power-up values
        handle->lanes.push_back(std::move(lane));
    }
    return handle;
}

void ttt_destroy(void *handle) { delete static_cast<Handle *>(handle); }

// The index of signal `name`, or -1 if the design has none by that name, -2 if it is
// wider than 32 bits.
int32_t ttt_signal(void *opaque, const char *name) {
    auto *handle = static_cast<Handle *>(opaque);
    for (size_t n = 0; n < handle->names.size(); n++)
        if (handle->names[n] == name)
            return int32_t(n);
    auto &first = handle->lanes.at(0)->items.table;
    auto found = first.find(name);
    if (found == first.end())
        return -1;
    size_t width = 0;
    for (auto &part : found->second)
        width = std::max(width, size_t(part.lsb_at + part.width));
    if (width > 32)
        return -2;
    for (auto &lane : handle->lanes)
        lane->signals.push_back(Signal{lane->items.table.at(name)});
    handle->names.push_back(name);
    return int32_t(handle->names.size() - 1);
}

int32_t ttt_width(void *opaque, int32_t index) {
    auto &signal = static_cast<Handle *>(opaque)->lanes.at(0)->signals.at(index);
    int32_t width = 0;
    for (auto &part : signal.parts)
        width = std::max(width, int32_t(part.lsb_at + part.width));
    return width;
}

// Drive a pin, or force a register, of one lane, and let the logic settle (no edge).
void ttt_set(void *opaque, int32_t lane, int32_t index, uint32_t value) {
    Lane &chip = *static_cast<Handle *>(opaque)->lanes.at(lane);
    set(chip, index, value);
    chip.top.step();
}

uint32_t ttt_get(void *opaque, int32_t lane, int32_t index) {
    return read(static_cast<Handle *>(opaque)->lanes.at(lane)->signals.at(index));
}

// `cycles` clock cycles of every lane, the inputs held.
void ttt_step(void *opaque, int64_t cycles) {
    for (auto &lane : static_cast<Handle *>(opaque)->lanes)
        for (int64_t c = 0; c < cycles; c++)
            cycle(*lane);
}

// The batch: lane l runs lengths[l] cycles. Before cycle c it takes the inputs
// inputs[l][c][0..n_in) into the signals in_index, and after it it writes the signals
// out_index to outputs[l][c][0..n_out). Where `before` is not null, it gets the same
// signals as they settle with cycle c's inputs, before its edge. Arrays are dense,
// `cycles` long per lane.
void ttt_run(void *opaque, const int64_t *lengths, int64_t cycles,
             int32_t n_in, const int32_t *in_index, const uint32_t *inputs,
             int32_t n_out, const int32_t *out_index, uint32_t *outputs,
             uint32_t *before) {
    auto *handle = static_cast<Handle *>(opaque);
    for (size_t l = 0; l < handle->lanes.size(); l++) {
        Lane &lane = *handle->lanes[l];
        const uint32_t *in = inputs + l * cycles * n_in;
        uint32_t *out = outputs + l * cycles * n_out;
        for (int64_t c = 0; c < lengths[l]; c++) {
            for (int32_t k = 0; k < n_in; k++)
                set(lane, in_index[k], in[c * n_in + k]);
            if (before) {
                settle(lane);
                for (int32_t k = 0; k < n_out; k++)
                    before[(l * cycles + c) * n_out + k] = read(lane.signals[out_index[k]]);
            }
            cycle(lane);
            for (int32_t k = 0; k < n_out; k++)
                out[c * n_out + k] = read(lane.signals[out_index[k]]);
        }
    }
}

}  // extern "C"
