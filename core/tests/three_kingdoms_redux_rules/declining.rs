//! §8 3) "플레이어는 또한 자신이 입찰에서 승리한 액션을 수행하지 않기로 선택할 수도 있습니다":
//! performing an action and doing nothing in it is declining it (RULES_NOTES.md T8): no action
//! bonus, and it does not count as performed for "did not perform" conditions.

use kassen_core::events::Events;
use kassen_core::game::{ActionId, Game, CHANCE};
use kassen_core::games::three_kingdoms_redux::data::*;
use kassen_core::games::three_kingdoms_redux::{Action, Pending, State, Tkr, NONE};
use kassen_core::rng::Rng;

use super::common::*;

/// Applies a legal action; returns the `(kind, action)` of its `performed` / `declined` events.
fn act_outcome(g: &Tkr, s: &mut State, a: Action) -> Vec<(String, String)> {
    let id = g.encode(a);
    assert!(g.is_legal(s, id), "{a:?} is not legal; legal: {:?}", g.legal_typed(s));
    let mut ev = Events::recording();
    g.apply(s, id, &mut ev);
    ev.into_vec()
        .into_iter()
        .map(|e| e.body.to_value())
        .filter(|v| v["kind"] == "performed" || v["kind"] == "declined")
        .map(|v| (v["kind"].as_str().unwrap().to_string(), v["action"].as_str().unwrap().to_string()))
        .collect()
}

fn declined(a: u8) -> Vec<(String, String)> {
    vec![("declined".into(), ACTIONS[a as usize].into())]
}

fn performed(a: u8) -> Vec<(String, String)> {
    vec![("performed".into(), ACTIONS[a as usize].into())]
}

/// Seed 1026 played by a random policy that also picks the chance outcomes explicitly (uniform
/// over `chance_outcomes`), up to step 221, where Shu performs Trade Rice/Weapons.
fn seed_1026_before_step_221(g: &Tkr) -> State {
    let seed = 1026u64;
    let mut s = g.new_initial_state(seed);
    let mut rng = Rng::from_seed(seed ^ 77);
    let mut legal: Vec<ActionId> = Vec::new();
    let mut outcomes = Vec::new();
    for _ in 0..221 {
        let a = if g.current_player(&s) == CHANCE {
            outcomes.clear();
            g.chance_outcomes(&s, &mut outcomes);
            outcomes[rng.below(outcomes.len() as u32) as usize].0
        } else {
            legal.clear();
            g.legal_actions(&s, &mut legal);
            legal[rng.below(legal.len() as u32) as usize]
        };
        g.apply(&mut s, a, &mut Events::off());
    }
    assert_eq!((s.pending, s.seat as usize), (Pending::ChooseAction, SHU));
    assert!(g.legal_typed(&s).contains(&Action::Perform(A_TRADE)), "Shu won Trade Rice/Weapons");
    s
}

/// Plays on (chance by the state's rng, otherwise the first legal action) until Shu is offered
/// the 물물교환소 exchange (true) or the round ends without it (false).
fn barter_offered(g: &Tkr, s: &mut State, barter: u16) -> bool {
    let round = s.round;
    let mut legal: Vec<ActionId> = Vec::new();
    while s.round == round && !s.is_over() {
        if s.pending == (Pending::Exchange { card: barter, effect: 0, left: 1 }) && s.seat as usize == SHU {
            return true;
        }
        if s.pending == Pending::BenefitOrder && s.seat as usize == SHU {
            // Shu orders its benefits: is one of them the exchange?
            return g.legal_typed(s).into_iter().any(|x| {
                let mut t = s.clone();
                act(g, &mut t, x);
                t.pending == (Pending::Exchange { card: barter, effect: 0, left: 1 })
            });
        }
        let a = if g.current_player(s) == CHANCE {
            g.sample_chance(s)
        } else {
            legal.clear();
            g.legal_actions(s, &mut legal);
            legal[0]
        };
        g.apply(s, a, &mut Events::off());
    }
    false
}

#[test]
fn s8_3_seed_1026_trading_nothing_is_declining_trade() {
    let g = plain();
    let mut s = seed_1026_before_step_221(&g);
    // Shu has built 상인 조합 (+1 gold +1 rice after Trade) and 물물교환소 (a round-end exchange
    // if it did not perform Trade).
    let (guild, barter) = (dev(&g, "merchant_guild"), dev(&g, "barter_post"));
    s.seats[SHU].built |= 1 << guild | 1 << barter;
    s.seats[SHU].rice = s.seats[SHU].rice.max(2);
    let barter_card = (g.data().generals.len() + barter as usize) as u16;
    let before = s.clone();

    // Steps 221-223: perform Trade, no rice trade, no weapon trade.
    act(&g, &mut s, Action::Perform(A_TRADE));
    act(&g, &mut s, Action::Choice(0));
    assert_eq!(act_outcome(&g, &mut s, Action::Choice(0)), declined(A_TRADE));
    assert_eq!((s.seats[SHU].gold, s.seats[SHU].rice), (before.seats[SHU].gold, before.seats[SHU].rice), "상인 조합 pays nothing");
    assert_eq!(s.seats[SHU].performed & 1 << A_TRADE, 0, "declined, not performed");
    assert_eq!(s.seats[SHU].todo & 1 << A_TRADE, 0, "and done with");
    assert!(barter_offered(&g, &mut s, barter_card), "물물교환소: Shu did not perform Trade");

    // Buying rice is trading: 상인 조합 pays, and 물물교환소 is closed this round.
    let mut s = before;
    s.seats[SHU].gold = s.seats[SHU].gold.max(5);
    let (gold, rice) = (s.seats[SHU].gold, s.seats[SHU].rice);
    act(&g, &mut s, Action::Perform(A_TRADE));
    act(&g, &mut s, Action::Choice(1)); // buy 4 rice for 5 gold
    assert_eq!(act_outcome(&g, &mut s, Action::Choice(0)), performed(A_TRADE));
    assert_eq!((s.seats[SHU].gold, s.seats[SHU].rice), (gold - 5 + 1, rice + 4 + 1));
    assert!(!barter_offered(&g, &mut s, barter_card));
}

#[test]
fn s8_3_hiring_no_instructor_and_importing_nothing_is_declining() {
    let g = plain();
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    place(&g, &mut s, "jia_xu", A_INSTRUCT, &[]);
    end_bidding(&g, &mut s);
    let rice = s.seats[WEI].rice;
    act(&g, &mut s, Action::Perform(A_INSTRUCT));
    act(&g, &mut s, Action::Choice(0)); // no instructor
    assert_eq!(act_outcome(&g, &mut s, Action::Choice(0)), declined(A_INSTRUCT)); // no import
    assert_eq!(s.seats[WEI].rice, rice);
    // Hiring alone is performing it.
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    s.seats[WEI].untrained = 2;
    place(&g, &mut s, "jia_xu", A_INSTRUCT, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_INSTRUCT));
    act(&g, &mut s, Action::Choice(2));
    assert_eq!(act_outcome(&g, &mut s, Action::Choice(0)), performed(A_INSTRUCT));
}

#[test]
fn s8_3_building_nothing_is_declining() {
    let g = plain();
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    s.seats[WEI].hand = 1 << dev(&g, "merchant_guild");
    place(&g, &mut s, "jia_xu", A_BUILD, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_BUILD));
    assert_eq!(act_outcome(&g, &mut s, Action::Done), declined(A_BUILD));
    assert_eq!(s.seats[WEI].built, 0);
}

#[test]
fn s8_3_training_no_army_is_declining_and_the_forge_pays_nothing() {
    let g = plain();
    let forge = dev(&g, "forge");
    for trained in [0, 1] {
        let mut s = bidding(&g, 2, &["jia_xu"], NONE);
        s.seats[WEI].built |= 1 << forge;
        s.seats[WEI].untrained = 2;
        let weapons = s.seats[WEI].weapons;
        place(&g, &mut s, "jia_xu", A_TRAIN, &[]);
        end_bidding(&g, &mut s);
        act(&g, &mut s, Action::Perform(A_TRAIN));
        let outcome = act_outcome(&g, &mut s, Action::Choice(trained));
        if trained == 0 {
            assert_eq!(outcome, declined(A_TRAIN));
            assert_eq!(s.seats[WEI].weapons, weapons, "no 대장간 weapon for training nothing");
        } else {
            assert!(outcome.is_empty(), "not finished before the 대장간 weapon is picked");
            assert!(matches!(s.pending, Pending::WeaponPick { give: false, .. }), "대장간 gives a weapon");
            assert_eq!(act_outcome(&g, &mut s, Action::Weapon(0)), performed(A_TRAIN));
        }
    }
}
