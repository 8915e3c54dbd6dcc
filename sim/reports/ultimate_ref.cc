// The Ultimate Tic-Tac-Toe engine compiled: firmware_ref/ultimate/engine.py's search
// written again on bitboards, for a speed comparison (sim/reports/ultimate_ref.py builds
// and runs it). It is to give the golden engine's move, value and node count,
// so each step below copies engine.move and engine.search, in their order:
//
// - negamax with alpha-beta; moves in increasing cell order; a strict > keeps the first
//   of equal values; nodes are every position entered, the root included;
// - a won game is -WIN for the player to move, a draw 0, both checked before the depth;
// - at depth 0 the evaluation from X's side, with the sign of the player to move: G of
//   each undecided small board plus BIG times G of the big board (owned places +1/-1,
//   drawn ones 0), G being Baum's F summed over the eight lines (baum_g/model.py).
//
// Input, one search a line: BOARD LAST DEPTH (BOARD 81 of X, O and ., cell i being cell
// i % 9 of small board i / 9; LAST 0-80 or -). Output, a line each: CELL VALUE NODES,
// then "# nodes N seconds S", S measured around the searches only. A line that is no
// position a game reaches, or a game already over, stops it with one line on stderr.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

namespace {

constexpr int WIN = 1000000;
constexpr int BIG = 16;
constexpr int INF = 2 * WIN;        // engine.INFINITY (the name is a macro of <cmath>)
constexpr int FULL = 0x1FF;
constexpr int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                             {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

bool HAS_LINE[512];
// G of a 3x3 board from its X and O masks, from X's side: every small board and the big
// board is one look-up. |G| <= 8 * 28, so 16 bits hold it and the table is 512 KB.
int16_t G[512][512];

int F(int x, int y, int z) {
    return (x + y + z) * (x + y + z) * (x + y + z) + x * y * z;
}

void build_tables() {
    for (int m = 0; m < 512; ++m) {
        HAS_LINE[m] = false;
        for (const auto &line : LINES) {
            int mask = 1 << line[0] | 1 << line[1] | 1 << line[2];
            HAS_LINE[m] = HAS_LINE[m] || (m & mask) == mask;
        }
    }
    for (int x = 0; x < 512; ++x)
        for (int o = 0; o < 512; ++o) {
            int total = 0;
            for (const auto &line : LINES) {
                int v[3];
                for (int i = 0; i < 3; ++i)
                    v[i] = (x >> line[i] & 1) - (o >> line[i] & 1);
                total += F(v[0], v[1], v[2]);
            }
            G[x][o] = static_cast<int16_t>(total);
        }
}

// rules.Position with what its methods recompute kept up to date: each small board's
// owner as the big board's masks, so that winner() and legal() are a few mask tests.
struct Position {
    uint16_t xs[9], os[9];  // small board b's cells, bit k = cell 9b + k
    uint16_t big_x, big_o;  // the big places X and O own
    uint16_t decided;       // owned or full (drawn) small boards
    int8_t last;            // 0-80, or -1 for none
    uint8_t stones;         // X is to move when even (X moves first)

    // rules.Position.owner, X's line first as there.
    void settle(int b) {
        if (HAS_LINE[xs[b]])
            big_x |= 1 << b;
        else if (HAS_LINE[os[b]])
            big_o |= 1 << b;
        if (HAS_LINE[xs[b]] || HAS_LINE[os[b]] || (xs[b] | os[b]) == FULL)
            decided |= 1 << b;
    }

    bool won() const { return HAS_LINE[big_x] || HAS_LINE[big_o]; }
    bool drawn() const { return decided == FULL; }
    bool x_to_move() const { return stones % 2 == 0; }

    // The boards rules.Position.legal takes moves from (the game still open).
    int boards() const {
        if (last >= 0 && !(decided >> (last % 9) & 1))
            return 1 << (last % 9);
        return ~decided & FULL;
    }

    Position play(int cell) const {
        Position next = *this;
        int b = cell / 9, bit = 1 << (cell % 9);
        if (x_to_move())
            next.xs[b] |= bit;
        else
            next.os[b] |= bit;
        next.last = static_cast<int8_t>(cell);
        next.stones++;
        next.settle(b);
        return next;
    }

    // engine.evaluate: from X's side.
    int evaluate() const {
        int total = 0;
        for (int b = 0; b < 9; ++b)
            if (!(decided >> b & 1))
                total += G[xs[b]][os[b]];
        return total + BIG * G[big_x][big_o];
    }
};

uint64_t nodes;

// engine.search: the value for the player to move.
// Each legal cell in increasing order (engine.moves) to `visit`, until it returns true.
template <typename Visit>
void each_move(const Position &position, Visit visit) {
    for (int b = 0, boards = position.boards(); b < 9; ++b) {
        if (!(boards >> b & 1))
            continue;
        int taken = position.xs[b] | position.os[b];
        for (int k = 0; k < 9; ++k)
            if (!(taken >> k & 1) && visit(9 * b + k))
                return;
    }
}

int search(const Position &position, int depth, int alpha, int beta) {
    ++nodes;
    if (position.won())
        return -WIN;                // the player who just moved has won
    if (position.drawn())
        return 0;
    if (depth == 0) {
        int value = position.evaluate();
        return position.x_to_move() ? value : -value;
    }
    int best = -INF;
    each_move(position, [&](int cell) {
        int value = -search(position.play(cell), depth - 1, -beta, -alpha);
        if (value > best) {
            best = value;
            if (value > alpha) {
                alpha = value;
                return alpha >= beta;       // the cut-off
            }
        }
        return false;
    });
    return best;
}

struct Move {
    int cell, value;
    uint64_t nodes;
};

// engine.move: its root has no cut-off and narrows only alpha.
Move move(const Position &position, int depth) {
    nodes = 1;
    int best = -INF, chosen = -1, alpha = -INF;
    if (!position.won() && !position.drawn())
        each_move(position, [&](int cell) {
            int value = -search(position.play(cell), depth - 1, -INF, -alpha);
            if (value > best) {
                best = value;
                chosen = cell;
                alpha = value > alpha ? value : alpha;
            }
            return false;
        });
    return {chosen, best, nodes};
}

// rules.parse's checks, so that a bad line is refused rather than searched; the reason
// (empty when the line is a position) goes to `why`.
Position parse(const std::string &line, int &depth, std::string &why) {
    Position position{};
    std::istringstream fields(line);
    std::string board, last, rest;
    if (!(fields >> board >> last >> depth) || fields >> rest) {
        why = "expected BOARD LAST DEPTH";
        return position;
    }
    if (board.size() != 81 || board.find_first_not_of("XO.") != std::string::npos) {
        why = "a position is 81 of X, O and .";
        return position;
    }
    if (depth < 1 || depth > 64) {
        why = "DEPTH is 1-64";
        return position;
    }
    int xn = 0, on = 0;
    for (int i = 0; i < 81; ++i) {
        if (board[i] == 'X')
            position.xs[i / 9] |= 1 << (i % 9), ++xn;
        else if (board[i] == 'O')
            position.os[i / 9] |= 1 << (i % 9), ++on;
    }
    if (xn - on != 0 && xn - on != 1) {
        why = "X moves first, so no game gets to these counts of Xs and Os";
        return position;
    }
    position.stones = static_cast<uint8_t>(xn + on);
    for (int b = 0; b < 9; ++b) {
        if (HAS_LINE[position.xs[b]] && HAS_LINE[position.os[b]]) {
            why = "a small board holds a line of each";
            return position;
        }
        position.settle(b);
    }
    position.last = -1;
    if (last != "-") {
        int cell = -1;
        if (last.size() <= 2 && last.find_first_not_of("0123456789") == std::string::npos)
            cell = std::stoi(last);
        if (cell < 0 || cell > 80) {
            why = "LAST is a cell 0-80 or -";
            return position;
        }
        if (board[cell] != (xn == on ? 'O' : 'X')) {
            why = "the last move must hold the last mover's stone";
            return position;
        }
        position.last = static_cast<int8_t>(cell);
    }
    if (position.won() || position.drawn())
        why = "the game is over: no move";
    return position;
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    build_tables();
    uint64_t total = 0;
    std::chrono::steady_clock::duration spent{};
    std::string line;
    for (int number = 1; std::getline(std::cin, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        int depth = 0;
        std::string why;
        Position position = parse(line, depth, why);
        if (!why.empty()) {
            std::fprintf(stderr, "ultimate_ref: line %d: %s\n", number, why.c_str());
            return 2;
        }
        auto began = std::chrono::steady_clock::now();
        Move found = move(position, depth);
        spent += std::chrono::steady_clock::now() - began;
        total += found.nodes;
        std::printf("%d %d %llu\n", found.cell, found.value,
                    static_cast<unsigned long long>(found.nodes));
    }
    std::printf("# nodes %llu seconds %.9f\n", static_cast<unsigned long long>(total),
                std::chrono::duration<double>(spent).count());
    return 0;
}
