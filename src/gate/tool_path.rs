//! The file a tool call edits, as the agent's tool resolves the path the
//! model wrote before it reads the file: pi's `@app.py` and `~/proj/app.py`
//! (its `expandPath`), Gemini CLI's `replace` with `@app.py` (its
//! `resolveDefensiveToolPath`). The gate judges the call with that path in
//! its input, so the matcher, every trust check, the diagnosis, the
//! corrected edit, the message and the record name one file: the one the
//! agent writes (a tester's find: the matcher placed a pi `@app.py` edit in
//! `app.py` while the checks read `@app.py`, which does not exist, and let
//! a write deleting 19 lines through as exact).
//!
//! Claude Code's `~/` is left as written: no recording shows what its tools
//! make of it.

use std::borrow::Cow;

use serde_json::Value;

use super::{Call, GateAgent};
use crate::dialect::apply_patch::PatchFs;

/// `call` with the path of its input as the agent's tool reads it; `call`
/// itself when that is the path as written (or the tool resolves none).
pub(super) fn resolved<'a>(agent: GateAgent, call: &'a Call, fs: &dyn PatchFs) -> Cow<'a, Call> {
    let key = match (agent, call.tool.as_str()) {
        (GateAgent::Pi, "edit" | "write") => "path",
        (GateAgent::GeminiCli, "replace") => "file_path",
        _ => return Cow::Borrowed(call),
    };
    let Some(written) = call.input.get(key).and_then(Value::as_str) else {
        return Cow::Borrowed(call);
    };
    let read = match agent {
        GateAgent::Pi => crate::dialect::pi_edit::expanded_path(written),
        _ => crate::dialect::gemini_replace::defensive_file_path(
            written,
            &crate::dialect::call::ToolCall {
                input: &call.input,
                cwd: &call.cwd,
                fs,
            },
        ),
    };
    if read == written {
        return Cow::Borrowed(call);
    }
    let mut judged = call.clone();
    if let Some(object) = judged.input.as_object_mut() {
        object.insert(key.to_string(), Value::String(read));
    }
    Cow::Owned(judged)
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
        }
    }

    #[test]
    fn a_pi_at_path_is_judged_as_the_file_pi_writes() {
        let fs = MemoryFs::default();
        for tool in ["edit", "write"] {
            let sent = call(tool, serde_json::json!({"path": "@app.py", "content": "x"}));
            let judged = resolved(GateAgent::Pi, &sent, &fs);
            assert_eq!(judged.input["path"], "app.py", "{tool}");
            assert_eq!(judged.input["content"], "x", "{tool}");
        }
    }

    #[test]
    fn a_gemini_at_path_loses_its_at_only_where_gemini_drops_it() {
        let fs = MemoryFs::default();
        let sent = call("replace", serde_json::json!({"file_path": "@app.py"}));
        assert_eq!(
            resolved(GateAgent::GeminiCli, &sent, &fs).input["file_path"],
            "app.py"
        );
        // A file named with its `@` is the one Gemini CLI edits.
        let fs = MemoryFs::new([("@app.py".to_string(), "x\n".to_string())]);
        assert_eq!(
            resolved(GateAgent::GeminiCli, &sent, &fs).input["file_path"],
            "@app.py"
        );
    }

    #[test]
    fn other_agents_and_plain_paths_are_judged_as_written() {
        let fs = MemoryFs::default();
        let claude = call("Write", serde_json::json!({"file_path": "~/app.py"}));
        assert!(matches!(
            resolved(GateAgent::ClaudeCode, &claude, &fs),
            Cow::Borrowed(_)
        ));
        let pi = call("edit", serde_json::json!({"path": "src/app.py"}));
        assert!(matches!(
            resolved(GateAgent::Pi, &pi, &fs),
            Cow::Borrowed(_)
        ));
    }
}
