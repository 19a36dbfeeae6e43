//! The file a tool call edits, as the agent's tool resolves the path the
//! model wrote before it reads the file: pi's `@app.py` and `~/proj/app.py`
//! (its `expandPath`), Gemini CLI's `replace` with `@app.py` (its
//! `resolveDefensiveToolPath`) or with `%20`, `%2E` (its
//! `decodeURIComponent`), Qwen Code's `edit` with `\ ` (its `trim()` and
//! `unescapePath`). The gate judges the call with that path in its input,
//! so the matcher, every trust check, the check of the gate's own files,
//! the diagnosis, the corrected edit, the message and the record name one
//! file: the one the agent writes (a tester's finds: the matcher placed a
//! pi `@app.py` edit in `app.py` while the checks read `@app.py`, which
//! does not exist, and let a write deleting 19 lines through as exact; a
//! Gemini CLI edit of `~/.gemini/settings%2Ejson` renaming the gate's hook
//! event, and a misindented Python edit of `sp%20ace/app.py` or Qwen
//! Code's `sp\ ace/app.py`, passed as exact, no check having read the file).
//!
//! Claude Code's `~/` is left as written: no recording shows what its tools
//! make of it. Gemini CLI's and Qwen Code's `write_file` paths are judged
//! as written: srview has not ported those tools' path handling.

use std::borrow::Cow;

use serde_json::Value;

use super::{Call, GateAgent};
use crate::dialect::apply_patch::PatchFs;

/// `call` with the path of its input as the agent's tool reads it; `call`
/// itself when that is the path as written (or the tool resolves none).
/// An error, the path as written and the reason, when the path the tool reads would itself be read
/// as another (`%2541` decoded once is `%41`): the agent's matcher, which
/// resolves the path it is given, cannot be shown the file.
pub(super) fn resolved<'a>(
    agent: GateAgent,
    call: &'a Call,
    fs: &dyn PatchFs,
) -> Result<Cow<'a, Call>, (String, String)> {
    let key = match (agent, call.tool.as_str()) {
        (GateAgent::Pi, "edit" | "write") => "path",
        (GateAgent::GeminiCli, "replace") | (GateAgent::QwenCode, "edit") => "file_path",
        _ => return Ok(Cow::Borrowed(call)),
    };
    let Some(written) = call.input.get(key).and_then(Value::as_str) else {
        return Ok(Cow::Borrowed(call));
    };
    let read_as = |path: &str| match agent {
        GateAgent::Pi => crate::dialect::pi_edit::expanded_path(path),
        GateAgent::QwenCode => crate::dialect::qwen_edit::read_file_path(path),
        _ => crate::dialect::gemini_replace::defensive_file_path(
            path,
            &crate::dialect::call::ToolCall {
                input: &call.input,
                cwd: &call.cwd,
                fs,
            },
        ),
    };
    let read = read_as(written);
    if read == written {
        return Ok(Cow::Borrowed(call));
    }
    // The matcher resolves the path again: it must read the same file.
    let again = read_as(&read);
    if again != read {
        let why = format!(
            "srview cannot judge this edit: the agent reads the path {written} as {read}, a \
             name srview's reading of the agent's tool would change again (to {again}), so no \
             check could be run on the file the agent writes"
        );
        return Err((written.to_string(), why));
    }
    let mut judged = call.clone();
    if let Some(object) = judged.input.as_object_mut() {
        object.insert(key.to_string(), Value::String(read));
    }
    Ok(Cow::Owned(judged))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::apply_patch::MemoryFs;

    fn call(tool: &str, input: Value) -> Call {
        Call {
            cwd: "/p".to_string(),
            session_id: None,
            call_id: None,
            tool: tool.to_string(),
            event: None,
            input,
            permission_mode: None,
        }
    }

    #[test]
    fn a_pi_at_path_is_judged_as_the_file_pi_writes() {
        let fs = MemoryFs::default();
        for tool in ["edit", "write"] {
            let sent = call(tool, serde_json::json!({"path": "@app.py", "content": "x"}));
            let judged = resolved(GateAgent::Pi, &sent, &fs).expect("resolved");
            assert_eq!(judged.input["path"], "app.py", "{tool}");
            assert_eq!(judged.input["content"], "x", "{tool}");
        }
    }

    #[test]
    fn a_gemini_at_path_loses_its_at_only_where_gemini_drops_it() {
        let fs = MemoryFs::default();
        let sent = call("replace", serde_json::json!({"file_path": "@app.py"}));
        assert_eq!(
            resolved(GateAgent::GeminiCli, &sent, &fs)
                .expect("resolved")
                .input["file_path"],
            "app.py"
        );
        // A file named with its `@` is the one Gemini CLI edits.
        let fs = MemoryFs::new([("@app.py".to_string(), "x\n".to_string())]);
        assert_eq!(
            resolved(GateAgent::GeminiCli, &sent, &fs)
                .expect("resolved")
                .input["file_path"],
            "@app.py"
        );
    }

    #[test]
    fn other_agents_and_plain_paths_are_judged_as_written() {
        let fs = MemoryFs::default();
        let claude = call("Write", serde_json::json!({"file_path": "~/app.py"}));
        assert!(matches!(
            resolved(GateAgent::ClaudeCode, &claude, &fs),
            Ok(Cow::Borrowed(_))
        ));
        let pi = call("edit", serde_json::json!({"path": "src/app.py"}));
        assert!(matches!(
            resolved(GateAgent::Pi, &pi, &fs),
            Ok(Cow::Borrowed(_))
        ));
    }

    #[test]
    fn a_gemini_percent_escape_and_a_qwen_shell_escape_are_judged_as_the_file_written() {
        let fs = MemoryFs::default();
        let sent = call(
            "replace",
            serde_json::json!({"file_path": "/h/.gemini/settings%2Ejson"}),
        );
        let judged = resolved(GateAgent::GeminiCli, &sent, &fs).expect("resolved");
        assert_eq!(judged.input["file_path"], "/h/.gemini/settings.json");
        // Relative: decoded and made absolute, as `replace` reads it.
        let sent = call("replace", serde_json::json!({"file_path": "sp%20ace/a.py"}));
        let judged = resolved(GateAgent::GeminiCli, &sent, &fs).expect("resolved");
        assert_eq!(judged.input["file_path"], "/p/sp ace/a.py");
        // A `%` that does not decode stays as written.
        let sent = call("replace", serde_json::json!({"file_path": "/p/100%.py"}));
        assert!(matches!(
            resolved(GateAgent::GeminiCli, &sent, &fs),
            Ok(Cow::Borrowed(_))
        ));
        let sent = call(
            "edit",
            serde_json::json!({"file_path": " /p/sp\\ ace/a\\(1\\).py "}),
        );
        let judged = resolved(GateAgent::QwenCode, &sent, &fs).expect("resolved");
        assert_eq!(judged.input["file_path"], "/p/sp ace/a(1).py");
    }

    #[test]
    fn a_path_read_twice_as_two_files_is_not_judged() {
        let fs = MemoryFs::default();
        let sent = call("replace", serde_json::json!({"file_path": "/p/a%2541.py"}));
        let (file, why) = resolved(GateAgent::GeminiCli, &sent, &fs).expect_err("read again");
        assert_eq!(file, "/p/a%2541.py");
        assert_eq!(
            why,
            "srview cannot judge this edit: the agent reads the path /p/a%2541.py as \
             /p/a%41.py, a name srview's reading of the agent's tool would change again (to \
             /p/aA.py), so no check could be run on the file the agent writes"
        );
    }
}
