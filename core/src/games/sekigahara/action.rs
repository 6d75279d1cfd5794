//! The fixed action space: one block of ids per kind of decision, sized by the component data
//! (card types, locations, roads, blocks, disks). Chance outcomes (card and block draws) come last.

use super::state::Mode;
use crate::game::ActionId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// 6.3: bid this card type face down.
    Bid(u8),
    /// 6.3: bid with an empty hand (value 0).
    BidNothing,
    /// 6.3: the bid winner makes this side go first.
    First(u8),
    /// Discard a card (reinforcement, movement mode, no-move exchange).
    Discard(u8),
    /// Finish the current choice (discards, muster, castle retreat, or no second block).
    Done,
    Mode(Mode),
    /// 7.3: move the stack at this location.
    Origin(u8),
    /// 7.2 option A (revealed, clan-matching, any number) at this recruitment location.
    MusterA(u8),
    /// 7.2 option B (one hidden block of any clan) at this recruitment location.
    MusterB(u8),
    /// Choose a block (for the group, the muster, a deployment, a casualty, the castle).
    Select(u8),
    /// 7.3.1: move the group along this road.
    Step(u8),
    /// 7.3.1: leave this block where the group is.
    Drop(u8),
    /// The group stops here.
    Stop,
    /// The stack at the origin is finished.
    EndStack,
    /// 7.3.4: reveal this leader for command.
    Command(u8),
    /// 7.3.3: discard this card type for a forced march.
    ForcedMarch(u8),
    EndPhase,
    /// 8.1: fight the battle at this location next.
    Battle(u8),
    /// 8.9.2: the castle holder stays inside; 8.8.5: retreating blocks join their besieged
    /// garrison inside the castle.
    Siege,
    /// 8.9.2: the castle holder fights outside; 8.8.5: retreating blocks stay outside their
    /// besieged castle.
    Field,
    /// 8.2.4: deploy this leader without a card.
    Leader(u8),
    /// 8.2.3: play this card type to deploy a block.
    Card(u8),
    /// 8.5: declare that no more blocks will be deployed.
    EndDeploy,
    /// 8.6: play a Loyalty Challenge against the last deployment.
    Challenge,
    NoChallenge,
    /// 8.6.1: show this card type to keep the challenged block loyal.
    Refute(u8),
    /// 8.9.4 C: lose this disk.
    Disk(u8),
    /// 8.8: retreat to this location.
    Retreat(u8),
    /// Chance: a card of this type is drawn.
    DrawCard(u8),
    /// Chance: this block is drawn from its side's bag.
    DrawBlock(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bid,
    BidNothing,
    First,
    Discard,
    Done,
    Mode,
    Origin,
    MusterA,
    MusterB,
    Select,
    Step,
    Drop,
    Stop,
    EndStack,
    Command,
    ForcedMarch,
    EndPhase,
    Battle,
    Siege,
    Field,
    Leader,
    Card,
    EndDeploy,
    Challenge,
    NoChallenge,
    Refute,
    Disk,
    Retreat,
    DrawCard,
    DrawBlock,
}

const KINDS: [Kind; 30] = [
    Kind::Bid,
    Kind::BidNothing,
    Kind::First,
    Kind::Discard,
    Kind::Done,
    Kind::Mode,
    Kind::Origin,
    Kind::MusterA,
    Kind::MusterB,
    Kind::Select,
    Kind::Step,
    Kind::Drop,
    Kind::Stop,
    Kind::EndStack,
    Kind::Command,
    Kind::ForcedMarch,
    Kind::EndPhase,
    Kind::Battle,
    Kind::Siege,
    Kind::Field,
    Kind::Leader,
    Kind::Card,
    Kind::EndDeploy,
    Kind::Challenge,
    Kind::NoChallenge,
    Kind::Refute,
    Kind::Disk,
    Kind::Retreat,
    Kind::DrawCard,
    Kind::DrawBlock,
];

/// Sizes of the variable families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub cards: u32,
    pub locations: u32,
    pub roads: u32,
    pub blocks: u32,
    pub disks: u32,
    offsets: [u32; 31],
}

impl Layout {
    pub fn new(cards: u32, locations: u32, roads: u32, blocks: u32, disks: u32) -> Layout {
        let mut l = Layout { cards, locations, roads, blocks, disks, offsets: [0; 31] };
        for (i, &k) in KINDS.iter().enumerate() {
            l.offsets[i + 1] = l.offsets[i] + l.size(k);
        }
        l
    }

    fn size(&self, k: Kind) -> u32 {
        match k {
            Kind::Bid | Kind::Discard | Kind::ForcedMarch | Kind::Card | Kind::Refute | Kind::DrawCard => self.cards,
            Kind::First => 2,
            Kind::Mode => 4,
            Kind::Origin | Kind::MusterA | Kind::MusterB | Kind::Battle | Kind::Retreat => self.locations,
            Kind::Step => self.roads,
            Kind::Select | Kind::Drop | Kind::Command | Kind::Leader | Kind::DrawBlock => self.blocks,
            Kind::Disk => self.disks,
            _ => 1,
        }
    }

    pub fn num_actions(&self) -> u32 {
        self.offsets[KINDS.len()]
    }

    /// The first chance outcome id (every id below it is a player action).
    pub fn first_chance(&self) -> u32 {
        self.offsets[KINDS.iter().position(|&k| k == Kind::DrawCard).expect("listed")]
    }

    pub fn encode(&self, a: Action) -> ActionId {
        let (k, i) = match a {
            Action::Bid(c) => (Kind::Bid, c as u32),
            Action::BidNothing => (Kind::BidNothing, 0),
            Action::First(s) => (Kind::First, s as u32),
            Action::Discard(c) => (Kind::Discard, c as u32),
            Action::Done => (Kind::Done, 0),
            Action::Mode(m) => (Kind::Mode, Mode::ALL.iter().position(|&x| x == m).expect("mode") as u32),
            Action::Origin(l) => (Kind::Origin, l as u32),
            Action::MusterA(l) => (Kind::MusterA, l as u32),
            Action::MusterB(l) => (Kind::MusterB, l as u32),
            Action::Select(b) => (Kind::Select, b as u32),
            Action::Step(r) => (Kind::Step, r as u32),
            Action::Drop(b) => (Kind::Drop, b as u32),
            Action::Stop => (Kind::Stop, 0),
            Action::EndStack => (Kind::EndStack, 0),
            Action::Command(b) => (Kind::Command, b as u32),
            Action::ForcedMarch(c) => (Kind::ForcedMarch, c as u32),
            Action::EndPhase => (Kind::EndPhase, 0),
            Action::Battle(l) => (Kind::Battle, l as u32),
            Action::Siege => (Kind::Siege, 0),
            Action::Field => (Kind::Field, 0),
            Action::Leader(b) => (Kind::Leader, b as u32),
            Action::Card(c) => (Kind::Card, c as u32),
            Action::EndDeploy => (Kind::EndDeploy, 0),
            Action::Challenge => (Kind::Challenge, 0),
            Action::NoChallenge => (Kind::NoChallenge, 0),
            Action::Refute(c) => (Kind::Refute, c as u32),
            Action::Disk(d) => (Kind::Disk, d as u32),
            Action::Retreat(l) => (Kind::Retreat, l as u32),
            Action::DrawCard(c) => (Kind::DrawCard, c as u32),
            Action::DrawBlock(b) => (Kind::DrawBlock, b as u32),
        };
        let ki = KINDS.iter().position(|&x| x == k).expect("listed");
        debug_assert!(i < self.size(k));
        self.offsets[ki] + i
    }

    pub fn decode(&self, id: ActionId) -> Option<Action> {
        if id >= self.num_actions() {
            return None;
        }
        let ki = self.offsets.partition_point(|&o| o <= id) - 1;
        let i = id - self.offsets[ki];
        let u = i as u8;
        Some(match KINDS[ki] {
            Kind::Bid => Action::Bid(u),
            Kind::BidNothing => Action::BidNothing,
            Kind::First => Action::First(u),
            Kind::Discard => Action::Discard(u),
            Kind::Done => Action::Done,
            Kind::Mode => Action::Mode(Mode::ALL[i as usize]),
            Kind::Origin => Action::Origin(u),
            Kind::MusterA => Action::MusterA(u),
            Kind::MusterB => Action::MusterB(u),
            Kind::Select => Action::Select(u),
            Kind::Step => Action::Step(u),
            Kind::Drop => Action::Drop(u),
            Kind::Stop => Action::Stop,
            Kind::EndStack => Action::EndStack,
            Kind::Command => Action::Command(u),
            Kind::ForcedMarch => Action::ForcedMarch(u),
            Kind::EndPhase => Action::EndPhase,
            Kind::Battle => Action::Battle(u),
            Kind::Siege => Action::Siege,
            Kind::Field => Action::Field,
            Kind::Leader => Action::Leader(u),
            Kind::Card => Action::Card(u),
            Kind::EndDeploy => Action::EndDeploy,
            Kind::Challenge => Action::Challenge,
            Kind::NoChallenge => Action::NoChallenge,
            Kind::Refute => Action::Refute(u),
            Kind::Disk => Action::Disk(u),
            Kind::Retreat => Action::Retreat(u),
            Kind::DrawCard => Action::DrawCard(u),
            Kind::DrawBlock => Action::DrawBlock(u),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips() {
        let l = Layout::new(26, 51, 62, 96, 2);
        for id in 0..l.num_actions() {
            let a = l.decode(id).expect("in range");
            assert_eq!(l.encode(a), id, "{a:?}");
        }
        assert_eq!(l.decode(l.num_actions()), None);
        assert_eq!(l.decode(l.first_chance()), Some(Action::DrawCard(0)));
    }
}
