// The chip cut out of a board build, gate by gate, for gatelevel.py: Verilator's
// model of the netlist (top module chip_gates, the toolchain's iCE40 cell models) run
// through its pins only, one lane after another, each lane a fresh chip from power-up.
//
//     gates INPUTS OUTPUTS LANES CYCLES
//
// INPUTS holds int64 lengths[LANES], then uint32 [LANES][CYCLES][4]: keyboardN,
// userbegins, piN and resetN before each cycle. OUTPUTS gets uint32 [LANES][CYCLES][5]:
// fin, win, prompt, copyboard and led just after each rising edge, zero past a lane's
// length. One cycle is what E.1 draws, as in sim/backends/compiled_chip.cc: the inputs change
// while the clock is low, then it rises.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "Vchip_gates.h"
#include "verilated.h"

namespace {

constexpr int IN = 4, OUT = 5;

bool transfer(const char *path, const char *mode, void *data, size_t bytes) {
    FILE *file = std::fopen(path, mode);
    if (!file)
        return false;
    size_t done = *mode == 'r' ? std::fread(data, 1, bytes, file)
                               : std::fwrite(data, 1, bytes, file);
    return std::fclose(file) == 0 && done == bytes;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s INPUTS OUTPUTS LANES CYCLES\n", argv[0]);
        return 2;
    }
    const long lanes = std::atol(argv[3]), cycles = std::atol(argv[4]);
    std::vector<int64_t> lengths(lanes);
    std::vector<uint32_t> inputs(lanes * cycles * IN), outputs(lanes * cycles * OUT);
    std::vector<char> raw(lanes * sizeof(int64_t) + inputs.size() * sizeof(uint32_t));
    if (!transfer(argv[1], "rb", raw.data(), raw.size())) {
        std::fprintf(stderr, "%s: cannot read %s whole\n", argv[0], argv[1]);
        return 1;
    }
    std::copy_n(raw.data(), lanes * sizeof(int64_t), reinterpret_cast<char *>(lengths.data()));
    std::copy_n(raw.data() + lanes * sizeof(int64_t), inputs.size() * sizeof(uint32_t),
                reinterpret_cast<char *>(inputs.data()));

    VerilatedContext context;
    for (long l = 0; l < lanes; l++) {
        // A new model is a newly configured FPGA: every flip-flop at its initial value.
        auto chip = std::make_unique<Vchip_gates>(&context);
        chip->clk = 0;
        chip->eval();
        const uint32_t *in = &inputs[l * cycles * IN];
        uint32_t *out = &outputs[l * cycles * OUT];
        for (long c = 0; c < lengths[l]; c++, in += IN, out += OUT) {
            chip->clk = 0;
            chip->keyboardN = in[0];
            chip->userbegins = in[1];
            chip->piN = in[2];
            chip->resetN = in[3];
            chip->eval();
            chip->clk = 1;
            chip->eval();
            out[0] = chip->fin;
            out[1] = chip->win;
            out[2] = chip->prompt;
            out[3] = chip->copyboard;
            out[4] = chip->led;
        }
        chip->final();
    }
    if (!transfer(argv[2], "wb", outputs.data(), outputs.size() * sizeof(uint32_t))) {
        std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[2]);
        return 1;
    }
    return 0;
}
