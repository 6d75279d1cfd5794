//! Hidden information: views, tensors, events and determinizations of each seat.

use super::*;

#[test]
fn hidden_blocks_cards_bag_box_and_bid_never_reach_the_other_side() {
    let (mut checked, mut in_battle, mut differing) = (0, 0, 0);
    for seed in [2u64, 3, 4, 5, 6, 8] {
        let mut rng = Rng::from_seed(seed);
        let mut k = 0u32;
        random_walk(seed, 3000, |g, _, s, _| {
            k += 1;
            // Every battle state, every eighth other one; the observer alternates.
            if s.battle.is_none() && k % 8 != 0 {
                return;
            }
            in_battle += usize::from(s.battle.is_some());
            let p = (k % 2) as u8;
            let enemy = 1 - p;
            let view = g.view(s, p as Player);
            let text = view.to_string();
            for (i, b) in g.data().blocks.iter().enumerate() {
                if b.side == enemy && face_down(s, i) {
                    assert!(!text.contains(&format!("\"{}\"", b.id)), "seat {p} sees {} in {text}", b.id);
                }
            }
            let other = twin(g, s, p, &mut rng);
            differing += usize::from(other != *s);
            assert_eq!(g.view(&other, p as Player), view, "seat {p}, pending {:?}", s.pending);
            assert_eq!(tensor(g, &other, p as Player), tensor(g, s, p as Player), "seat {p}, pending {:?}", s.pending);
            // The spectator sees neither side's secrets.
            if k % 4 == 0 {
                let both = twin(g, &other, enemy, &mut rng);
                assert_eq!(g.view(&both, SPECTATOR), g.view(s, SPECTATOR));
                assert_eq!(tensor(g, &both, SPECTATOR), tensor(g, s, SPECTATOR));
            }
            checked += 1;
        });
    }
    assert!(checked > 1000 && in_battle > 400 && differing > checked / 2, "{checked} {in_battle} {differing}");
}

#[test]
fn events_of_one_seat_never_reach_the_other() {
    for seed in [9u64, 10, 11, 12] {
        random_walk(seed, 3000, check_public_events);
    }
    // Through the engine: each seat's history holds only events addressed to it.
    let g = kassen_core::load_game("sekigahara", None).unwrap();
    let mut s = g.new_initial_state(21);
    let mut rng = Rng::from_seed(21);
    for _ in 0..1500 {
        if s.is_terminal() {
            break;
        }
        let l = s.legal_actions();
        s.apply_in_place(l[rng.below(l.len() as u32) as usize]).unwrap();
    }
    let all = s.events(0).unwrap().len() + s.events(1).unwrap().len();
    let spectator = s.events(SPECTATOR).unwrap();
    assert!(spectator.iter().all(|e| e.audience == Audience::ALL));
    for p in [0, 1] {
        let ev = s.events(p).unwrap();
        assert!(ev.iter().all(|e| e.audience.includes(p)));
        let own = ev.iter().filter(|e| e.audience == Audience::seat(p as usize)).count();
        assert!(own > 0, "seat {p} has private events");
        assert_eq!(ev.len(), spectator.len() + own);
    }
    assert!(all > 2 * spectator.len());
}

// === perft and action-space checks ===

#[test]
fn determinization_keeps_blocks_deployed_in_a_battle_until_it_is_over() {
    // During the loser's retreat decision the battle (and its deployed blocks, face up) is
    // still on the table: a redraw of the hidden blocks must leave them where they are.
    let mut t = Tb::blank();
    t.put(&["T_date_02", "T_date_03"], "kuwana");
    t.put(&["I_kobayakawa_02", "I_kobayakawa_03", "I_kobayakawa_04"], "kuwana");
    t.came(&["I_kobayakawa_03", "I_kobayakawa_04"], "minakuchi");
    t.came(&["I_kobayakawa_02"], "anotsu");
    t.put(&["T_date_04", "T_date_05"], "edo");
    t.staged("kuwana", I, false, NONE, [3, 1], &[("T_date_02", T), ("I_kobayakawa_03", I)]);
    t.act(Action::EndDeploy);
    assert_eq!(t.at("I_kobayakawa_03"), DEAD, "the deployed block is the loss");
    assert_eq!(t.s.pending, Pending::Retreat);
    let shown = t.view(I as Player)["battle"]["deployed"].clone();
    assert!(shown.to_string().contains("\"T_date_02\""), "{shown}");
    for seed in 0..20 {
        let mut rng = Rng::from_seed(seed);
        for p in [T, I] {
            let det = twin(&t.g, &t.s, p, &mut rng);
            assert_eq!(t.g.view(&det, p as Player), t.view(p as Player), "seat {p}, seed {seed}");
        }
    }
}
