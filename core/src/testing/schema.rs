//! A small JSON Schema (draft 2020-12) validator for the keywords the view envelope schema
//! uses (`schema/view.schema.json`). A keyword it does not know is an error, so a schema can
//! never be checked more loosely than it reads.

use serde_json::Value;

/// The view envelope schema.
pub const VIEW_SCHEMA_JSON: &str = include_str!("../../../schema/view.schema.json");

/// Checks `v` against `schema`; the error names the path of the first violation.
pub fn validate(schema: &Value, v: &Value) -> Result<(), String> {
    check(schema, v, "$")
}

/// Checks `v` against the view envelope schema.
pub fn validate_view(v: &Value) -> Result<(), String> {
    static SCHEMA: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let schema = SCHEMA.get_or_init(|| serde_json::from_str(VIEW_SCHEMA_JSON).expect("the view schema is json"));
    validate(schema, v)
}

fn type_matches(t: &str, v: &Value) -> Result<bool, String> {
    Ok(match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|x| x.fract() == 0.0),
        other => return Err(format!("unsupported type {other:?}")),
    })
}

fn check(schema: &Value, v: &Value, at: &str) -> Result<(), String> {
    let Some(s) = schema.as_object() else { return Err(format!("{at}: a schema must be an object")) };
    let fail = |what: String| Err(format!("{at}: {what}"));
    for (key, want) in s {
        match key.as_str() {
            "$schema" | "$id" | "title" | "description" => {}
            "type" => {
                let types: Vec<&str> = match want {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => return fail("bad \"type\"".into()),
                };
                let mut ok = false;
                for t in &types {
                    ok |= type_matches(t, v)?;
                }
                if !ok {
                    return fail(format!("expected type {types:?}, got {v}"));
                }
            }
            "const" if v != want => return fail(format!("expected {want}, got {v}")),
            "enum" if !want.as_array().is_some_and(|e| e.contains(v)) => return fail(format!("{v} is not one of {want}")),
            "const" | "enum" => {}
            "minimum" => {
                if let (Some(x), Some(m)) = (v.as_f64(), want.as_f64()) {
                    if x < m {
                        return fail(format!("{x} is below the minimum {m}"));
                    }
                }
            }
            "minLength" => {
                if let (Some(x), Some(m)) = (v.as_str(), want.as_u64()) {
                    if (x.chars().count() as u64) < m {
                        return fail(format!("string shorter than {m}"));
                    }
                }
            }
            "minItems" => {
                if let (Some(x), Some(m)) = (v.as_array(), want.as_u64()) {
                    if (x.len() as u64) < m {
                        return fail(format!("fewer than {m} items"));
                    }
                }
            }
            "required" => {
                if let Some(obj) = v.as_object() {
                    for k in want.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        if !obj.contains_key(k) {
                            return fail(format!("missing required field {k:?}"));
                        }
                    }
                }
            }
            "properties" => {
                if let (Some(obj), Some(props)) = (v.as_object(), want.as_object()) {
                    for (k, sub) in props {
                        if let Some(x) = obj.get(k) {
                            check(sub, x, &format!("{at}.{k}"))?;
                        }
                    }
                }
            }
            "additionalProperties" => {
                let known = s.get("properties").and_then(Value::as_object);
                if let (Some(obj), Value::Bool(false)) = (v.as_object(), want) {
                    if let Some(k) = obj.keys().find(|k| !known.is_some_and(|p| p.contains_key(*k))) {
                        return fail(format!("unexpected field {k:?}"));
                    }
                } else if !want.is_boolean() {
                    return fail("only a boolean additionalProperties is supported".into());
                }
            }
            "items" => {
                if let Some(items) = v.as_array() {
                    for (i, x) in items.iter().enumerate() {
                        check(want, x, &format!("{at}[{i}]"))?;
                    }
                }
            }
            "anyOf" => {
                let options = want.as_array().ok_or_else(|| format!("{at}: anyOf must be an array"))?;
                if !options.iter().any(|o| check(o, v, at).is_ok()) {
                    let why: Vec<String> = options.iter().filter_map(|o| check(o, v, at).err()).collect();
                    return fail(format!("matches no anyOf option ({})", why.join("; ")));
                }
            }
            other => return fail(format!("unsupported schema keyword {other:?}")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_validator_rejects_what_the_schema_forbids() {
        let schema = json!({"type": "object", "required": ["a"], "additionalProperties": false,
            "properties": {"a": {"type": ["integer", "null"], "minimum": 0}, "b": {"anyOf": [{"const": 1}, {"enum": ["x"]}]}}});
        assert!(validate(&schema, &json!({"a": 3, "b": "x"})).is_ok());
        assert!(validate(&schema, &json!({"a": null})).is_ok());
        assert!(validate(&schema, &json!({"a": -1})).is_err());
        assert!(validate(&schema, &json!({"a": 1.5})).is_err());
        assert!(validate(&schema, &json!({"b": 1})).is_err());
        assert!(validate(&schema, &json!({"a": 1, "c": 0})).is_err());
        assert!(validate(&schema, &json!({"a": 1, "b": 2})).is_err());
        assert!(validate(&json!({"pattern": "^a$"}), &json!("a")).is_err());
    }

    #[test]
    fn the_view_schema_is_json_with_known_keywords() {
        let schema: Value = serde_json::from_str(VIEW_SCHEMA_JSON).unwrap();
        assert!(validate(&schema, &json!({})).unwrap_err().contains("missing required field"));
    }
}
