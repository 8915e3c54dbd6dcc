// The chip on plain Verilator, for sim/backends/verilated.py (ctypes): the peer an FPGA
// engineer would write, a C++ loop around Verilator's model, with no cocotb between.
//
// The model's top is the chip in a wrapper (written by verilated.py) that brings the
// probe signals (sim.chip.signals.PROBE_PATHS) out as ports, so that every one of them
// is read after every edge, as the compiled backend reads them; or a cartridge, read at
// its ports. verilated.py also writes ttt_ports.h: the model's class, its header, the
// statements that copy the inputs in and the outputs out (to the buffer named) in the
// batch's column order, and the one that forces a lane's power-up value; so this file
// names no signal. One cycle is what E.1 draws, as in compiled_chip.cc: the inputs
// change while cp is low, then cp rises. A cartridge's reset stays low: every lane is
// a fresh model, at power-up.

#include <cstdint>
#include <memory>

#include "verilated.h"
#include "ttt_ports.h"

extern "C" {

// The batch: lane l is a fresh model from power-up, forced to randoms[l], and runs
// lengths[l] cycles. Before cycle c it takes inputs[l][c][...] (TTT_INPUTS' order),
// after it it writes outputs[l][c][...] (TTT_OUTPUTS' order); zero past a length.
// Where befores is not null it gets the same outputs read just before the edge, the
// inputs settled with cp low: what the combinational outputs show between edges.
void ttt_run(int64_t lanes, const int64_t *lengths, int64_t cycles,
             const uint32_t *randoms, const uint32_t *inputs, uint32_t *outputs,
             uint32_t *befores) {
    constexpr int n_in = TTT_N_INPUTS, n_out = TTT_N_OUTPUTS;
    VerilatedContext context;
    for (int64_t l = 0; l < lanes; l++) {
        auto chip = std::make_unique<TTT_CLASS>(&context);
        chip->cp = 0;
        chip->eval();                   // the initial values
        {
            // A lane's power-up value of a register (the chip's random counter), where
            // the model has one to force; written through Verilator's public access.
            const uint32_t random = randoms[l];
            TTT_POWER_UP
        }
        chip->eval();
        const uint32_t *in = inputs + l * cycles * n_in;
        uint32_t *out = outputs + l * cycles * n_out;
        uint32_t *before = befores ? befores + l * cycles * n_out : nullptr;
        for (int64_t c = 0; c < lengths[l]; c++, in += n_in, out += n_out) {
            chip->cp = 0;
            TTT_INPUTS
            chip->eval();
            if (before) {
                TTT_OUTPUTS(before)
                before += n_out;
            }
            chip->cp = 1;
            chip->eval();
            TTT_OUTPUTS(out)
        }
        chip->final();
    }
}

}  // extern "C"
