//! The generic rendering of a view body as compact text, for games without their own
//! [`crate::Game::board_text`]: one `key: value` line per field, one line per element of a
//! list of objects, and nothing for what is empty (null, false, "", [] and {}), so that a
//! seat's hidden holdings (null in the views of others) simply do not appear. Written
//! straight into the observation's text from the view's [`Node`] tree.

use std::fmt::Write;

use super::node::Node;

/// Whether a value says nothing worth a line.
fn is_empty(v: &Node) -> bool {
    match v {
        Node::Null | Node::Bool(false) => true,
        Node::Str(s) => s.is_empty(),
        Node::List(a) => a.is_empty(),
        Node::Map(o) => o.iter().all(|(_, x)| is_empty(x)),
        _ => false,
    }
}

/// Writes a scalar as text (strings without quotes, numbers as serde_json writes them).
fn scalar(out: &mut String, v: &Node) {
    match v {
        Node::Str(s) => out.push_str(s),
        Node::Bool(true) => out.push_str("yes"),
        Node::Bool(false) => out.push_str("false"),
        Node::Null => out.push_str("null"),
        Node::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Node::Uint(u) => {
            let _ = write!(out, "{u}");
        }
        Node::Float(f) => match serde_json::Number::from_f64(*f) {
            Some(n) => {
                let _ = write!(out, "{n}");
            }
            None => out.push_str("null"),
        },
        Node::List(_) | Node::Map(_) => inline_at(out, v, 0, &[]),
    }
}

/// Writes a value on one line: `k=v, flag, k={a=1, b=2}, list=[x, y]`.
pub fn inline(out: &mut String, v: &Node) {
    inline_at(out, v, 0, &[]);
}

/// [`inline`] of an object without the fields named in `skip`.
pub fn inline_except(out: &mut String, v: &Node, skip: &[&str]) {
    inline_at(out, v, 0, skip);
}

/// Counts of nothing: a zero inside an object nested in a line (`blocks={ishida=0, ...}`).
fn is_zero(v: &Node) -> bool {
    v.as_f64() == Some(0.0)
}

/// [`inline`] at a nesting depth: from depth 1 on, objects leave out their zeros too (and a
/// field whose object holds nothing else).
fn inline_at(out: &mut String, v: &Node, depth: usize, skip: &[&str]) {
    match v {
        Node::Map(o) => {
            let mut first = true;
            for (k, x) in o {
                if is_empty(x) || (depth > 0 && is_zero(x)) || skip.contains(&k.as_ref()) {
                    continue;
                }
                let mark = out.len();
                if !first {
                    out.push_str(", ");
                }
                out.push_str(k);
                match x {
                    Node::Bool(true) => {}
                    Node::Map(_) => {
                        out.push_str("={");
                        let inner = out.len();
                        inline_at(out, x, depth + 1, &[]);
                        if out.len() == inner {
                            out.truncate(mark);
                            continue;
                        }
                        out.push('}');
                    }
                    Node::List(_) => {
                        out.push_str("=[");
                        inline_at(out, x, depth + 1, &[]);
                        out.push(']');
                    }
                    _ => {
                        out.push('=');
                        scalar(out, x);
                    }
                }
                first = false;
            }
        }
        Node::List(a) => {
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                match x {
                    Node::Map(_) => {
                        out.push('{');
                        inline_at(out, x, depth + 1, &[]);
                        out.push('}');
                    }
                    Node::List(_) => {
                        out.push('[');
                        inline_at(out, x, depth + 1, &[]);
                        out.push(']');
                    }
                    Node::Null => out.push('-'),
                    _ => scalar(out, x),
                }
            }
        }
        other => scalar(out, other),
    }
}

fn pad(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
}

fn block(out: &mut String, indent: usize, key: &str, v: &Node) {
    if is_empty(v) {
        return;
    }
    pad(out, indent);
    out.push_str(key);
    match v {
        Node::Map(o) => {
            let flat = o.iter().all(|(_, x)| !matches!(x, Node::Map(_) | Node::List(_)));
            if flat {
                out.push_str(": ");
                inline(out, v);
                out.push('\n');
            } else {
                out.push_str(":\n");
                for (k, x) in o {
                    block(out, indent + 1, k, x);
                }
            }
        }
        Node::List(a) if a.iter().any(|x| matches!(x, Node::Map(_) | Node::List(_))) => {
            let _ = writeln!(out, " ({}):", a.len());
            for x in a {
                pad(out, indent);
                out.push_str("  - ");
                inline(out, x);
                out.push('\n');
            }
        }
        other => {
            out.push_str(": ");
            inline(out, other);
            out.push('\n');
        }
    }
}

/// Writes the fields of a view body (an object), one block each, in the order of the object.
pub fn render(out: &mut String, body: &Node) {
    match body {
        Node::Map(o) => {
            for (k, x) in o {
                block(out, 0, k, x);
            }
        }
        other => block(out, 0, "state", other),
    }
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
            "scores": {"a": 0, "b": 2}, "nested": {"only": {"zero": 0}, "x": 1.5, "list": [null, [1, 2]]},
        });
        let mut text = String::new();
        render(&mut text, &Node::from(&body));
        assert_eq!(
            text,
            "blocks (2):\n  - at=edo, leader, mons=1, seat=0\n  - at=gifu, mons=2, n={b=1}\nnested:\n  list (2):\n    - null\n    - 1, 2\n  only: zero=0\n  x: 1.5\nphase: play\nround: 3\nscores: a=0, b=2\n"
        );
    }
}
