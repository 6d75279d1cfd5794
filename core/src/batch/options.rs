//! Batch options from a JSON object (the C ABI's form).

use serde_json::{Map, Value};

use super::{BatchOptions, ObsDtype, Opponent};
use crate::error::SetupError;

const KEYS: [&str; 8] = ["num_envs", "seed", "threads", "obs_seat", "opponent", "learner_seat", "max_episode_steps", "obs_dtype"];

fn uint(m: &Map<String, Value>, key: &str) -> Result<Option<u64>, SetupError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| SetupError::InvalidConfig(format!("{key} must be a non-negative integer, got {}", crate::input::json(v)))),
    }
}

fn small(m: &Map<String, Value>, key: &str) -> Result<Option<u32>, SetupError> {
    uint(m, key)?.map(|v| u32::try_from(v).map_err(|_| SetupError::OutOfRange(format!("{key} {v} is too large")))).transpose()
}

impl BatchOptions {
    /// Reads `{"num_envs": N, "seed": S, "threads": T, "obs_seat": seat or null, "opponent":
    /// "random" or null, "learner_seat": L, "max_episode_steps": M or null, "obs_dtype":
    /// "compact" (the default), "float32" or "uint8"}`; only `num_envs` is required. Unknown
    /// keys are an error.
    pub fn from_json(v: &Value) -> Result<BatchOptions, SetupError> {
        let m = v.as_object().ok_or_else(|| SetupError::InvalidConfig("batch options must be a json object".into()))?;
        if let Some(k) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(SetupError::UnknownKey(k.clone()));
        }
        let num_envs = small(m, "num_envs")?.ok_or_else(|| SetupError::InvalidConfig("batch options need num_envs".into()))?;
        let mut o = BatchOptions::new(num_envs as usize, uint(m, "seed")?.unwrap_or(0));
        o.threads = small(m, "threads")?.unwrap_or(1) as usize;
        o.learner_seat = small(m, "learner_seat")?.unwrap_or(0) as usize;
        o.max_episode_steps = small(m, "max_episode_steps")?;
        o.obs_seat = match m.get("obs_seat") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_i64()
                    .and_then(|s| i32::try_from(s).ok())
                    .ok_or_else(|| SetupError::InvalidConfig(format!("obs_seat must be a seat number, got {}", crate::input::json(v))))?,
            ),
        };
        let text = |key: &str| match m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(v) => Err(SetupError::InvalidConfig(format!("{key} must be a string, got {}", crate::input::json(v)))),
        };
        o.opponent = text("opponent")?.map(Opponent::parse).transpose()?;
        o.obs_dtype = match text("obs_dtype")? {
            None | Some("compact") => ObsDtype::Compact,
            Some("float32") => ObsDtype::F32,
            Some("uint8") => ObsDtype::U8,
            Some(other) => {
                return Err(SetupError::InvalidConfig(format!(
                    "obs_dtype must be \"compact\", \"float32\" or \"uint8\", got {}",
                    crate::input::quote(other)
                )))
            }
        };
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn options_read_from_json() {
        let o = BatchOptions::from_json(&json!({"num_envs": 4, "seed": 9, "threads": 2, "opponent": "random", "learner_seat": 1,
            "max_episode_steps": 100, "obs_dtype": "uint8"}))
        .unwrap();
        assert_eq!(o.num_envs, 4);
        assert_eq!((o.seed, o.threads, o.learner_seat), (9, 2, 1));
        assert_eq!((o.opponent, o.max_episode_steps, o.obs_dtype), (Some(Opponent::Random), Some(100), ObsDtype::U8));
        assert_eq!(BatchOptions::from_json(&json!({"num_envs": 2})).unwrap(), BatchOptions::new(2, 0));
        assert_eq!(BatchOptions::new(2, 0).obs_dtype, ObsDtype::Compact);
        let dtype = |d: &str| BatchOptions::from_json(&json!({"num_envs": 1, "obs_dtype": d})).unwrap().obs_dtype;
        assert_eq!((dtype("compact"), dtype("float32"), dtype("uint8")), (ObsDtype::Compact, ObsDtype::F32, ObsDtype::U8));
        for bad in [
            json!({}),
            json!({"num_envs": -1}),
            json!({"num_envs": 1, "colour": 1}),
            json!({"num_envs": 1, "obs_dtype": "f16"}),
            json!([1]),
        ] {
            assert!(BatchOptions::from_json(&bad).is_err(), "{bad}");
        }
    }
}
