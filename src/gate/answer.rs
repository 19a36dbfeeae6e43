//! The policy's answer to a finding, worded for the model, and the answer
//! in each agent's own decision format, as recorded:
//! - Claude Code, Codex, Qwen Code: `{"hookSpecificOutput":
//!   {"hookEventName":"PreToolUse","permissionDecision":"deny",
//!   "permissionDecisionReason":R}}`; a rewrite is `"allow"` with
//!   `updatedInput` (Codex: `{"command": patch}`); Qwen Code ignores one;
//! - Gemini CLI: `{"decision":"deny","reason":R}`; a rewrite is
//!   `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":I}}`;
//! - Cline CLI 3.0.65 (run offline, docs/gate.md): `{"cancel":true,
//!   "errorMessage":R}`, which stops its whole task; a rewrite is
//!   `{"overrideInput":I,"context":R}` (Cline runs the tool with `I` and
//!   hands the model `R` in a `<hook_context source="PreToolUse" …>` user
//!   message after the tool's result: seen in the real CLI's request);
//! - OpenCode and pi, srview's own plugin and extension (they run in the
//!   agent's process and spawn `srview gate`): `{"decision":"deny",
//!   "reason":R}`, `{"decision":"rewrite","reason":R,"args":I}` (the plugin
//!   changes the arguments in place: a new object is ignored, recorded).
//!
//! After a failure Claude Code's `PostToolUseFailure` hook gets
//! `{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure",
//! "additionalContext":T}}` (from Claude Code's documentation, not recorded).
//!
//! Every answer is JSON on stdout with exit 0; no opinion is nothing on
//! stdout with exit 0.

use serde_json::{Value, json};

use super::{Action, Answer, Case, Finding, GateAgent};

/// What the command prints and exits with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// stdout's bytes exactly.
    pub stdout: Vec<u8>,
    /// The exit status.
    pub exit_code: u8,
}

/// The answer in `agent`'s decision format. `ask_user`: a rewrite goes to
/// Claude Code as `"ask"` with the `updatedInput`, so that the user is shown
/// the corrected edit and approves it (Claude Code's hooks reference: combine
/// `updatedInput` "with `allow` to auto-approve, or `ask` to show the
/// modified input to the user"); see [`keeps_the_prompt`].
pub fn reply(agent: GateAgent, answer: &Answer, ask_user: bool) -> Reply {
    let json = match (agent, answer) {
        (_, Answer::NoOpinion) => {
            return Reply {
                stdout: Vec::new(),
                exit_code: 0,
            };
        }
        // Cline: text for the model beside the tool's own result (its
        // refusal), the task going on (see `Judgment::sent`).
        (GateAgent::ClineCli, Answer::Context { text }) => json!({"context": text}),
        (_, Answer::Context { text }) => json!({"hookSpecificOutput": {
            "hookEventName": "PostToolUseFailure",
            "additionalContext": text,
        }}),
        (GateAgent::GeminiCli, Answer::Deny { reason }) => {
            json!({"decision": "deny", "reason": reason})
        }
        (GateAgent::GeminiCli, Answer::Rewrite { input, .. }) => {
            json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": input}})
        }
        (GateAgent::ClineCli, Answer::Deny { reason }) => {
            json!({"cancel": true, "errorMessage": reason})
        }
        (GateAgent::ClineCli, Answer::Rewrite { reason, input }) => {
            json!({"overrideInput": input, "context": reason})
        }
        (GateAgent::Opencode | GateAgent::Pi, Answer::Deny { reason }) => {
            json!({"decision": "deny", "reason": reason})
        }
        (GateAgent::Opencode | GateAgent::Pi, Answer::Rewrite { reason, input }) => {
            json!({"decision": "rewrite", "reason": reason, "args": input})
        }
        (_, Answer::Deny { reason }) => json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }}),
        (_, Answer::Rewrite { reason, input }) => json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": if ask_user && agent == GateAgent::ClaudeCode { "ask" } else { "allow" },
            "permissionDecisionReason": reason,
            "updatedInput": input,
        }}),
    };
    Reply {
        stdout: json.to_string().into_bytes(),
        exit_code: 0,
    }
}

/// Whether Claude Code, in the payload's `permission_mode`, would have asked
/// the user before this edit ran: every mode but `acceptEdits` and
/// `bypassPermissions` (`default`, `plan`, and any mode srview does not
/// know). Recorded with Claude Code 2.1.328 in `--permission-mode default`:
/// a hook's `allow` ran the edit by itself, while no hook output left it to
/// Claude Code's own permission check (a tester's find: the gate's repair
/// approved the edit in the user's place). No mode named (an older
/// payload, another agent): the recorded `acceptEdits` behaviour.
pub fn keeps_the_prompt(permission_mode: Option<&str>) -> bool {
    permission_mode.is_some_and(|mode| !matches!(mode, "acceptEdits" | "bypassPermissions"))
}

/// What the model is told to send instead: the corrected input (Codex:
/// its patch text), compact JSON otherwise.
fn instead(agent: GateAgent, tool: &str, corrected: &Value) -> String {
    match (agent, corrected.get("command").and_then(Value::as_str)) {
        (GateAgent::Codex, Some(patch)) => format!(
            "Send this patch instead (srview checked that Codex applies every hunk of it \
             exactly):\n{patch}"
        ),
        _ => format!(
            "Send this {tool} input instead (srview checked that {} places it exactly):\n{}",
            agent.title(),
            corrected
        ),
    }
}

/// A file an edit needs that does not exist (as the input names it).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Missing {
    pub path: String,
    /// The edit deletes it (a patch's `*** Delete File:` section): nothing
    /// needs deleting, and nothing creating.
    pub to_delete: bool,
}

impl Missing {
    /// A file the edit changes (or replaces text in).
    pub(crate) fn to_edit(path: String) -> Missing {
        Missing {
            path,
            to_delete: false,
        }
    }
}

/// What the model can do next about a denied edit (docs/gate.md, "What to
/// do next, in every deny"): set where the finding is made, by what srview
/// found (a doubt's kind, the agent's refusal), never read back from the
/// explanation's words. Of several doubts of one edit, the first in this
/// order is the one said ([`NextStep::first`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NextStep {
    /// Its new text is already there (sent again after it was applied, a
    /// write of what the file holds): read the file again.
    AlreadyThere,
    /// The explanation ends with the step itself (the agent's own error or
    /// srview's diagnosis says what to send, or to tell the user).
    Said,
    /// An `*** Add File:` over a file that exists: an `*** Update File:`.
    UpdateNotAdd,
    /// A `*** Move to:` onto a file that exists: another target, or no
    /// move.
    MoveTarget,
    /// A patch hunk with only added lines whose `@@` line names a place it
    /// does not land at: context lines from that place.
    ContextLines,
    /// An edit of the gate's own files: leave them.
    LeaveTheGate,
    /// Another doubt about an exact edit: whole lines of the file.
    WholeLines,
    /// The old text occurs at several places: the explanation says what to
    /// send to change one (the agent's own terms).
    Ambiguous,
    /// The edit changes nothing.
    NothingToChange,
    /// An exact edit the policy holds back: only the user can let it
    /// through.
    OnlyTheUser,
    /// An input the agent's validation refuses: send it in its form.
    InItsForm,
    /// A file with CRLF line endings that the agent's patch tool compares
    /// with their `\r`: no patch the model can write matches it exactly.
    LineEndings,
    /// An empty old text (which creates a file) for a file that exists:
    /// the agent's write tool, named here with its fields.
    WriteWhole(&'static str),
    /// An old text that is not the file's own: read the file again.
    OwnText,
    /// A tool input without the fields it takes.
    EveryField,
    /// Claude Code's `MultiEdit`: each edit with `Edit`.
    EachWithEdit,
    /// A file that is not UTF-8: the user makes the change.
    TellTheUser,
    /// A path srview cannot read as a text file: check it.
    CheckPath,
    /// The user rejected the edit in the review pane: not again as it is;
    /// `reason`: they gave one (the deny says it first). Said in place of
    /// a step that speaks of letting the edit through, which the user has
    /// just declined ([`from_pane`]).
    Rejected {
        /// The user gave a reason (said first in the deny).
        reason: bool,
    },
}

impl NextStep {
    /// The step said first of `steps` (see the order above); `otherwise`
    /// when there is none.
    pub(crate) fn first(
        steps: impl IntoIterator<Item = NextStep>,
        otherwise: NextStep,
    ) -> NextStep {
        steps.into_iter().min().unwrap_or(otherwise)
    }

    /// The step's sentence for the model about `tool`; `None` when the
    /// explanation says it already ([`NextStep::Said`], [`NextStep::Ambiguous`]
    /// where no corrected edit was looked for says [`NextStep::OwnText`]'s).
    pub fn text(self, tool: &str) -> Option<String> {
        Some(match self {
            NextStep::Said => return None,
            NextStep::AlreadyThere => "Read the file again before editing it: it may already hold \
                                       what this edit means."
                .to_string(),
            NextStep::UpdateNotAdd => {
                "Read the file, then send an `*** Update File:` section with \
                                       the lines that change (an `*** Add File:` section replaces \
                                       the whole file)."
                    .to_string()
            }
            NextStep::MoveTarget => "Send the patch again with a `*** Move to:` path that does \
                                     not exist, or without its `*** Move to:` line (its changes \
                                     then stay in the file it updates); whether the existing \
                                     file may be replaced is the user's to decide."
                .to_string(),
            NextStep::LineEndings => format!(
                "Tell the user: the file's CRLF line endings keep {tool} from matching any patch \
                 exactly; they can let this edit through (in srview's review pane, or by \
                 srview's policy loose=allow), or give the file LF line endings first."
            ),
            NextStep::WriteWhole(write) => format!(
                "The file exists already, and an edit with an empty old text changes no file \
                 that exists: send its whole content with the {write}, or, to change part of \
                 it, send the text it replaces there as the old text."
            ),
            NextStep::ContextLines => "Send the hunk again with context lines: a few lines of the \
                                       file as they are there (each after a space), from the place \
                                       the new lines go, around them. A hunk with no context or \
                                       removed lines is placed at the end of the file, whatever \
                                       its @@ line names."
                .to_string(),
            NextStep::LeaveTheGate => {
                "Leave srview's gate as it is unless the user asked for this \
                                       change; if they did, only they can let it through (in \
                                       srview's review pane, or by srview's policy)."
                    .to_string()
            }
            NextStep::WholeLines => "Read the file again and send an edit whose old text is whole \
                                     lines of the file, as they are there, around the lines that \
                                     change."
                .to_string(),
            NextStep::NothingToChange => {
                "Nothing needs sending if the file already reads as meant; \
                                          if a change was meant, send the edit again with the \
                                          change in its new text."
                    .to_string()
            }
            NextStep::OnlyTheUser => {
                "Nothing in the edit needs changing: only the user can let it \
                                      through (in srview's review pane, or by srview's policy)."
                    .to_string()
            }
            NextStep::InItsForm => format!(
                "Send the {tool} again in the form it takes: the error above says what is wrong \
                 with this one."
            ),
            NextStep::Ambiguous | NextStep::OwnText => {
                "Read the file again and send an edit whose old text is the file's own.".to_string()
            }
            NextStep::EveryField => format!("Send the {tool} again with every field it takes."),
            NextStep::EachWithEdit => {
                "Send each of its edits with the Edit tool instead.".to_string()
            }
            NextStep::TellTheUser => {
                "Do not send this edit again: tell the user that srview's gate \
                                      cannot judge edits of this file, so they can make the change \
                                      themselves."
                    .to_string()
            }
            NextStep::CheckPath => "Check the path it names and send it again.".to_string(),
            NextStep::Rejected { reason: true } => "The user rejected this edit: do not send it \
                                                    again as it is; follow their reason above."
                .to_string(),
            NextStep::Rejected { reason: false } => "The user rejected this edit: do not send it \
                                                     again as it is; ask the user what they want \
                                                     instead."
                .to_string(),
        })
    }

    /// The step after the agent refused an edit, or placed it only
    /// loosely, as `explanation` says (its own error and srview's
    /// diagnosis, which may end with advice of their own); `unchanged`: the
    /// edit's new text is its old text.
    pub(crate) fn after_refusal(explanation: &str, case: Case, unchanged: bool) -> NextStep {
        if unchanged {
            return NextStep::NothingToChange;
        }
        // The agent's error or the diagnosis ends with what to send (pi's
        // "Merge them into one edit ...", a line-ending note's "tell the
        // user ..."): these are texts srview does not word, read once here.
        let last = explanation
            .trim_end()
            .rsplit('\n')
            .next()
            .unwrap_or_default();
        if [
            ": send ",
            "Send ",
            ". Merge them",
            ": check the path",
            ": tell the user",
        ]
        .iter()
        .any(|words| last.contains(words))
        {
            return NextStep::Said;
        }
        // The agents' own validation errors (their words, not srview's).
        if case == Case::Failing
            && ["invalid", "Validation failed", "must "]
                .iter()
                .any(|words| explanation.contains(words))
        {
            return NextStep::InItsForm;
        }
        NextStep::OwnText
    }
}

/// What the model can do about a file that does not exist: create it with
/// the agent's own tool for that, or check the path.
fn create_advice(agent: GateAgent, tool: &str, path: &str) -> String {
    let create = match (agent, tool) {
        (GateAgent::Codex, _) | (_, "apply_patch") => format!(
            "To create it, send a patch with an `*** Add File: {path}` section (each line of \
             the new file after a `+`)"
        ),
        (GateAgent::ClaudeCode, _) => {
            "To create it, send its whole content with the Write tool (file_path, content)"
                .to_string()
        }
        (GateAgent::GeminiCli | GateAgent::QwenCode, _) => {
            "To create it, send its whole content with the write_file tool (file_path, content)"
                .to_string()
        }
        (GateAgent::Opencode, _) => {
            "To create it, send its whole content with the write tool (filePath, content)"
                .to_string()
        }
        (GateAgent::Pi, _) => {
            "To create it, send its whole content with the write tool (path, content)".to_string()
        }
        (GateAgent::ClineCli, _) => {
            "To create it, send its whole content with the tool that writes a file".to_string()
        }
    };
    format!(
        "{create}; if it should exist already, check its path (a relative path is read from \
         the agent's working folder) and read the file before editing it."
    )
}

/// The text for the model when the edit is denied; `fallback`: why a
/// review became a deny.
fn deny_text(agent: GateAgent, tool: &str, finding: &Finding, fallback: Option<&str>) -> String {
    let mut text = format!("srview gate: {}", finding.explanation.trim_end());
    if let Some(why) = fallback {
        text.push_str(&format!("\n({why})"));
    }
    if let (None, Some(missing)) = (&finding.corrected, &finding.missing) {
        let path = &missing.path;
        if missing.to_delete {
            // Never "create it" (a tester's find: the advice was to add
            // the file the patch deletes).
            text.push_str(&format!(
                "\n{path} does not exist, so there is nothing to delete: send the patch again \
                 without its `*** Delete File: {path}` section (a patch of that section alone \
                 needs no sending); if another file was meant, check its path (a relative path \
                 is read from the agent's working folder)."
            ));
        } else {
            text.push_str(&format!(
                "\n{path} does not exist, so there is no text to replace. {}",
                create_advice(agent, tool, path)
            ));
        }
        return text;
    }
    match (&finding.corrected, &finding.withheld) {
        (Some(corrected), _) => {
            text.push('\n');
            text.push_str(&instead(agent, tool, corrected));
            return text;
        }
        (None, Some(why)) => {
            // The diagnosis may have said it already (a patch's, per hunk:
            // a new user's find, the same sentence twice).
            let said = finding.explanation.to_lowercase();
            if !said.contains("no corrected edit") && !said.contains("no corrected hunk") {
                let why = why.strip_prefix("no corrected edit: ").unwrap_or(why);
                text.push_str(&format!(
                    "\nNo corrected edit: {}.",
                    why.trim_end().trim_end_matches('.')
                ));
            }
            if why.starts_with("Failed to delete file") {
                // A patch deleting a file that is not there (OpenCode's
                // `apply_patch`): never "read the file again".
                text.push_str(
                    "\nThe file does not exist, so there is nothing to delete: send the patch \
                     again without its `*** Delete File:` section (a patch of that section alone \
                     needs no sending).",
                );
                return text;
            }
            match finding.next_step {
                // An old text found at several places: it is the file's
                // own, and the explanation says what to send.
                NextStep::Ambiguous => return text,
                // An edit that changes nothing: its old text may well be
                // the file's own; a file's line endings, or a file that
                // exists: "read the file again" cannot help (their steps
                // are below).
                NextStep::NothingToChange
                | NextStep::LineEndings
                | NextStep::WriteWhole(_)
                | NextStep::Rejected { .. } => {}
                _ => {
                    text.push('\n');
                    text.push_str(&NextStep::OwnText.text(tool).unwrap_or_default());
                    return text;
                }
            }
        }
        (None, None) => {}
    }
    // Every deny says what to do next (a tester's find: Gemini CLI's model
    // read why no correction was offered, and nothing more).
    if let Some(step) = finding.next_step.text(tool) {
        text.push('\n');
        text.push_str(&step);
    }
    text
}

/// The policy's answer to `finding` for `agent`'s `tool`; `action` is the
/// policy's action for its case.
pub fn for_finding(
    agent: GateAgent,
    tool: &str,
    finding: &Finding,
    action: Option<Action>,
) -> Answer {
    let Some(action) = action else {
        // Set where the finding was made (`Finding::unreadable`).
        let step = (finding.next_step.text(tool))
            .unwrap_or_else(|| NextStep::CheckPath.text(tool).unwrap_or_default());
        return match finding.case {
            Case::NotAnEdit => Answer::NoOpinion,
            _ => Answer::Deny {
                reason: format!(
                    "srview gate: this {tool} cannot be judged, so it is denied: {}\n{step}",
                    finding.explanation.trim_end()
                ),
            },
        };
    };
    match action {
        Action::Allow => Answer::NoOpinion,
        Action::Deny => Answer::Deny {
            reason: deny_text(agent, tool, finding, None),
        },
        Action::Review => review_fallback(agent, tool, finding, "no review pane runs", action),
        Action::Repair => match (&finding.corrected, finding.case) {
            (_, Case::Exact) => Answer::NoOpinion,
            (Some(input), Case::Loose | Case::Failing) if agent.can_rewrite() => Answer::Rewrite {
                reason: format!(
                    "srview gate: rewrote this {tool} to the exact edit that writes what the \
                     model's text meant: {}",
                    finding.explanation.trim_end()
                ),
                input: input.clone(),
            },
            _ => Answer::Deny {
                reason: deny_text(agent, tool, finding, None),
            },
        },
    }
}

/// After Claude Code refused an edit (its `PostToolUseFailure` hook, which
/// the recordings did not cover: best effort): the file is as it was, so
/// the edit judged now is the edit that failed; srview's diagnosis and the
/// corrected edit are added for the model. Anything else: no opinion.
pub fn after_failure(agent: GateAgent, tool: &str, finding: &Finding) -> Answer {
    match finding.case {
        Case::Failing | Case::Loose => Answer::Context {
            text: deny_text(agent, tool, finding, None),
        },
        _ => Answer::NoOpinion,
    }
}

/// The answer when the review pane does not decide (`why`: none runs, it
/// did not answer in time, it went away): the policy's fallback, a deny
/// saying so; `action`: the policy's action for the case (`review`, or
/// `repair` that could not rewrite).
pub fn review_fallback(
    agent: GateAgent,
    tool: &str,
    finding: &Finding,
    why: &str,
    action: Action,
) -> Answer {
    let case = finding.case.name();
    Answer::Deny {
        reason: deny_text(
            agent,
            tool,
            finding,
            Some(&format!(
                "{why}, so srview's policy {case}={} falls back to deny",
                action.name()
            )),
        ),
    }
}

/// The review pane's `verdict` on `finding`, in the answer's terms: allowed
/// is no opinion (the agent's own flow goes on), rejected is a deny with
/// the user's reason first, the corrected edit a rewrite where the agent
/// can take one (else a deny with that edit to send).
pub fn from_pane(
    agent: GateAgent,
    tool: &str,
    finding: &Finding,
    verdict: &super::verdict::Verdict,
    action: Action,
) -> Answer {
    use super::verdict::Verdict;
    let findings = |finding: &Finding| {
        let text = deny_text(agent, tool, finding, None);
        let body = text.strip_prefix("srview gate: ").unwrap_or(&text);
        format!("srview's finding: {body}")
    };
    match verdict {
        Verdict::Allow | Verdict::AllowSession => Answer::NoOpinion,
        Verdict::Reject { reason } => {
            let reason = reason.trim();
            let said = if reason.is_empty() {
                format!("srview gate: the user rejected this {tool} in the review pane.")
            } else {
                format!("srview gate: the user rejected this {tool} in the review pane: {reason}")
            };
            // A step that speaks of the user letting the edit through
            // ("Nothing in the edit needs changing: only the user can let it
            // through") says the opposite of their reject (a tester's find:
            // it invited the model to send the same edit again): the
            // reject is the step then.
            let mut finding = finding.clone();
            if matches!(
                finding.next_step,
                NextStep::OnlyTheUser | NextStep::LeaveTheGate | NextStep::LineEndings
            ) {
                finding.next_step = NextStep::Rejected {
                    reason: !reason.is_empty(),
                };
            }
            Answer::Deny {
                reason: format!("{said}\n{}", findings(&finding)),
            }
        }
        Verdict::Corrected => match &finding.corrected {
            Some(input) if agent.can_rewrite() => Answer::Rewrite {
                reason: format!(
                    "srview gate: the user allowed srview's corrected edit in the review pane \
                     instead of this {tool}: {}",
                    finding.explanation.trim_end()
                ),
                input: input.clone(),
            },
            Some(_) => Answer::Deny {
                reason: format!(
                    "srview gate: the user chose srview's corrected edit in the review pane, \
                     which {} cannot take in place of this {tool}.\n{}",
                    agent.title(),
                    findings(finding)
                ),
            },
            None => review_fallback(
                agent,
                tool,
                finding,
                "the review pane chose a corrected edit srview did not offer",
                action,
            ),
        },
        // Answered unseen for a session allowed with `A`: the repair
        // `loose=repair` would send, never the loose result as sent.
        Verdict::SessionRepair => match &finding.corrected {
            Some(input) if agent.can_rewrite() && finding.case == Case::Loose => Answer::Rewrite {
                reason: format!(
                    "srview gate: rewrote this {tool} to the exact edit that writes what the \
                     model's text meant (the user allowed this session in the review pane, \
                     which lets no loose edit through as sent): {}",
                    finding.explanation.trim_end()
                ),
                input: input.clone(),
            },
            _ => review_fallback(
                agent,
                tool,
                finding,
                "the review pane repaired a call for its allowed session that srview cannot \
                 repair",
                action,
            ),
        },
    }
}
