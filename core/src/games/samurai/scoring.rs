//! === 6. Game end, 7. Scoring ===
//!
//! 6.1 When the last figure of any type leaves the board (captured or set aside) the
//! player's turn ends at once and so does the game; 6.2 likewise when a fourth figure is set
//! aside. 7.2 A player with the most figures of 2 or 3 types wins. 7.3 Otherwise every player
//! with the most of exactly one type (ties for most count for nobody) is a candidate; a player
//! with no "most" cannot win. 7.4 Candidates compare their figures of the other two types, then
//! all their figures; a remaining tie shares the win. 7.5 With no "most" anywhere, the most
//! figures in total wins. 7.1 Before counting, every player lifts his screen: a public event
//! shows each seat's captured figures and the tokens left behind its screen.

use serde::Serialize;
use serde_json::json;

use super::state::{EndReason, Phase, State};
use super::{bits, Samurai, FIGURE_TYPES};
use crate::events::{Audience, Events};

/// Set-aside figures that end the game (6.2). INTERPRETATION (RULES_NOTES.md N8): 4 for every
/// player count.
pub const SET_ASIDE_LIMIT: u8 = 4;

pub fn check_end(g: &Samurai, s: &mut State, ev: &mut Events) {
    if let Some(f) = (0..3u8).find(|&f| s.on_board[f as usize] == 0) {
        finish(g, s, EndReason::TypeExhausted(f), ev);
    } else if s.set_aside.iter().sum::<u8>() >= SET_ASIDE_LIMIT {
        finish(g, s, EndReason::FourSetAside, ev);
    }
}

pub fn finish(g: &Samurai, s: &mut State, reason: EndReason, ev: &mut Events) {
    s.phase = Phase::Over;
    s.end = Some(reason);
    s.turn.pending = super::Pending::None;
    // 7.1: everybody lifts the screen: the captured figures and the tokens behind it are shown.
    ev.emit(Audience::ALL, || {
        let seats: Vec<_> = (0..g.n)
            .map(|p| {
                let hand: Vec<_> = bits(s.hands[p]).map(|t| json!({"token": t, "name": g.data().tokens[t as usize].name})).collect();
                let c = s.captured[p];
                json!({"seat": p, "captured": {"helmet": c[0], "buddha": c[1], "rice": c[2]}, "hand": hand})
            })
            .collect();
        json!({"kind": "screens_lifted", "seats": seats})
    });
    let sc = score(&s.captured[..g.n]);
    ev.emit(Audience::ALL, || json!({"kind": "game_over", "reason": reason_name(reason), "score": sc}));
}

pub fn reason_name(r: EndReason) -> String {
    match r {
        EndReason::TypeExhausted(f) => format!("last {} figure left the board", FIGURE_TYPES[f as usize]),
        EndReason::FourSetAside => "a fourth figure was set aside".into(),
        EndReason::NobodyCanPlay => "no player could play for a whole round".into(),
    }
}

/// The full score breakdown (fields in alphabetical order: the view JSON writes them in this
/// order and lists object keys sorted).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// Candidates with one majority (7.3), with their other-type and total counts.
    pub candidates: Vec<Candidate>,
    /// How the winners were found: "two_or_more_majorities", "candidates", "most_figures".
    pub decided_by: &'static str,
    /// Figures per seat and type.
    pub figures: Vec<[u8; 3]>,
    /// The seat holding the most of each type, if any (7.3: ties for most count for nobody).
    pub majorities: [Option<usize>; 3],
    pub winners: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    pub majority: &'static str,
    pub other_figures: u32,
    pub seat: usize,
    pub total_figures: u32,
}

impl Score {
    /// Winners split 1.0 equally; everybody else gets 0.
    pub fn returns(&self) -> Vec<f64> {
        let share = 1.0 / self.winners.len() as f64;
        (0..self.figures.len()).map(|p| if self.winners.contains(&p) { share } else { 0.0 }).collect()
    }
}

/// Scores the captured figures of every seat (7).
pub fn score(captured: &[[u8; 3]]) -> Score {
    let n = captured.len();
    let total = |p: usize| captured[p].iter().map(|&x| x as u32).sum::<u32>();
    let majorities: [Option<usize>; 3] = std::array::from_fn(|f| {
        let best = (0..n).map(|p| captured[p][f]).max().unwrap_or(0);
        let holders: Vec<usize> = (0..n).filter(|&p| captured[p][f] == best).collect();
        (holders.len() == 1).then(|| holders[0])
    });
    let held = |p: usize| majorities.iter().filter(|&&m| m == Some(p)).count();
    let figures = captured.to_vec();

    // 7.2: two or three majorities win outright.
    if let Some(p) = (0..n).find(|&p| held(p) >= 2) {
        return Score { figures, majorities, decided_by: "two_or_more_majorities", candidates: vec![], winners: vec![p] };
    }
    // 7.5: nobody holds any majority: most figures in total.
    // INTERPRETATION (RULES_NOTES.md N12): a tie for that shares the win.
    if majorities.iter().all(Option::is_none) {
        let best = (0..n).map(total).max().unwrap_or(0);
        let winners = (0..n).filter(|&p| total(p) == best).collect();
        return Score { figures, majorities, decided_by: "most_figures", candidates: vec![], winners };
    }
    // 7.3-7.4: candidates with exactly one majority.
    let candidates: Vec<Candidate> = (0..3)
        .filter_map(|f| majorities[f].map(|p| (p, f)))
        .map(|(p, f)| Candidate {
            seat: p,
            majority: FIGURE_TYPES[f],
            other_figures: (0..3).filter(|&o| o != f).map(|o| captured[p][o] as u32).sum(),
            total_figures: total(p),
        })
        .collect();
    let key = |c: &Candidate| (c.other_figures, c.total_figures);
    let best = candidates.iter().map(key).max().expect("some majority exists");
    let mut winners: Vec<usize> = candidates.iter().filter(|c| key(c) == best).map(|c| c.seat).collect();
    winners.sort_unstable();
    Score { figures, majorities, decided_by: "candidates", candidates, winners }
}
