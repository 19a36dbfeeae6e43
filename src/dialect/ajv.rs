//! The first error ajv reports for an edit tool's input against its JSON
//! schema, in the words Gemini CLI and Qwen Code (its fork) give the
//! model: an object with required string properties and one optional
//! boolean.

use serde_json::{Map, Value};

/// The input as an object, or ajv's error for anything else (an array is
/// an object of the wrong kind to it).
pub fn object(input: &Value) -> Result<&Map<String, Value>, String> {
    input.as_object().ok_or_else(|| {
        if input.is_array() {
            "params must be object".to_string()
        } else {
            "Value of params must be an object".to_string()
        }
    })
}

/// ajv's first error for `object` against a schema requiring the string
/// properties `strings` (in that order: every missing one is reported
/// before any of the wrong type) and an optional boolean `flag`; else the
/// flag's value (`false` when absent).
pub fn strings_and_flag(
    object: &Map<String, Value>,
    strings: &[&str],
    flag: &str,
) -> Result<bool, String> {
    if let Some(missing) = strings.iter().find(|k| !object.contains_key(**k)) {
        return Err(format!("params must have required property '{missing}'"));
    }
    if let Some(wrong) = strings
        .iter()
        .find(|k| !object.get(**k).is_some_and(Value::is_string))
    {
        return Err(format!("params/{wrong} must be string"));
    }
    match object.get(flag) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("params/{flag} must be boolean")),
    }
}
