//! §8 Trade Rice/Weapons: a trade's sentence tells what the seat paid and got ("Wu buys 4 rice
//! for 5 gold"), the amounts its gold and rice moved by, not the menu's option number.

use kassen_core::events::Events;
use kassen_core::game::{ActionId, Game, SPECTATOR, TERMINAL};
use kassen_core::games::three_kingdoms_redux::Pending;
use kassen_core::rng::Rng;

use super::common::*;

#[test]
fn a_trade_sentence_tells_the_gold_and_goods_that_moved() {
    let g = plain();
    let (mut rice_trades, mut weapon_trades, mut none) = (0, 0, 0);
    for seed in 0..40u64 {
        let mut s = g.new_initial_state(seed);
        let mut rng = Rng::from_seed(seed ^ 5);
        let mut legal: Vec<ActionId> = Vec::new();
        while g.current_player(&s) != TERMINAL {
            let a = random_action(&g, &mut s, &mut rng, &mut legal);
            let trade = matches!(s.pending, Pending::TradeRice | Pending::TradeWeapons);
            let seat = s.seat as usize;
            let (gold, rice) = (s.seats[seat].gold, s.seats[seat].rice);
            let mut ev = Events::recording();
            g.apply(&mut s, a, &mut ev);
            if !trade {
                continue;
            }
            let (dgold, drice) = (s.seats[seat].gold - gold, s.seats[seat].rice - rice);
            for e in ev.into_vec() {
                let kind = e.body.to_value()["kind"].as_str().unwrap_or_default().to_string();
                if kind != "trade_rice" && kind != "trade_weapons" {
                    continue;
                }
                let text = g.event_text(&e.body, SPECTATOR).expect("a trade has a sentence");
                assert!(!text.contains("option"), "{text}");
                let goods = if kind == "trade_rice" { "rice" } else { "weapons" };
                let expected = match dgold {
                    0 => {
                        none += 1;
                        format!(" makes no {} trade", if kind == "trade_rice" { "rice" } else { "weapon" })
                    }
                    d => format!(" for {} gold", d.abs()),
                };
                assert!(text.ends_with(&expected), "seed {seed}: {text:?} after gold {dgold:+}, rice {drice:+}");
                if kind == "trade_rice" && dgold != 0 {
                    rice_trades += 1;
                    let verb = if drice > 0 { "buys" } else { "sells" };
                    assert!(text.contains(&format!(" {verb} {} {goods} for", drice.abs())), "seed {seed}: {text:?} after rice {drice:+}");
                } else if dgold != 0 {
                    weapon_trades += 1;
                    let verb = if dgold < 0 { "buys" } else { "sells" };
                    assert!(text.contains(&format!(" {verb} ")), "seed {seed}: {text:?} after gold {dgold:+}");
                }
            }
        }
    }
    assert!(rice_trades > 0 && weapon_trades > 0 && none > 0, "{rice_trades} rice, {weapon_trades} weapon trades, {none} none");
}
