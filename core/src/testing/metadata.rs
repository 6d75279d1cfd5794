//! Checks of what a game declares in its [`GameInfo`] about its outputs: the utility (type,
//! range, sum) and the chance-outcome id block.

use crate::game::{ActionId, GameInfo, UtilityKind};

use super::ensure;

/// The declarations are consistent on their own: a sound range, a sum exactly when the type
/// has one, a chance block inside the action ids and wide enough for the largest chance node.
pub fn check_declared(info: &GameInfo) -> Result<(), String> {
    let u = &info.utility;
    ensure(u.min.is_finite() && u.max.is_finite() && u.min <= u.max, || format!("bad utility range [{}, {}]", u.min, u.max))?;
    let sum_ok = match u.kind {
        UtilityKind::ZeroSum => u.sum == Some(0.0),
        UtilityKind::ConstantSum => u.sum.is_some_and(f64::is_finite),
        UtilityKind::GeneralSum => u.sum.is_none(),
    };
    ensure(sum_ok, || format!("utility {:?} declares sum {:?}", u.kind, u.sum))?;
    let b = info.chance_outcome_block;
    ensure(b.offset as u64 + b.count as u64 <= info.num_distinct_actions as u64, || {
        format!("chance block {}+{} exceeds num_distinct_actions {}", b.offset, b.count, info.num_distinct_actions)
    })?;
    ensure(b.count >= info.max_chance_outcomes, || {
        format!("chance block of {} ids is smaller than max_chance_outcomes {}", b.count, info.max_chance_outcomes)
    })
}

/// Every outcome of a chance node lies in the declared block.
pub fn check_chance_ids(info: &GameInfo, outcomes: &[ActionId]) -> Result<(), String> {
    let b = info.chance_outcome_block;
    match outcomes.iter().find(|&&a| !b.contains(a)) {
        Some(a) => Err(format!("chance outcome {a} outside the declared block {}+{}", b.offset, b.count)),
        None => Ok(()),
    }
}

/// The returns of a finished game lie in the declared range and sum as declared.
pub fn check_returns(info: &GameInfo, returns: &[f64]) -> Result<(), String> {
    let u = &info.utility;
    ensure(returns.iter().all(|&r| r >= u.min && r <= u.max), || format!("returns {returns:?} outside [{}, {}]", u.min, u.max))?;
    let total: f64 = returns.iter().sum();
    match u.sum {
        Some(sum) => ensure((total - sum).abs() < 1e-9, || format!("returns {returns:?} sum to {total}, declared {sum}")),
        None => Ok(()),
    }
}
