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
use crate::events::{event, serialized, Audience, Events};

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
        event!({"kind": "screens_lifted", "seats": seats})
    });
    ev.emit(
        Audience::ALL,
        || event!({"kind": "game_over", "reason": reason_name(reason), "score": serialized(&score(&s.captured[..g.n]))}),
    );
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
        let winners = self.winners.iter().fold(0, |m, &p| m | 1 << p);
        split(winners, self.figures.len())
    }
}

/// Winners (bit p for seat p) split 1.0 equally among `n` seats; everybody else gets 0.
pub fn split(winners: u8, n: usize) -> Vec<f64> {
    let share = 1.0 / winners.count_ones() as f64;
    (0..n).map(|p| if winners & (1 << p) != 0 { share } else { 0.0 }).collect()
}

/// The seat holding the most of each figure type, if any (7.3: ties for most count for
/// nobody).
fn majorities(captured: &[[u8; 3]]) -> [Option<usize>; 3] {
    let n = captured.len();
    std::array::from_fn(|f| {
        let best = (0..n).map(|p| captured[p][f]).max().unwrap_or(0);
        let mut holders = (0..n).filter(|&p| captured[p][f] == best);
        match (holders.next(), holders.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    })
}

/// The winners (bit p for seat p) and how they were found (7.2-7.5), without the breakdown
/// of [`score`].
pub fn winners(captured: &[[u8; 3]]) -> (u8, &'static str) {
    let n = captured.len();
    let total = |p: usize| total(&captured[p]);
    let majorities = majorities(captured);
    let held = |p: usize| majorities.iter().filter(|&&m| m == Some(p)).count();
    // 7.2: two or three majorities win outright.
    if let Some(p) = (0..n).find(|&p| held(p) >= 2) {
        return (1 << p, "two_or_more_majorities");
    }
    // 7.5: nobody holds any majority: most figures in total.
    // INTERPRETATION (RULES_NOTES.md N12): a tie for that shares the win.
    if majorities.iter().all(Option::is_none) {
        let best = (0..n).map(total).max().unwrap_or(0);
        return ((0..n).filter(|&p| total(p) == best).fold(0, |m, p| m | 1 << p), "most_figures");
    }
    // 7.3-7.4: candidates with exactly one majority; the most figures of the other two types,
    // then the most figures in all.
    let candidates = || candidates(captured, majorities);
    let key = |c: &Candidate| (c.other_figures, c.total_figures);
    let best = candidates().map(|c| key(&c)).max().expect("some majority exists");
    (candidates().filter(|c| key(c) == best).fold(0, |m, c| m | 1 << c.seat), "candidates")
}

/// The candidates of 7.3 (one per majority held), by figure type.
fn candidates(captured: &[[u8; 3]], majorities: [Option<usize>; 3]) -> impl Iterator<Item = Candidate> + '_ {
    (0..3).filter_map(move |f| majorities[f].map(|p| (p, f))).map(|(p, f)| Candidate {
        seat: p,
        majority: FIGURE_TYPES[f],
        other_figures: (0..3).filter(|&o| o != f).map(|o| captured[p][o] as u32).sum(),
        total_figures: total(&captured[p]),
    })
}

/// All the figures of one seat.
fn total(figures: &[u8; 3]) -> u32 {
    figures.iter().map(|&x| x as u32).sum()
}

/// Scores the captured figures of every seat (7).
pub fn score(captured: &[[u8; 3]]) -> Score {
    let majorities = majorities(captured);
    let (winners, decided_by) = winners(captured);
    let candidates = if decided_by == "candidates" { candidates(captured, majorities).collect() } else { vec![] };
    Score { figures: captured.to_vec(), majorities, decided_by, candidates, winners: bits(winners as u32).map(usize::from).collect() }
}
