"""Legal actions of the Marine and Genestealer action phases, piece by piece: the one generator.

Every piece action is listed by its actor's generator (`Legal.piece_actions`): past a few gates (AP left, standing,
not held in a lasting fire), a fixed sequence of parts, each listing one kind of action (steps, turns, shots,
doors, ...). The same generator answers every legality question: asked for one verb, it runs the part that lists
that verb (a step: toward one direction), so "is this action legal?" is "is it among what its actor's generator
lists for it?", never a second set of rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.rules.actions import END, PASS, Action, act
from engine.rules.assault import Assault
from engine.rules.board import FACE_NAMES
from engine.rules.fire import Fire
from engine.rules.kernel import GUNS, STAND_COST, Kernel
from engine.rules.movement import Movement
from engine.rules.pieces import Piece
from engine.rules.psychic import Psychic
from engine.rules.verbs import BLIP, GENERATORS, MARINE, REACTION, STEALER, VERBS, resolve

Part = Callable[[Piece, int, list[Action]], None]  # (piece, budget, out): lists one kind of the piece's actions


def _plan() -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, ...]], dict[str, dict[str, str]]]:
    """The generators' tables as verbs.py declares them, by part key: each key's (declared part, verb); each
    generator's part keys in the order the verbs are declared (a part listing several verbs comes at its first);
    the key of the part listing each verb. (Worked out once: a state's Legal only looks its parts up.)"""
    refs: dict[str, tuple[str, str]] = {}
    order: dict[str, tuple[str, ...]] = {}
    key_of: dict[str, dict[str, str]] = {}
    for gen in GENERATORS:
        keys: dict[str, None] = {}
        own: dict[str, str] = {}
        for v in VERBS:
            ref = v.parts.get(gen)
            if ref is None:
                continue
            key = f"{ref} {v.name}" if v.link is not None else ref  # (each link's part is its own)
            refs.setdefault(key, (ref, v.name))
            keys[key] = None
            own[v.name] = key
        order[gen] = tuple(keys)
        key_of[gen] = own
    return refs, order, key_of


_REFS, _ORDER, _KEY_OF = _plan()


def generator_parts(
    components: Mapping[str, object],
) -> tuple[dict[str, tuple[Part, ...]], dict[str, dict[str, Part]]]:
    """For each generator (verbs.GENERATORS): its parts in order, and the part listing each verb; the parts resolved
    among the components."""
    made = {key: resolve(ref, components, verb) for key, (ref, verb) in _REFS.items()}
    parts = {gen: tuple([made[key] for key in keys]) for gen, keys in _ORDER.items()}
    part_of = {gen: {verb: made[key] for verb, key in own.items()} for gen, own in _KEY_OF.items()}
    return parts, part_of


class Legal:
    """Legal actions of the Marine and Genestealer action phases, piece by piece."""

    def __init__(self, k: Kernel, movement: Movement, fire: Fire, assault: Assault, psychic: Psychic) -> None:
        self.k = k
        self.game = k.game
        self.movement = movement
        components = {"movement": movement, "fire": fire, "assault": assault, "psychic": psychic}
        # Each generator's parts after its steps, in the order they list (a reaction on CP lists no objects or
        # powers), and the part that lists each verb, as engine/rules/verbs.py declares them. (Each part belongs to
        # the component of its rule; the tables hold no method of this one, so a state's components hold no cycle
        # and go at once with the state.)
        parts, part_of = generator_parts(components)
        self.marine_reaction_parts: tuple[Part, ...] = parts[REACTION]
        self.marine_parts: tuple[Part, ...] = parts[MARINE]
        self.stealer_parts: tuple[Part, ...] = parts[STEALER]
        self.blip_parts: tuple[Part, ...] = parts[BLIP]
        self.marine_reaction_part_of: dict[str, Part] = part_of[REACTION]
        self.marine_part_of: dict[str, Part] = part_of[MARINE]
        self.stealer_part_of: dict[str, Part] = part_of[STEALER]
        self.blip_part_of: dict[str, Part] = part_of[BLIP]

    def phase_actions(self) -> list[Action]:
        """The legal actions of the current action phase: pass, end, then every piece's own actions."""
        k = self.k
        out: list[Action] = [PASS]
        if k.active is not None:
            out.append(END)
        for pc in k.p.values():
            self.piece_actions(pc, out)
        return out

    def piece_actions(self, pc: Piece, out: list[Action], only: str | None = None, d: int = -1) -> None:
        """Piece pc's own actions in the current action phase (none if it does not act in this phase); `only`: the
        part that lists that verb (`d`: for moves, toward that direction only)."""
        k = self.k
        if k.phase == "marines":
            if pc.kind == "marine" and pc.sq >= 0:
                self.marine_actions(pc, k.ap_budget(pc), out, True, only, d)
            elif pc.kind == "marine" and pc.entry and (only is None or only == "enter"):
                self.movement.disembark(pc, k.ap_budget(pc), out)
        elif pc.kind != "marine" and pc.st != 2:
            self.genestealer_actions(pc, out, only, d)

    def marine_actions(
        self, pc: Piece, budget: int, out: list[Action], in_turn: bool, only: str | None = None, d: int = -1
    ) -> None:
        """Marine pc's actions with `budget` AP and CP (in_turn: his own phase, else a CP reaction: no objects, no
        psychic powers)."""
        if budget <= 0 and not (pc.free and pc.ranged in GUNS):
            # Nothing to spend and no free shot: only what is free.
            if pc.carry and in_turn and (only is None or only == "drop"):
                out.append(self.game.order_table(pc.id)["drop"])
            return
        if pc.prone:
            if budget >= STAND_COST and (only is None or only == "stand"):
                out.extend(act("stand", pc.id, fname) for fname in FACE_NAMES)
            return
        if in_turn:
            self.on_board(pc, budget, out, only, d, self.marine_parts, self.marine_part_of, True)
        else:
            self.on_board(pc, budget, out, only, d, self.marine_reaction_parts, self.marine_reaction_part_of, True)

    def genestealer_actions(self, pc: Piece, out: list[Action], only: str | None = None, d: int = -1) -> None:
        """A Genestealer's or blip's actions (a blip may reveal instead of acting, whatever its AP)."""
        blip = pc.kind == "blip"
        if blip and (only is None or only == "reveal") and not pc.acted:
            out.append(self.game.order_table(pc.id)["reveal"])
        budget = self.k.ap_budget(pc)
        if budget <= 0:
            return
        if pc.sq < 0:
            if only is None or only == "enter":
                self.movement.enter(pc, out)
        elif blip:
            self.on_board(pc, budget, out, only, d, self.blip_parts, self.blip_part_of, False)
        else:
            self.on_board(pc, budget, out, only, d, self.stealer_parts, self.stealer_part_of, True)

    def on_board(
        self, pc: Piece, budget: int, out: list[Action], only: str | None, d: int, parts: tuple[Part, ...],
        part_of: dict[str, Part], fire_holds: bool,
    ) -> None:
        """Past a piece's gates: its steps, then (unless a lasting fire holds it [AE-F]: fire_holds, models only)
        its parts in order; for one verb, the part that lists it (a move: the step toward d)."""
        if only == "move":
            self.movement.steps(pc, budget, out, d)
            return
        if only is None:
            self.movement.steps(pc, budget, out, -1)
            if not fire_holds or self.k.may_act_in_fire(pc):
                for each in parts:
                    each(pc, budget, out)
            return
        part = part_of.get(only)
        if part is not None and (not fire_holds or self.k.may_act_in_fire(pc)):
            part(pc, budget, out)
