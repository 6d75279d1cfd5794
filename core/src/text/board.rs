//! The generic rendering of a view body as compact text, for games without their own
//! [`crate::Game::board_text`]: one `key: value` line per field, one line per element of a
//! list of objects, and nothing for what is empty (null, false, "", [] and {}), so that a
//! seat's hidden holdings (null in the views of others) simply do not appear.

use serde_json::Value;

/// Whether a value says nothing worth a line.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_empty),
        _ => false,
    }
}

/// A scalar as text (strings without quotes).
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Bool(true) => "yes".into(),
        other => other.to_string(),
    }
}

/// A value on one line: `k=v, flag, k={a=1, b=2}, list=[x, y]`.
pub fn inline(v: &Value) -> String {
    inline_at(v, 0)
}

/// Counts of nothing: a zero inside an object nested in a line (`blocks={ishida=0, ...}`).
fn is_zero(v: &Value) -> bool {
    v.as_f64() == Some(0.0)
}

/// [`inline`] at a nesting depth: from depth 1 on, objects leave out their zeros too (and a
/// field whose object holds nothing else).
fn inline_at(v: &Value, depth: usize) -> String {
    match v {
        Value::Object(o) => {
            let parts: Vec<String> = o
                .iter()
                .filter(|(_, x)| !(is_empty(x) || (depth > 0 && is_zero(x))))
                .filter_map(|(k, x)| match x {
                    Value::Bool(true) => Some(k.clone()),
                    Value::Object(_) => {
                        let inner = inline_at(x, depth + 1);
                        (!inner.is_empty()).then(|| format!("{k}={{{inner}}}"))
                    }
                    Value::Array(_) => Some(format!("{k}=[{}]", inline_at(x, depth + 1))),
                    _ => Some(format!("{k}={}", scalar(x))),
                })
                .collect();
            parts.join(", ")
        }
        Value::Array(a) => {
            let parts: Vec<String> = a
                .iter()
                .map(|x| match x {
                    Value::Object(_) => format!("{{{}}}", inline_at(x, depth + 1)),
                    Value::Array(_) => format!("[{}]", inline_at(x, depth + 1)),
                    Value::Null => "-".into(),
                    _ => scalar(x),
                })
                .collect();
            parts.join(", ")
        }
        other => scalar(other),
    }
}

fn block(out: &mut String, indent: usize, key: &str, v: &Value) {
    if is_empty(v) {
        return;
    }
    let pad = "  ".repeat(indent);
    match v {
        Value::Object(o) => {
            let flat = o.values().all(|x| !matches!(x, Value::Object(_) | Value::Array(_)));
            if flat {
                out.push_str(&format!("{pad}{key}: {}\n", inline(v)));
            } else {
                out.push_str(&format!("{pad}{key}:\n"));
                for (k, x) in o {
                    block(out, indent + 1, k, x);
                }
            }
        }
        Value::Array(a) if a.iter().any(|x| matches!(x, Value::Object(_) | Value::Array(_))) => {
            out.push_str(&format!("{pad}{key} ({}):\n", a.len()));
            for x in a {
                out.push_str(&format!("{pad}  - {}\n", inline(x)));
            }
        }
        other => out.push_str(&format!("{pad}{key}: {}\n", inline(other))),
    }
}

/// The fields of a view body (an object), one block each, in the order of the object.
pub fn render(body: &Value) -> String {
    let mut out = String::new();
    match body {
        Value::Object(o) => {
            for (k, x) in o {
                block(&mut out, 0, k, x);
            }
        }
        other => block(&mut out, 0, "state", other),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_fields_are_left_out_and_lists_of_objects_get_a_line_each() {
        let body = json!({
            "hand": null, "phase": "play", "passed": false, "round": 3,
            "blocks": [{"at": "edo", "leader": true, "moved": false, "mons": 1, "seat": 0}, {"at": "gifu", "mons": 2, "n": {"a": 0, "b": 1}}],
            "scores": {"a": 0, "b": 2},
        });
        let text = render(&body);
        assert_eq!(
            text,
            "blocks (2):\n  - at=edo, leader, mons=1, seat=0\n  - at=gifu, mons=2, n={b=1}\nphase: play\nround: 3\nscores: a=0, b=2\n"
        );
    }
}
