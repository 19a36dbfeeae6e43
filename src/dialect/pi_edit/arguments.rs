//! What happens to the tool input before pi's `edit` runs: the tool's
//! `prepareArguments` (`dist/core/tools/edit.js`), then pi-ai's
//! `validateToolArguments` (`dist/utils/validation.js`): TypeBox 1.4.3's
//! `Value.Convert` and its compiled validator's `Errors` on the tool's
//! schema, formatted as pi-ai formats them; then the tool's own
//! `validateEditInput`.

use super::js::{Js, JsObject, json_parse, number_to_string};

/// One `edits[]` entry as the tool receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawEdit {
    pub old_text: String,
    pub new_text: String,
}

/// The arguments `execute` receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditArgs {
    pub path: String,
    pub edits: Vec<RawEdit>,
}

/// pi's `prepareEditArguments`: `edits` sent as a JSON string is parsed
/// (kept only when it parses to an array), and a top-level legacy
/// `oldText`/`newText` pair (both strings) is appended to `edits` (a new
/// array when `edits` is none), the two keys dropped.
pub fn prepare_arguments(mut input: Js) -> Js {
    let Js::Obj(args) = &mut input else {
        return input;
    };
    if let Some(Js::Str(text)) = args.get("edits")
        && let Some(parsed @ Js::Arr(_)) = json_parse(text)
    {
        args.set("edits", parsed);
    }
    let (Some(Js::Str(old_text)), Some(Js::Str(new_text))) =
        (args.get("oldText"), args.get("newText"))
    else {
        return input;
    };
    let mut legacy = JsObject::default();
    legacy.set("oldText", Js::Str(old_text.clone()));
    legacy.set("newText", Js::Str(new_text.clone()));
    let mut edits = match args.get("edits") {
        Some(Js::Arr(items)) => items.clone(),
        _ => Vec::new(),
    };
    edits.push(Js::Obj(legacy));
    // `const { oldText, newText, ...rest } = legacy; return { ...rest, edits }`
    let mut rest = JsObject::default();
    for (key, value) in args.iter() {
        if key != "oldText" && key != "newText" {
            rest.set(key, value.clone());
        }
    }
    rest.set("edits", Js::Arr(edits));
    Js::Obj(rest)
}

/// TypeBox's `Value.Convert` on the edit schema, as pi-ai calls it: the
/// result is dropped, so only what it changes in place counts: an object's
/// `path` and `edits` properties. `path` gets `TryString`; `edits` becomes
/// an array (a non-array is wrapped: `[value]`) whose object elements get
/// `TryString` on `oldText`/`newText`.
pub fn convert(args: &mut Js) {
    let Js::Obj(object) = args else {
        return;
    };
    if let Some(path) = object.get_mut("path") {
        try_string(path);
    }
    if let Some(edits) = object.get_mut("edits") {
        let mut items = match std::mem::replace(edits, Js::Null) {
            Js::Arr(items) => items,
            other => vec![other],
        };
        for item in &mut items {
            if let Js::Obj(edit) = item {
                for key in ["oldText", "newText"] {
                    if let Some(text) = edit.get_mut(key) {
                        try_string(text);
                    }
                }
            }
        }
        *edits = Js::Arr(items);
    }
}

/// TypeBox's `TryString`: numbers and booleans to their `toString()`,
/// `null` to `"null"`; objects and arrays stay.
fn try_string(value: &mut Js) {
    let text = match value {
        Js::Null => "null".to_string(),
        Js::Bool(b) => b.to_string(),
        Js::Num(n) => number_to_string(*n),
        Js::Str(_) | Js::Arr(_) | Js::Obj(_) => return,
    };
    *value = Js::Str(text);
}

/// TypeBox's `maxErrors` default: errors past it are dropped.
const MAX_ERRORS: usize = 8;

/// The errors TypeBox's `Errors` reports, each as pi-ai formats it:
/// `(path, message)` with `path` the instance path dotted (`edits.0`,
/// `root` for the whole object; a `required` error names its first missing
/// property).
struct Errors {
    list: Vec<(String, String)>,
}

impl Errors {
    fn at_capacity(&self) -> bool {
        self.list.len() >= MAX_ERRORS
    }

    fn add(&mut self, path: &[String], message: String) {
        if !self.at_capacity() {
            let dotted = path.join(".");
            let shown = if dotted.is_empty() {
                "root".to_string()
            } else {
                dotted
            };
            self.list.push((shown, message));
        }
    }

    fn add_required(&mut self, path: &[String], missing: &[&str]) {
        if !self.at_capacity() {
            let mut at = path.to_vec();
            at.push(missing[0].to_string());
            self.list.push((
                at.join("."),
                format!("must have required properties {}", missing.join(", ")),
            ));
        }
    }
}

/// A property key as a JSON Pointer fragment (TypeBox's `EncodeFragment`):
/// the dotted path pi-ai shows keeps it so.
fn fragment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The errors of one property's own schema: `(errors, path, name, value)`.
type PropertyErrors = dyn Fn(&mut Errors, &mut Vec<String>, &str, &Js);

/// TypeBox's `ErrorSchema` for an object schema with `properties` (each a
/// string, or for `edits` an array of `{oldText, newText}` objects), all
/// required, `additionalProperties: false`: the type error, then (for an
/// object) the missing required properties, each extra property's
/// `schema is false` and the object's `must not have additional
/// properties`, then each property's own errors.
fn object_errors(
    errors: &mut Errors,
    path: &mut Vec<String>,
    value: &Js,
    properties: &[&str],
    property_errors: &PropertyErrors,
) {
    if errors.at_capacity() {
        return;
    }
    let Js::Obj(object) = value else {
        errors.add(path, "must be object".into());
        return;
    };
    let missing: Vec<&str> = properties
        .iter()
        .copied()
        .filter(|p| !object.has(p))
        .collect();
    if !missing.is_empty() {
        errors.add_required(path, &missing);
    }
    let mut additional = false;
    for key in object.keys() {
        if properties.contains(&key) {
            continue;
        }
        additional = true;
        if !errors.at_capacity() {
            path.push(fragment(key));
            errors.add(path, "schema is false".into());
            path.pop();
        }
    }
    if additional {
        errors.add(path, "must not have additional properties".into());
    }
    for property in properties {
        if let Some(item) = object.get(property) {
            path.push(fragment(property));
            property_errors(errors, path, property, item);
            path.pop();
        }
    }
}

/// `{type: "string"}`'s error.
fn string_errors(errors: &mut Errors, path: &[String], value: &Js) {
    if !errors.at_capacity() && !matches!(value, Js::Str(_)) {
        errors.add(path, "must be string".into());
    }
}

fn edit_errors(errors: &mut Errors, path: &mut Vec<String>, value: &Js) {
    object_errors(
        errors,
        path,
        value,
        &["oldText", "newText"],
        &|errors, path, _, text| string_errors(errors, path, text),
    );
}

fn args_errors(errors: &mut Errors, value: &Js) {
    object_errors(
        errors,
        &mut Vec::new(),
        value,
        &["path", "edits"],
        &|errors, path, property, item| {
            if property == "path" {
                string_errors(errors, path, item);
                return;
            }
            if errors.at_capacity() {
                return;
            }
            let Js::Arr(items) = item else {
                errors.add(path, "must be array".into());
                return;
            };
            for (index, edit) in items.iter().enumerate() {
                path.push(index.to_string());
                edit_errors(errors, path, edit);
                path.pop();
            }
        },
    );
}

/// pi-ai's `validateToolArguments` for the `edit` tool, on the prepared
/// arguments: the converted arguments when the schema accepts them, else
/// its exact error text.
pub fn validate(prepared: &Js) -> Result<Js, String> {
    let mut args = prepared.clone();
    convert(&mut args);
    let mut errors = Errors { list: Vec::new() };
    args_errors(&mut errors, &args);
    if errors.list.is_empty() {
        return Ok(args);
    }
    let lines: Vec<String> = errors
        .list
        .iter()
        .map(|(path, message)| format!("  - {path}: {message}"))
        .collect();
    Err(format!(
        "Validation failed for tool \"edit\":\n{}\n\nReceived arguments:\n{}",
        lines.join("\n"),
        prepared.stringify_pretty()
    ))
}

/// pi's `validateEditInput` on arguments the schema accepted.
pub fn edit_args(valid: &Js) -> Result<EditArgs, String> {
    let invalid =
        || "Edit tool input is invalid. edits must contain at least one replacement.".to_string();
    let Js::Obj(object) = valid else {
        return Err(invalid());
    };
    let Some(Js::Arr(items)) = object.get("edits") else {
        return Err(invalid());
    };
    if items.is_empty() {
        return Err(invalid());
    }
    let text = |edit: &Js, key: &str| match edit {
        Js::Obj(edit) => edit
            .get(key)
            .and_then(Js::as_str)
            .unwrap_or_default()
            .to_string(),
        _ => String::new(),
    };
    Ok(EditArgs {
        path: object
            .get("path")
            .and_then(Js::as_str)
            .unwrap_or_default()
            .to_string(),
        edits: items
            .iter()
            .map(|edit| RawEdit {
                old_text: text(edit, "oldText"),
                new_text: text(edit, "newText"),
            })
            .collect(),
    })
}

/// The tool input through `prepareArguments`, schema validation and
/// `validateEditInput`: the arguments `execute` works on, or the error
/// text the model reads.
pub fn parse_input(input: &serde_json::Value) -> Result<EditArgs, String> {
    let prepared = prepare_arguments(Js::from_serde(input));
    let valid = validate(&prepared)?;
    edit_args(&valid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error(input: serde_json::Value) -> String {
        parse_input(&input).unwrap_err()
    }

    #[test]
    fn legacy_pair_joins_edits() {
        let args = parse_input(&json!({"path": "a", "oldText": "x", "newText": "y"})).unwrap();
        assert_eq!(args.path, "a");
        assert_eq!(
            args.edits,
            vec![RawEdit {
                old_text: "x".into(),
                new_text: "y".into()
            }]
        );
        let both = parse_input(
            &json!({"path": "a", "edits": [{"oldText": "1", "newText": "2"}],
            "oldText": "x", "newText": "y"}),
        )
        .unwrap();
        assert_eq!(both.edits.len(), 2);
        assert_eq!(both.edits[1].old_text, "x");
    }

    #[test]
    fn edits_as_a_json_string_are_parsed() {
        let args =
            parse_input(&json!({"path": "a", "edits": "[{\"oldText\":\"x\",\"newText\":\"y\"}]"}))
                .unwrap();
        assert_eq!(args.edits[0].new_text, "y");
    }

    #[test]
    fn a_string_that_is_no_array_fails_as_an_object() {
        assert_eq!(
            error(json!({"path": "a", "edits": "{\"oldText\":\"x\"}"})),
            "Validation failed for tool \"edit\":\n  - edits.0: must be object\n\nReceived arguments:\n\
             {\n  \"path\": \"a\",\n  \"edits\": \"{\\\"oldText\\\":\\\"x\\\"}\"\n}"
        );
    }

    #[test]
    fn a_bare_edit_object_is_wrapped_into_an_array() {
        let args =
            parse_input(&json!({"path": "a", "edits": {"oldText": "x", "newText": "y"}})).unwrap();
        assert_eq!(args.edits.len(), 1);
    }

    #[test]
    fn numbers_are_converted_to_strings() {
        let args =
            parse_input(&json!({"path": 7, "edits": [{"oldText": 1.5, "newText": true}]})).unwrap();
        assert_eq!(args.path, "7");
        assert_eq!(args.edits[0].old_text, "1.5");
        assert_eq!(args.edits[0].new_text, "true");
    }

    #[test]
    fn extra_and_missing_keys_are_listed_in_typebox_order() {
        assert_eq!(
            error(json!({"path": "a", "old_string": "x", "new_string": "y"})),
            "Validation failed for tool \"edit\":\n  - edits: must have required properties edits\n  \
             - old_string: schema is false\n  - new_string: schema is false\n  \
             - root: must not have additional properties\n\nReceived arguments:\n\
             {\n  \"path\": \"a\",\n  \"old_string\": \"x\",\n  \"new_string\": \"y\"\n}"
        );
        assert_eq!(
            error(
                json!({"path": "a", "edits": [{"oldText": "x", "newText": "y", "replace_all": true}]})
            ),
            "Validation failed for tool \"edit\":\n  - edits.0.replace_all: schema is false\n  \
             - edits.0: must not have additional properties\n\nReceived arguments:\n\
             {\n  \"path\": \"a\",\n  \"edits\": [\n    {\n      \"oldText\": \"x\",\n      \
             \"newText\": \"y\",\n      \"replace_all\": true\n    }\n  ]\n}"
        );
    }

    #[test]
    fn errors_stop_at_eight() {
        let text = error(json!({"edits": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}));
        assert_eq!(text.matches("\n  - ").count(), 8);
        assert!(text.contains("  - path: must have required properties path\n  - edits.0.oldText: must have required properties oldText, newText\n"));
    }

    #[test]
    fn a_non_object_input_is_refused_whole() {
        assert_eq!(
            error(json!("x")),
            "Validation failed for tool \"edit\":\n  - root: must be object\n\nReceived arguments:\n\"x\""
        );
    }

    #[test]
    fn empty_edits_pass_the_schema_but_not_the_tool() {
        assert_eq!(
            error(json!({"path": "a", "edits": []})),
            "Edit tool input is invalid. edits must contain at least one replacement."
        );
    }
}
