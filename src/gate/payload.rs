//! A hook's payload, as each agent sends it (the recordings' exact shapes):
//! Claude Code, Codex, Gemini CLI and Qwen Code send one JSON object with
//! `cwd`, `session_id`, `tool_name` and `tool_input` (Claude Code and Codex
//! add `tool_use_id`, Qwen Code `tool_call_id`, the model's own id); Cline
//! CLI 3.0.65 (seen offline) sends `workspaceRoots`, `taskId`,
//! `sessionContext.rootSessionId` (its session's folder name),
//! `tool_call: {id, name, input}` (the model's call and input) and
//! `preToolUse: {toolName, parameters}` (the same input, every value that
//! is not text turned into JSON text). srview's OpenCode plugin and pi
//! extension send srview's own `{tool, args, cwd, sessionID, callID}`.

use serde_json::Value;

use super::GateAgent;

/// What a payload says of one tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The agent's working folder (absolute): the input's relative paths
    /// are relative to it.
    pub cwd: String,
    /// The agent's session id.
    pub session_id: Option<String>,
    /// The tool call's id, where the payload has one (the model's id when
    /// it has both the agent's and the model's).
    pub call_id: Option<String>,
    /// The tool, as the agent names it.
    pub tool: String,
    /// The hook's event (`hook_event_name`: `PreToolUse`, `BeforeTool`,
    /// Claude Code's `PostToolUseFailure`), where the payload names it.
    pub event: Option<String>,
    /// The tool input exactly as the agent received it.
    pub input: Value,
    /// The agent's permission mode, where the payload names it (Claude
    /// Code's and Codex's `permission_mode`: `default`, `acceptEdits`,
    /// `plan`, `bypassPermissions`, ...).
    pub permission_mode: Option<String>,
}

/// The call in `payload`, or why it cannot be read.
pub fn read(agent: GateAgent, payload: &[u8]) -> Result<Call, String> {
    let text = std::str::from_utf8(payload).map_err(|e| format!("it is not UTF-8 ({e})"))?;
    if text.trim().is_empty() {
        return Err("it is empty".to_string());
    }
    let json: Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("it is not JSON ({e})"))?;
    if !json.is_object() {
        return Err("it is not a JSON object".to_string());
    }
    let text_at =
        |value: &Value, key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
    let (cwd, session_id, call_id, tool, input) = match agent {
        GateAgent::ClineCli => {
            let call = json
                .get("preToolUse")
                .ok_or("it has no \"preToolUse\" field")?;
            let cwd = json
                .get("workspaceRoots")
                .and_then(|roots| roots.get(0))
                .and_then(Value::as_str)
                .map(str::to_string);
            // The model's own call, where the payload has it: its input
            // as sent (`parameters` has non-text values as JSON text).
            let model_call = json.get("tool_call");
            (
                cwd,
                json.get("sessionContext")
                    .and_then(|c| text_at(c, "rootSessionId"))
                    .or_else(|| text_at(&json, "taskId")),
                model_call.and_then(|c| text_at(c, "id")),
                text_at(call, "toolName"),
                model_call
                    .and_then(|c| c.get("input"))
                    .filter(|input| input.is_object())
                    .or_else(|| call.get("parameters"))
                    .cloned(),
            )
        }
        // srview's own JSON, sent by its OpenCode plugin and pi extension.
        GateAgent::Opencode | GateAgent::Pi => (
            text_at(&json, "cwd"),
            text_at(&json, "sessionID"),
            text_at(&json, "callID"),
            text_at(&json, "tool"),
            json.get("args").cloned(),
        ),
        _ => {
            let call_id = text_at(&json, "tool_call_id").or_else(|| text_at(&json, "tool_use_id"));
            (
                text_at(&json, "cwd"),
                text_at(&json, "session_id"),
                call_id,
                text_at(&json, "tool_name"),
                json.get("tool_input").cloned(),
            )
        }
    };
    let (cwd_key, tool_key, input_key) = match agent {
        GateAgent::Opencode | GateAgent::Pi => ("cwd", "tool", "args"),
        GateAgent::ClineCli => (
            "workspaceRoots",
            "preToolUse.toolName",
            "preToolUse.parameters",
        ),
        _ => ("cwd", "tool_name", "tool_input"),
    };
    let cwd = cwd.ok_or_else(|| format!("it has no {cwd_key:?} text"))?;
    if !cwd.starts_with('/') {
        return Err(format!("its {cwd_key:?} is not an absolute path: {cwd:?}"));
    }
    let tool = tool.ok_or_else(|| format!("it has no {tool_key:?} text"))?;
    let input = input
        .filter(Value::is_object)
        .ok_or_else(|| format!("it has no {input_key:?} object"))?;
    Ok(Call {
        cwd: cwd.trim_end_matches('/').to_string(),
        session_id,
        call_id,
        tool,
        event: text_at(&json, "hook_event_name"),
        input,
        permission_mode: text_at(&json, "permission_mode"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_payloads_say_why() {
        let claude = GateAgent::ClaudeCode;
        assert_eq!(read(claude, b"").unwrap_err(), "it is empty");
        assert_eq!(read(claude, b"[1]").unwrap_err(), "it is not a JSON object");
        assert_eq!(
            read(claude, br#"{"tool_name":"Edit","tool_input":{}}"#).unwrap_err(),
            "it has no \"cwd\" text"
        );
        assert_eq!(
            read(claude, br#"{"cwd":"p","tool_name":"Edit","tool_input":{}}"#).unwrap_err(),
            "its \"cwd\" is not an absolute path: \"p\""
        );
        assert!(
            read(claude, b"{\"cwd\"")
                .unwrap_err()
                .starts_with("it is not JSON (")
        );
        assert!(
            read(claude, b"\xff")
                .unwrap_err()
                .starts_with("it is not UTF-8 (")
        );
    }

    #[test]
    fn qwen_code_calls_are_named_by_the_models_id() {
        let payload = br#"{"cwd":"/p/","session_id":"s","tool_name":"edit","tool_input":{"a":1},"tool_use_id":"toolu_1","tool_call_id":"call_2"}"#;
        let call = read(GateAgent::QwenCode, payload).expect("reads");
        assert_eq!(call.call_id.as_deref(), Some("call_2"));
        assert_eq!(call.cwd, "/p");
        let cline = br#"{"taskId":"t","workspaceRoots":["/w"],"preToolUse":{"toolName":"editor","parameters":{"path":"a"}}}"#;
        let call = read(GateAgent::ClineCli, cline).expect("reads");
        assert_eq!((call.cwd.as_str(), call.tool.as_str()), ("/w", "editor"));
        assert_eq!(call.session_id.as_deref(), Some("t"));
    }
}
