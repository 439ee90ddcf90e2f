"""The 4th edition rulebook's worked examples (seed 003), replayed with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules.actions import act
from engine.rules.decisions import ParryDecision, ReactionDecision, TurnToFaceDecision
from engine.rules.testing import play, scenario, where

CORRIDOR = ["##########", "#aaaaaaaa#", "##########"]


def test_move_and_fire_then_sustained_fire() -> None:
    # "Se Déplacer et Tirer": move+fire 1 and 3 (miss), move+fire 5,5 (miss: moved, no sustained bonus),
    # stand and fire 1,5: kills with the sustained bonus. Three AP in all.
    s = scenario(CORRIDOR, marines=[("m1", 1, 1, "E")], stealers=[("g1", 7, 1, "W")], dice=[1, 3, 5, 5, 1, 5])
    play(s, "move m1 E", "shoot m1 g1")
    assert "g1" in s.p and s.p["m1"].ap == 3
    play(s, "move m1 E", "shoot m1 g1")
    assert "g1" in s.p and s.p["m1"].ap == 2
    play(s, "shoot m1 g1")
    assert "g1" not in s.p and s.p["m1"].ap == 1
    assert "sustained" in s.log[-1].effects
    assert s.deaths[-1].killer == "m1"


def test_overwatch_example_second_shot_sustained() -> None:
    # "Tir en Alerte": the Genestealer advances (1), the Marine fires and misses; it advances again (2), the
    # second overwatch shot kills with the sustained bonus (5+).
    s = scenario(
        CORRIDOR, marines=[("m1", 1, 1, "E")], stealers=[("g1", 7, 1, "W")], phase="stealers", dice=[1, 3, 4, 5]
    )
    s.p["m1"].ow = True
    play(s, "move g1 W")
    assert s.current_player() == "marines"
    assert [str(a) for a in s.legal_actions()] == ["fire m1", "hold m1"]
    play(s, "fire m1")
    assert "g1" in s.p and s.p["m1"].sus == "g1"
    play(s, "move g1 W", "fire m1")
    assert "g1" not in s.p
    assert s.current_player() == "genestealers"


def test_overwatch_double_jams_and_range_12() -> None:
    rows = ["################", "#aaaaaaaaaaaaaa#", "################"]
    s = scenario(rows, marines=[("m1", 1, 1, "E")], stealers=[("g1", 14, 1, "W")], phase="stealers", dice=[3, 3])
    s.p["m1"].ow = True
    play(s, "move g1 W")  # range 12: now in overwatch range (13 -> 12)
    play(s, "fire m1")
    assert s.p["m1"].jam and "g1" in s.p
    play(s, "move g1 W")  # jammed: no overwatch decision
    assert s.current_player() == "genestealers"


def test_overwatch_out_of_range_does_not_fire() -> None:
    rows = ["#################", "#aaaaaaaaaaaaaaa#", "#################"]
    s = scenario(rows, marines=[("m1", 1, 1, "E")], stealers=[("g1", 15, 1, "W")], phase="stealers")
    s.p["m1"].ow = True
    play(s, "move g1 W")  # range 13
    assert s.current_player() == "genestealers"


def test_two_marines_on_overwatch_declare_then_fire() -> None:
    # "Alertes Croisées": both Marines may fire at the Genestealer that acted in their arcs.
    rows = ["#######", "#aaaaa#", "#aaaaa#", "#aaaaa#", "#######"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E"), ("m2", 1, 3, "E")],
        stealers=[("g1", 5, 2, "N")],
        phase="stealers",
        dice=[1, 2, 6, 4],
    )
    s.p["m1"].ow = s.p["m2"].ow = True
    play(s, "move g1 W W")  # one square sideways and a free 90° turn to the left: one action
    assert [str(a) for a in s.legal_actions()] == ["fire m1", "hold m1"]
    play(s, "fire m1", "fire m2")
    assert "g1" not in s.p and s.deaths[-1].killer == "m2"


def test_close_assault_example_stealer_wins() -> None:
    # "Résoudre un Corps à Corps": Genestealer 2, 4, 5 -> 5; Marine 4: the Marine dies.
    s = scenario(
        CORRIDOR, marines=[("m1", 2, 1, "E")], stealers=[("g1", 3, 1, "W")], phase="stealers", dice=[4, 2, 4, 5]
    )
    play(s, "assault g1 m1")
    assert "m1" not in s.p and s.deaths[-1].killer == "g1"


def test_guard_example_reroll_wins_and_guard_stays() -> None:
    # "Action de Garde": Genestealer 2, 4, 5; Marine 4, re-rolled on guard to 6: the Genestealer dies.
    s = scenario(
        CORRIDOR, marines=[("m1", 2, 1, "E")], stealers=[("g1", 3, 1, "W")], phase="stealers", dice=[4, 2, 4, 5, 6]
    )
    s.p["m1"].guard = True
    play(s, "assault g1 m1")
    assert [str(a) for a in s.legal_actions()] == ["guardroll 0", "pass"]
    play(s, "guardroll 0")
    assert "g1" not in s.p and s.p["m1"].guard


def test_flank_attack_marine_wins_may_turn_to_face() -> None:
    # The Genestealer attacks from the side; the Marine wins but cannot kill: he may turn to face it.
    rows = ["#####", "#aaa#", "#aaa#", "#####"]
    s = scenario(rows, marines=[("m1", 1, 1, "E")], stealers=[("g1", 1, 2, "N")], phase="stealers", dice=[6, 1, 2, 3])
    play(s, "assault g1 m1")
    assert "g1" in s.p and "m1" in s.p
    assert s.current_player() == "marines"
    assert s.decision() == TurnToFaceDecision("m1", 2, "marines")
    assert [str(a) for a in s.legal_actions()] == ["face m1 S", "pass"]
    play(s, "face m1 S")
    assert s.p["m1"].facing == 2


def test_parry_forces_reroll_of_chosen_die() -> None:
    s = scenario(
        CORRIDOR,
        marines=[("sgt", 2, 1, "E", "sergeant", "storm_bolter", "power_sword")],
        stealers=[("g1", 3, 1, "W")],
        phase="stealers",
        dice=[4, 6, 2, 1, 1],
    )
    play(s, "assault g1 sgt")
    pending = s.decision()
    assert isinstance(pending, ParryDecision) and pending.player == "marines"
    assert (pending.attacker, pending.defender, pending.through) == ("g1", "sgt", False)
    assert pending.roll.stealer_dice == (6, 2, 1) and pending.roll.marine_dice == (4,)
    assert "parry 0" in [str(a) for a in s.legal_actions()]
    play(s, "parry 0")  # the 6 becomes a 1: sergeant 4+1 = 5 beats 2 and kills (he faces it)
    assert "g1" not in s.p and "sgt" in s.p and s.decision() is None


def test_door_opened_reveals_blip_marine_places_second() -> None:
    # "Placer les blips": the assault cannon Marine opens the door; the blip (2) converts; the first
    # Genestealer goes on the blip's square, the Marine player places the second further down the corridor,
    # the Genestealer player chooses facings.
    rows = ["##########", "#aaaDbbbb#", "##########"]
    s = scenario(
        rows, marines=[("m1", 3, 1, "E", "marine", "assault_cannon")], doors=[("D1", 4, 1)], blips=[("b1", 5, 1, 2)]
    )
    play(s, "open m1 D1")
    assert "b1" not in s.p
    assert s.current_player() == "genestealers"  # facing of the first Genestealer
    first = [pid for pid, pc in s.p.items() if pc.kind == "stealer"]
    assert len(first) == 1 and where(s, first[0]) == ("upper", 5, 1)
    play(s, f"face {first[0]} W")
    assert s.current_player() == "marines"
    assert "put upper:6,1" in [str(a) for a in s.legal_actions()]
    play(s, "put upper:6,1")
    second = next(pid for pid in s.p if pid not in (first[0], "m1"))
    play(s, f"face {second} W")
    assert where(s, second) == ("upper", 6, 1)
    assert s.current_player() == "marines" and s.stack == []


def test_a_genestealer_is_never_placed_on_the_objects_square_so_never_picks_it_up_by_conversion() -> None:
    # RULES.md §10: "a model that moves onto an object's square picks it up"; an object's square is not an
    # empty square, so a revealed blip's Genestealers go around it (here: the open door's square only).
    rows = ["##########", "#aaaDbbbb#", "##########"]
    s = scenario(rows, marines=[("m1", 3, 1, "E", "marine", "assault_cannon")], doors=[("D1", 4, 1)],
                 blips=[("b1", 5, 1, 3)], objectives=[("relic", 6, 1)])
    play(s, "open m1 D1")
    first = next(pid for pid, pc in s.p.items() if pc.kind == "stealer")
    play(s, f"face {first} W")
    assert [str(a) for a in s.legal_actions()] == ["put upper:4,1"]
    play(s, "put upper:4,1")
    second = next(pid for pid, pc in s.p.items() if pc.kind == "stealer" and pid != first)
    play(s, f"face {second} W")
    # The third has no empty square left: lost, not a casualty; the relic still lies where it was.
    assert s.k.obj_at == {s.game.board.sq_of("upper", 6, 1): "relic"}
    assert not any(pc.carry for pc in s.p.values())


def test_blip_may_not_move_into_los_or_next_to_marine() -> None:
    rows = ["#######", "#aaaaa#", "#a#####", "#a#####", "#######"]
    s = scenario(rows, marines=[("m1", 5, 1, "W")], blips=[("b1", 1, 3, 1)], phase="stealers")
    assert [str(a) for a in s.legal_actions() if a.verb == "move"] == ["move b1 N"]
    play(s, "move b1 N")
    # (1, 1) and (2, 1) are in the Marine's LOS along the corridor: the blip must stop.
    assert [str(a) for a in s.legal_actions() if a.verb == "move"] == ["move b1 S"]
    s2 = scenario(
        ["#####", "#aaa#", "#aaa#", "#####"], marines=[("m1", 1, 1, "W")], blips=[("b1", 3, 2, 1)], phase="stealers"
    )
    # Out of the Marine's arc, but (2, 1) and (2, 2) are next to him.
    assert [str(a) for a in s2.legal_actions() if a.verb == "move"] == ["move b1 N"]


def test_bolter_kills_door() -> None:
    rows = ["#######", "#aaDbb#", "#######"]
    s = scenario(rows, marines=[("m1", 1, 1, "E")], doors=[("D1", 3, 1)], dice=[6, 2])
    play(s, "shoot m1 D1")
    assert s.door_state["D1"] == "destroyed"
    assert "move m1 E" in [str(a) for a in s.legal_actions()]


def test_flamer_section_and_markers() -> None:
    rows = ["#########", "#aaaDbbb#", "#########"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E", "marine", "heavy_flamer")],
        doors=[("D1", 4, 1)],
        stealers=[("g1", 3, 1, "W"), ("g2", 2, 1, "W")],
        dice=[1, 5, 1, 1],
    )
    s.p["m1"].facing = 1
    flames = [str(a) for a in s.legal_actions() if a.verb == "flame"]
    assert flames == ["flame m1 upper:2,1"]
    play(s, "flame m1 upper:2,1")
    # The Marine stands in the flamed section too: one die per model, square by square: m1 1, g2 5, g1 1.
    assert "m1" in s.p and "g2" not in s.p and "g1" in s.p
    assert sorted(s.flames) == sorted(s.game.board.sq_of("upper", x, 1) for x in (1, 2, 3))
    # Survivors may move inside the flames but are attacked again on each flamed square they enter.
    play(s, "move m1 E")
    assert "m1" in s.p and s.log[-1].dice == (1,)
    assert "open m1 D1" not in [str(a) for a in s.legal_actions()]


def test_closed_door_of_a_flamed_section_stays_shut_until_the_flames_go() -> None:
    """4e Lance-flammes lourd et portes: the squares beyond a flamed section's closed door are not affected, but "la
    porte ne peut pas être ouverte tant que le pion flammes n'a pas été retiré" (from either side)."""
    rows = ["##########", "#c.aaaDbb#", "##########"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E", "marine", "heavy_flamer"), ("m2", 7, 1, "W")],
        doors=[("D1", 6, 1)],
        dice=[3],
    )
    play(s, "flame m1 upper:3,1")  # section a (x 3-5) burns; nobody in it
    b = s.game.board
    assert sorted(s.flames) == [b.sq_of("upper", x, 1) for x in (3, 4, 5)]
    assert "open m2 D1" not in [str(a) for a in s.legal_actions()]
    assert not s.is_legal(act("open", "m2", "D1"))
    play(s, "pass", "pass")  # the Genestealer turn, then the end phase: the flames are removed (CP drawn: 3)
    assert not s.flames and "open m2 D1" in [str(a) for a in s.legal_actions()]


def test_classic_marine_sees_blips_to_the_side_but_fires_only_ahead() -> None:
    rows = ["#######", "#aaaaa#", "#aaaaa#", "#aaaaa#", "#######"]
    for ruleset, converts in (("4e", False), ("classic", True)):
        s = scenario(rows, marines=[("m1", 1, 2, "N")], blips=[("b1", 4, 2, 1)], ruleset=ruleset)
        play(s, "guard m1")  # any action triggers the conversion check
        assert ("b1" not in s.p) == converts


def test_alpha_is_a_genestealer_player_decision_and_replaces_the_three() -> None:
    rows = ["#########", "#aaaaaaa#", "#########"]
    s = scenario(rows, marines=[("m1", 1, 1, "W")], blips=[("b1", 5, 1, 3)], phase="stealers")
    s.game.mission.genestealers.alpha = True
    play(s, "reveal b1")
    assert [str(a) for a in s.legal_actions()] == ["alpha yes", "alpha no"]
    play(s, "alpha yes")
    gid = next(pid for pid, pc in s.p.items() if pc.kind == "stealer")
    play(s, f"face {gid} W")
    assert s.p[gid].alpha and sum(1 for pc in s.p.values() if pc.kind == "stealer") == 1


def test_archivist_psychic_storm_and_barrier() -> None:
    rows = ["#########", "#aaaaaaa#", "#########"]
    s = scenario(
        rows,
        marines=[("arch", 1, 1, "E", "archivist", "storm_bolter", "force_axe")],
        stealers=[("g1", 5, 1, "W")],
        dice=[2],
    )
    acts = [str(a) for a in s.legal_actions() if a.verb == "psi"]
    assert "psi storm g1" in acts and "psi barrier upper:3,1" in acts and "psi prescience" not in acts
    play(s, "psi storm g1")
    assert "g1" not in s.p and s.psi == 17
    assert not [a for a in s.legal_actions() if a.verb == "psi"]  # one power per turn


def test_ae_fire_module_marines_3_plus_fire_falls_and_blocks_moves_within() -> None:
    up = ["#######", "#aaaaa#", "#######"]
    down = ["#######", "#bbbbb#", "#######"]
    s = scenario(
        up,
        lower=down,
        pitfalls=[("A", 3, 1)],
        marines=[("m1", 1, 1, "E", "marine", "heavy_flamer"), ("m2", 2, 1, "E")],
        stealers=[("g1", 4, 1, "W"), ("g2", 3, 1, "N", "lower")],
        game_options={"fire_module": True},
        dice=[2, 1, 2, 1],
    )
    assert [str(a) for a in s.legal_actions() if a.verb == "flame"] == ["flame m1 upper:2,1"]
    play(s, "flame m1 upper:2,1")
    b = s.game.board
    assert b.sq_of("lower", 3, 1) in s.flames  # fell through the pitfall
    # one die per unit, square by square: m1 (1,1) 2 survives (Marines die on 3+), m2 (2,1) 1, g1 (4,1) 2 dies;
    # g2 below the pitfall last: 1 survives
    assert "m1" in s.p and "m2" in s.p and "g1" not in s.p and "g2" in s.p


def test_ae_fire_units_may_only_step_out() -> None:
    rows = ["#######", "#aaaaa#", "#######"]
    s = scenario(rows, marines=[("m1", 1, 1, "E")], game_options={"fire_module": True})
    s.flames.update({s.game.board.sq_of("upper", x, 1): 1 for x in (1, 2)})
    s.touch()
    assert [str(a) for a in s.legal_actions() if a.actor == "m1"] == []


def _two_stealers_in_sight(cp: int) -> Any:
    """A Genestealer turn: Marine m1 on overwatch, g1 and g2 in his sight; dice 1, 2, 5, 5."""
    rows = ["##########", "#aaaaaaaa#", "#aaaaaaaa#", "##########"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E")],
        stealers=[("g1", 8, 1, "W"), ("g2", 8, 2, "W")],
        phase="stealers",
        cp=cp,
        dice=[1, 2, 5, 5],
    )
    s.p["m1"].ow = True
    return s


def test_sustained_fire_lost_when_another_stealer_acts() -> None:
    s = _two_stealers_in_sight(0)
    play(s, "move g1 W", "fire m1")
    assert s.p["m1"].sus == "g1"
    play(s, "end", "turn g2 N", "hold m1")  # another Genestealer acts: the bonus on g1 is lost
    assert s.p["m1"].sus == ""


def test_sustained_fire_lost_before_a_reaction_shot_when_another_stealer_acts() -> None:
    """4e Tir soutenu: the bonus is lost when a Genestealer other than the target acts; a CP reaction to that
    action, shooting the old target, has no bonus."""
    s = _two_stealers_in_sight(2)
    play(s, "move g1 W", "pass", "fire m1")  # no reaction; the overwatch shot misses (1, 2): sustained on g1
    assert s.p["m1"].sus == "g1"
    play(s, "end", "turn g2 N")  # another Genestealer acts in his sight: a CP reaction is offered
    assert isinstance(s.decision(), ReactionDecision) and s.p["m1"].sus == ""
    play(s, "shoot m1 g1")  # 5, 5: a miss without the bonus
    assert "g1" in s.p and s.log[-1].effects == "reaction; 1 CP; m1 shoots g1: miss"


def test_overwatch_may_shoot_a_door_closing_in_los() -> None:
    rows = ["########", "#aaaDbb#", "########"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E")],
        stealers=[("g1", 5, 1, "W")],
        doors=[("D1", 4, 1)],
        phase="stealers",
        dice=[6, 2],
    )
    s.touch()
    s.door_state["D1"] = "open"
    s.closed.clear()
    s.p["m1"].ow = True
    play(s, "close g1 D1")
    assert [str(a) for a in s.legal_actions()] == ["fire m1", "hold m1"]
    play(s, "fire m1")
    assert s.door_state["D1"] == "destroyed"


def test_assault_cannon_explodes_after_reload_on_a_triple() -> None:
    rows = ["##########", "#aaaaabbb#", "##########"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E", "marine", "assault_cannon"), ("m2", 7, 1, "W")],
        stealers=[("g1", 4, 1, "W")],
        dice=[4, 4, 4, 4],
    )
    s.p["m1"].reloaded = True
    play(s, "shoot m1 g1")
    # 4, 4, 4: no kill (5+), but a reloaded cannon explodes: m1 dies; g1 in the same section dies on the 4;
    # m2 is in another section.
    assert "m1" not in s.p and "g1" not in s.p and "m2" in s.p


def test_assault_cannon_explosion_spares_blips() -> None:
    """4e Canon d'assaut: on an explosion "le joueur Space Marine doit lancer un dé pour chaque figurine ou porte
    située dans la même section": models and doors, not blips (counters, not models)."""
    rows = ["##########", "#aaaaabbb#", "##########"]
    s = scenario(
        rows,
        marines=[("m1", 2, 1, "E", "marine", "assault_cannon")],
        stealers=[("g1", 4, 1, "W")],
        blips=[("b1", 1, 1, 2)],  # behind him, in his section
        dice=[4, 4, 4, 6, 1],
    )
    s.p["m1"].reloaded = True
    play(s, "shoot m1 g1")
    # 4, 4, 4: a reloaded cannon explodes; one die for g1 (6: dies), none for the blip (the 1 is not rolled).
    assert "m1" not in s.p and "g1" not in s.p and "b1" in s.p
    assert s.log[-1].dice == (4, 4, 4, 6) and s.dice.remaining == 1


def _lurking_blip(value: int, dice: tuple[int, ...] = ()) -> Any:
    """A Genestealer turn with blip b1 (worth `value`) lurking at entry E, four squares from Marine m1."""
    rows = ["#######", "#aaaaa#", "#######"]
    return scenario(
        rows,
        marines=[("m1", 1, 1, "W")],
        entry_areas=[("E", 5, 1, "E")],
        blips=[("b1", -1, -1, value, "E")],
        phase="stealers",
        dice=dice,
    )


def test_voluntary_reveal_of_a_lurking_blip_keeps_them_lurking() -> None:
    s = _lurking_blip(2)
    play(s, "reveal b1")
    lurking = [pc for pc in s.p.values() if pc.kind == "stealer"]
    assert len(lurking) == 2 and all(pc.sq < 0 and pc.entry == "E" for pc in lurking)
    play(s, f"enter {lurking[0].id}")
    assert where(s, lurking[0].id) == ("upper", 5, 1) and s.p[lurking[0].id].facing == 3


@pytest.mark.parametrize("alpha", [False, True])
def test_revealing_a_held_back_blip_does_not_end_the_wait(alpha: bool) -> None:
    """4e Blips en attente: with a Marine within six squares of the entry at the start of the Genestealer phase,
    "tout blip en renfort doit attendre jusqu'à la fin du tour"; revealed off the board, its Genestealers "sont
    placées devant la zone d'entrée et peuvent entrer en jeu de la même façon qu'un blip": they wait too."""
    s = _lurking_blip(3, dice=(3,))
    s.game.mission.genestealers.alpha = alpha
    s.p["b1"].lock = True  # placed this turn with m1 four squares from the entry
    s.touch()
    assert not s.is_legal(act("enter", "b1"))
    play(s, "reveal b1", *(["alpha yes"] if alpha else []))
    lurking = [pc for pc in s.p.values() if pc.kind == "stealer"]
    assert len(lurking) == (1 if alpha else 3) and all(pc.sq < 0 and pc.entry == "E" for pc in lurking)
    assert not any(a.verb == "enter" for a in s.legal_actions())
    play(s, "pass")  # the end phase: the wait is over (the next Marine turn draws its CP: 3)
    assert s.turn == 2 and all(not pc.lock for pc in s.p.values())


def test_cp_reaction_offered_after_each_involuntary_placement() -> None:
    rows = ["#########", "#aaaaaaa#", "#aaaaaaa#", "#########"]
    s = scenario(
        rows, marines=[("m1", 1, 1, "E")], blips=[("b1", 6, 2, 2)], stealers=[("g0", 7, 1, "W")], phase="stealers", cp=2
    )
    play(s, "move g0 S")  # g0 steps aside: m1 now sees the blip -> involuntary conversion in the GS turn
    assert "b1" not in s.p
    # first Genestealer on the blip square: its facing, then the CP reaction for that placement
    gid = next(pid for pid, pc in s.p.items() if pc.kind == "stealer" and pid != "g0")
    play(s, f"face {gid} W")
    assert s.current_player() == "marines" and "pass" in [str(a) for a in s.legal_actions()]


def test_blip_square_reused_when_first_stealer_is_shot() -> None:
    rows = ["#########", "#aaaaaaa#", "#aaaaaaa#", "#########"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E")],
        blips=[("b1", 6, 1, 2)],
        stealers=[("g0", 4, 1, "W")],
        phase="stealers",
        dice=[6, 1],
    )
    s.p["m1"].ow = True
    play(s, "move g0 S")  # m1 (on overwatch) now sees the blip: it converts at once
    gid = next(pid for pid, pc in s.p.items() if pc.kind == "stealer" and pid != "g0")
    play(s, f"face {gid} W", "fire m1")  # the placement counts as an action: overwatch kills it
    assert gid not in s.p
    assert [str(a) for a in s.legal_actions()] == ["put upper:6,1"]
    play(s, "put upper:6,1")
    assert len([pc for pc in s.p.values() if pc.kind == "stealer"]) == 2


def test_classic_flamer_markers_chain_stack_and_decay() -> None:
    rows = ["#########", "#aaaaaaa#", "#aaaaaaa#", "#########"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E", "marine", "heavy_flamer")],
        stealers=[("g1", 4, 1, "W"), ("g2", 5, 1, "W")],
        ruleset="classic",
        dice=[6, 3],
    )
    assert s.p["m1"].ammo == 12
    play(s, "flame m1 upper:4,1")  # g1 survives only on a 6: it rolls 6
    assert "g1" in s.p and s.current_player() == "marines"
    chain = [str(a) for a in s.legal_actions()]
    assert "flame m1 upper:4,2" in chain and "pass" in chain and "flame m1 upper:2,1" not in chain
    play(s, "flame m1 upper:4,1")  # stack a second marker on the same square: g1 rolls 3, dies
    assert "g1" not in s.p
    b = s.game.board
    assert s.flames[b.sq_of("upper", 4, 1)] == 2 and s.p["m1"].ammo == 10
    play(s, "pass", "pass")  # end the chain, end the Marine phase: one marker removed from each square
    assert s.flames == {b.sq_of("upper", 4, 1): 1}
    assert "move g2 W" not in [str(a) for a in s.legal_actions()]  # markers block movement


def test_classic_stealer_turns_90_free_once_between_paid_actions() -> None:
    s = scenario(
        CORRIDOR, marines=[("m1", 1, 1, "E")], stealers=[("g1", 7, 1, "W")], phase="stealers", ruleset="classic"
    )
    play(s, "turn g1 N")
    assert s.p["g1"].ap == 6
    play(s, "turn g1 W")  # a second 90° turn in a row costs 1
    assert s.p["g1"].ap == 5
    play(s, "turn g1 E")  # 180°: 1 AP
    assert s.p["g1"].ap == 4


def _lasting_fire(turns: int) -> Any:
    rows = ["########", "#aabbbb#", "########"]
    s = scenario(
        rows,
        marines=[("m1", 1, 1, "E", "marine", "heavy_flamer")],
        stealers=[("g1", 5, 1, "W")],
        game_options={"fire_module": True, "fire_turns": turns},
        dice=[1, 2, 3, 3, 3, 3],
    )
    play(s, "flame m1 upper:3,1")  # g1 rolls 1: survives, and cannot step out of the burning section
    assert "g1" in s.p and s.game.board.sq_of("upper", 5, 1) in s.flames
    play(s, "pass")  # end of the Marine phase
    assert s.current_player() == "genestealers" and not [a for a in s.legal_actions() if a.actor == "g1"]
    play(s, "pass")  # end of the Genestealer phase: the end phase, then turn 2 begins
    return s


def test_ae_fire_burns_out_at_the_end_phase_by_default() -> None:
    s = _lasting_fire(1)
    assert s.turn == 2 and not s.flames and "g1" in s.p


def test_ae_fire_lasting_two_turns_attacks_survivors_again_at_the_start_of_the_next_turn() -> None:
    s = _lasting_fire(2)
    b = s.game.board
    assert s.turn == 2
    assert s.flames == {b.sq_of("upper", x, 1): 1 for x in range(1, 7) if b.section[b.sq_of("upper", x, 1)] == "b"}
    assert "g1" not in s.p  # attacked again at the start of turn 2: rolled 2, Tyranids die on 2+
