//! JSON comparison that tolerates the last-bit float differences of a text round trip.

use serde_json::Value;

/// Structural equality; numbers equal when both are the same integer, or as floats within a
/// relative 1e-12 (serde_json's default float parser may be off by one ulp).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.is_f64() || y.is_f64() {
                let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
                x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
            } else {
                x == y
            }
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w))),
        _ => a == b,
    }
}

/// The first path where `a` and `b` differ, for readable failures.
pub fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (a, b))| first_difference(a, b, &format!("{path}[{i}]")))
        }
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() && x.keys().all(|k| y.contains_key(k)) => {
            x.iter().find_map(|(k, v)| first_difference(v, &y[k], &format!("{path}.{k}")))
        }
        (Value::Array(x), Value::Array(y)) if x.len() != y.len() => {
            Some(format!("{path}: array of {} elements != array of {} elements", x.len(), y.len()))
        }
        _ if json_eq(a, b) => None,
        _ => {
            let short = |v: &Value| {
                let s = v.to_string();
                if s.len() > 200 {
                    format!("{}…", &s[..s.char_indices().nth(200).map_or(s.len(), |c| c.0)])
                } else {
                    s
                }
            };
            Some(format!("{path}: {} != {}", short(a), short(b)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tolerates_only_tiny_float_differences() {
        assert!(json_eq(&json!({"a": [1, 0.1]}), &json!({"a": [1, 0.1000000000000001]})));
        assert!(!json_eq(&json!({"a": [1, 0.1]}), &json!({"a": [1, 0.11]})));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 2})));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": 1})));
        assert_eq!(first_difference(&json!({"a": [1, 2]}), &json!({"a": [1, 3]}), "$").as_deref(), Some("$.a[1]: 2 != 3"));
    }
}
