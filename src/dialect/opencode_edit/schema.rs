//! The text OpenCode's tool wrapper gives for an input its schema rejects
//! (`ToolInvalidArgumentsError`, wrapping `String(SchemaError)` of the
//! Effect Schema decoder it ships): the first issue, as
//! `Expected <type>, got <value>` or `Missing key`, with `at ["<key>"]`
//! below it for a field. The wording follows Effect 4.0.0-beta.60, whose
//! issue formatter is the one in the shipped bundle; it was not seen in a
//! recorded run. Values are printed as Effect's `format` prints them
//! (compact JSON, JavaScript's number text); srview reads the input with
//! its keys sorted, so an object value lists its keys in that order.

use serde_json::Value;

/// `The <tool> tool was called with invalid arguments: SchemaError(<issue>).`
/// and the request to rewrite the input.
pub fn invalid_arguments(tool: &str, issue: &str) -> String {
    format!(
        "The {tool} tool was called with invalid arguments: SchemaError({issue}).\nPlease rewrite the input so it satisfies the expected schema."
    )
}

/// The issue for a value of the wrong type, at `key` (or the whole input).
pub fn wrong_type(expected: &str, got: &Value, key: Option<&str>) -> String {
    let at = key.map(|k| format!("\n  at [\"{k}\"]")).unwrap_or_default();
    format!("Expected {expected}, got {}{at}", format_value(got))
}

/// The issue for a required key that is absent.
pub fn missing_key(key: &str) -> String {
    format!("Missing key\n  at [\"{key}\"]")
}

/// Effect's `format(value)` without indentation.
fn format_value(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => js_number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => Value::String(s.clone()).to_string(),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(format_value).collect();
            format!("[{}]", inner.join(","))
        }
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), format_value(v)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
    }
}

/// JavaScript's `String(number)`: the shortest digits that read back,
/// positional from 1e-6 up to 1e21, else with an exponent.
pub fn js_number(x: f64) -> String {
    crate::engine::js::number_to_string(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (x, want) in [
            (3.0, "3"),
            (1.5, "1.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (0.000001, "0.000001"),
            (1.5e-7, "1.5e-7"),
            (-0.25, "-0.25"),
            (123.456, "123.456"),
        ] {
            assert_eq!(js_number(x), want);
        }
    }

    /// Texts Effect 4.0.0-beta.60's decoder gives for the edit tool's
    /// schema.
    #[test]
    fn issues_read_as_effects() {
        assert_eq!(
            wrong_type("string", &json!(3), Some("filePath")),
            "Expected string, got 3\n  at [\"filePath\"]"
        );
        assert_eq!(
            wrong_type("string", &json!({"a": 1}), Some("filePath")),
            "Expected string, got {\"a\":1}\n  at [\"filePath\"]"
        );
        assert_eq!(
            wrong_type("boolean | undefined", &json!("yes"), Some("replaceAll")),
            "Expected boolean | undefined, got \"yes\"\n  at [\"replaceAll\"]"
        );
        assert_eq!(
            wrong_type("object", &json!([1]), None),
            "Expected object, got [1]"
        );
        assert_eq!(
            missing_key("oldString"),
            "Missing key\n  at [\"oldString\"]"
        );
    }
}
