//! §11 final scoring: military, borders, region tokens, the three rankings (C28), tribal
//! bonus, office, Han Emperor token, developments, deficits; tie-breaks.

use serde::Serialize;

use super::data::*;
use super::rules::border_result;
use super::state::*;
use super::Tkr;

/// One seat's final score sheet (fields in alphabetical order: the view JSON writes them in
/// this order and lists object keys sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    pub borders: i32,
    pub deficits: i32,
    pub developments: i32,
    pub domestic: i32,
    pub han: i32,
    pub military: i32,
    pub office: i32,
    pub office_rank: i32,
    pub region_tokens: i32,
    pub security: i32,
    pub total: i32,
    pub tribal_bonus: i32,
}

/// Ranking points of three totals (C28): 5/2/0; two tied first 3/3/0; two tied second
/// 5/1/1; all tied 3 each (values from the data's ranking_rule).
pub fn rank_points(r: &RankVp, v: [i32; 3]) -> [i32; 3] {
    let mut idx = [0usize, 1, 2];
    idx.sort_by_key(|&i| std::cmp::Reverse(v[i]));
    let (a, b, c) = (v[idx[0]], v[idx[1]], v[idx[2]]);
    let mut out = [0; 3];
    if a == b && b == c {
        return [r.all_tied; 3];
    }
    if a == b {
        out[idx[0]] = r.tied_first;
        out[idx[1]] = r.tied_first;
        out[idx[2]] = r.third;
    } else if b == c {
        out[idx[0]] = r.first;
        out[idx[1]] = r.tied_second;
        out[idx[2]] = r.tied_second;
    } else {
        out[idx[0]] = r.first;
        out[idx[1]] = r.second;
        out[idx[2]] = r.third;
    }
    out
}

impl Tkr {
    pub fn scores(&self, s: &State) -> [Score; 3] {
        let d = &self.data;
        let mut out: [Score; 3] = Default::default();
        let mut bonus = [[0i32; 3]; 3];
        for (seat, p) in s.seats.iter().enumerate() {
            let mut b = p.built;
            while b != 0 {
                let dv = b.trailing_zeros() as usize;
                b &= b - 1;
                for e in &d.developments[dv].effects {
                    if let Effect::RankingBonus { category, amount } = e {
                        bonus[*category as usize][seat] += amount;
                    }
                }
            }
        }
        let domestic =
            rank_points(&d.rank_vp, std::array::from_fn(|k| (s.seats[k].farm_level + s.seats[k].market_level) as i32 + bonus[0][k]));
        let security = rank_points(&d.rank_vp, std::array::from_fn(|k| s.seats[k].tribal + s.seats[k].support + bonus[1][k]));
        let office = rank_points(&d.rank_vp, std::array::from_fn(|k| s.seats[k].office as i32 + bonus[2][k]));
        for (seat, sc) in out.iter_mut().enumerate() {
            let p = &s.seats[seat];
            sc.military = p.military;
            sc.borders = borders_of(seat)
                .iter()
                .map(|&b| match border_result(d, s, b, seat) {
                    1 => d.border_vp[0],
                    0 => d.border_vp[1],
                    _ => d.border_vp[2],
                })
                .sum();
            sc.region_tokens = self.metric(s, seat, 16);
            sc.domestic = domestic[seat];
            sc.security = security[seat];
            sc.tribal_bonus = d.tribal_bonus[p.tribal.clamp(0, 12) as usize];
            sc.office_rank = office[seat];
            sc.office = d.office_vp[p.office as usize];
            sc.han = if s.han_holder as usize == seat { d.han_vp } else { 0 };
            let mut dev = 0;
            let mut b = p.built;
            while b != 0 {
                let dv = b.trailing_zeros() as usize;
                b &= b - 1;
                dev += d.developments[dv].vp;
                let card = (self.g_count() + dv) as u16;
                for e in &d.developments[dv].effects {
                    if let Effect::EndGameVp { vp, per, vp_each, cond } = e {
                        if self.cond_ok_pub(s, seat, cond, card, None, None) {
                            dev += vp;
                            if let Some((m, div, max)) = per {
                                dev += vp_each * (self.metric(s, seat, *m) / div).min(*max);
                            }
                        }
                    }
                }
            }
            sc.developments = dev;
            sc.deficits = p.deficits * d.deficit_vp;
            sc.total = sc.military
                + sc.borders
                + sc.region_tokens
                + sc.domestic
                + sc.security
                + sc.tribal_bonus
                + sc.office_rank
                + sc.office
                + sc.han
                + sc.developments
                + sc.deficits;
        }
        out
    }

    /// Final placing: total, then gold + rice, then Shu > Wu > Wei (§11).
    pub fn ranking(&self, s: &State) -> [usize; 3] {
        let totals: [i32; 3] = match s.final_scores[..] {
            [a, b, c] => [a, b, c],
            _ => self.scores(s).map(|x| x.total),
        };
        let mut idx = [0usize, 1, 2];
        idx.sort_by_key(|&k| (std::cmp::Reverse(totals[k]), std::cmp::Reverse(s.seats[k].gold + s.seats[k].rice), std::cmp::Reverse(k)));
        idx
    }
}
