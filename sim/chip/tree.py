"""The search tree the chip walked, built from its cycles.

Every ``setboardi`` cycle sets a trial stone: a node, at the stack's depth ``sp``, for
player ``p``, at place ``i``, searched with the bound ``a`` of its activation. Its
parent is the node open one level up. A node gets its value when the search comes back
to it: at a ``returned`` cycle at its depth, ``r`` holds its value seen by the player
who set it (rek2 hands ``-bestr`` up, or ``-r`` after a cut); a stone that wins or fills
the board is rated at once (``rating`` followed by ``returned``, whose ``r`` is minus its
value), or ends the game at the ground (``rating`` followed by ``finished``). A node
after whose value ``r >= a`` held cut its activation: its later siblings were never set.

The frames are the values of sim/watch/watch.py by their names ("controller.state",
"move.i", "stack.sp", "board.p", "value.r", "value.a"), from the HDL chip or from the
golden model alike, so the node count can be checked against alg.move's ``nodes``.
"""

from dataclasses import dataclass

from firmware_ref.eth.cycle import State

__all__ = ["Node", "Growing", "grow", "searches", "bounds", "path_at"]


_ENDS = (State.WAITING, State.FINISHED, State.JUSTRESET)     # a search's last cycle


@dataclass
class Node:
    cycle: int                  # the setboardi cycle that set its stone
    place: int
    depth: int                  # sp: 0 for the chip's own candidate moves
    player: int                 # p: 0 the chip, 1 the user
    bound: int                  # a of its activation
    parent: int | None          # the index of its parent among the nodes, if any
    value: int | None = None    # seen by its player: 1 a win, 0 a draw, -1 a loss
    cut: bool = False           # alpha-beta stopped its activation after it
    end: int | None = None      # the cycle it got its value


class Growing:
    """The nodes of a search grown as its cycles come: `feed` takes the cycles up to
    `last`, so a search still running grows by its new cycles only."""

    def __init__(self, first=0):
        self.nodes, self.next = [], first
        self._open_at, self._previous = {}, None

    def feed(self, frames, last):
        """Cycles self.next .. `last` of `frames` (value dicts, cycle n at index n)."""
        nodes, open_at, previous = self.nodes, self._open_at, self._previous
        for cycle in range(self.next, last + 1):
            values = frames[cycle]
            state = values["controller.state"]
            if previous is not None and previous["controller.state"] == State.RATING:
                leaf = open_at.get(previous["stack.sp"])
                if state == State.RETURNED and leaf is not None:
                    nodes[leaf].value, nodes[leaf].end = -values["value.r"], cycle
                elif state == State.FINISHED and leaf is not None:
                    # The chip's own stone ended the game: a win, or a draw on a full
                    # board.
                    nodes[leaf].value, nodes[leaf].end = int(values["board.wins"]), cycle
            if state == State.SETBOARDI:
                depth = values["stack.sp"]
                nodes.append(Node(cycle, values["move.i"], depth, values["board.p"],
                                  values["value.a"],
                                  open_at.get(depth - 1) if depth else None))
                open_at[depth] = len(nodes) - 1
                for deeper in [d for d in open_at if d > depth]:
                    del open_at[deeper]
            elif state == State.RETURNED:
                node = open_at.get(values["stack.sp"])
                if node is not None:
                    r = values["value.r"]
                    nodes[node].value, nodes[node].end = r, cycle
                    nodes[node].cut = r >= values["value.a"]
            previous = values
        self._previous, self.next = previous, max(self.next, last + 1)
        return nodes


def grow(frames, first=0):
    """The nodes of the search(es) in `frames` (a sequence of value dicts, cycle n at
    index n) from cycle `first` on."""
    return Growing(first).feed(frames, len(frames) - 1)


def searches(frames, first=0):
    """Each chip move's search in `frames` from cycle `first`: (the cycle it began, its
    nodes, the cycle it ended or None), a search beginning at a ``userjustmoved`` cycle
    and running until the chip waits again."""
    found, begun = [], None
    for cycle in range(first, len(frames)):
        state = frames[cycle]["controller.state"]
        if state == State.USERJUSTMOVED:
            begun = cycle
        elif begun is not None and state in _ENDS:
            found.append((begun, grow(frames[:cycle + 1], begun), cycle))
            begun = None
    if begun is not None:
        found.append((begun, grow(frames, begun), None))        # still searching
    return found


def bounds(states, cycle):
    """The search shown at `cycle` from `states` (the controller's state at every
    cycle, bytes: one a cycle): the one running then, or the last before it, as (the
    cycle it began, the cycle it ended or None); None before the first. A search begins
    at a ``userjustmoved`` cycle, which only a waiting chip enters, so the last one at
    or before `cycle` began it."""
    begun = states.rfind(State.USERJUSTMOVED, 0, cycle + 1)
    if begun < 0:
        return None
    ends = [end for end in (states.find(state, begun + 1) for state in _ENDS) if end >= 0]
    return begun, min(ends) if ends else None


def path_at(nodes, cycle):
    """The indices of the nodes open at `cycle`: the path being searched then."""
    path = []
    for k, node in enumerate(nodes):
        if node.cycle > cycle:
            break
        if node.end is None or node.end >= cycle:
            while path and nodes[path[-1]].depth >= node.depth:
                path.pop()
            path.append(k)
        else:
            while path and nodes[path[-1]].depth >= node.depth:
                path.pop()
    return path
