//! The gate: one agent edit judged before the agent writes it, from the
//! payload its pre-edit hook sends (`srview gate --agent NAME`, see
//! docs/gate.md).
//!
//! Pure: [`judge`] takes the payload's bytes, the files as a [`PatchFs`]
//! (a real folder in the command, files in memory in tests) and the
//! [`Policy`], and gives a [`Judgment`]: the case, the agent's stage, and
//! the [`Answer`]. [`Judgment::reply`] is that answer in the agent's own
//! decision format (stdout bytes and exit status, as the recordings of
//! each CLI show them); [`Judgment::record`] the line `.srview/gate.jsonl`
//! keeps. Reading stdin, the files and writing the record are the
//! command's (`cli/gate.rs`).
//!
//! The edit is re-applied with the agent's own matcher against the file as
//! it is now: Claude Code's `Edit`/`Write` and Cline's `editor` with
//! srview's exact-string semantics ([`crate::dialect::edit`]), Codex's
//! `apply_patch` with its port ([`crate::dialect::apply_patch`]), Gemini
//! CLI's `replace` and Qwen Code's `edit` with theirs
//! ([`crate::dialect::registry`]). The cases:
//! - **exact** without a doubt: no opinion (the agent's own flow goes on);
//! - **doubt**: exact, but a trust check fails (its new text is already
//!   there, new lines shifted against the ones they replace, an old text
//!   cutting a word, a file whose mixed line endings the write unifies);
//! - **loose**: the agent would place it by a stage other than its exact
//!   one; repaired where the agent can rewrite an input and srview stands
//!   behind the exact edit (its own matcher places it exactly, no trust
//!   check fails), else denied with the difference and the exact edit;
//! - **failing**: the agent would refuse it; denied with what failed, the
//!   closest region and the corrected edit where srview stands behind it;
//! - **unreadable**: a payload, an input or a file that cannot be read:
//!   denied with the reason (these agents let an edit through when their
//!   hook fails).
//!
//! srview never answers `ask`: no agent running without a terminal can
//! ask anyone (Gemini CLI hangs on it, Codex ignores it).

mod answer;
mod dollars;
mod dropped;
pub mod exact_correct;
pub mod install;
pub(crate) mod jsonc;
mod judge;
mod moved;
mod own_files;
mod patch;
pub use patch::correction_withheld;
mod payload;
mod policy;
mod quotes;
pub mod record;
mod reindent;
mod reindent_exact;
mod replace_all;
pub mod spool;
mod tool_path;
mod verdict;
mod wording;
mod wrong_agent;

pub use answer::{NextStep, Reply};
pub use judge::settled_correction;
pub use payload::Call;
pub use policy::{Action, Policy, PolicyError};

use serde::Serialize;
use serde_json::Value;

use crate::dialect::apply_patch::PatchFs;

/// An agent whose pre-edit hook runs a command: what `--agent` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GateAgent {
    /// Claude Code 2.1.328, `PreToolUse` on `Edit` and `Write`.
    ClaudeCode,
    /// Codex 0.169.0, `PreToolUse` on `apply_patch`.
    Codex,
    /// Gemini CLI 0.61.0, `BeforeTool` on `replace` and `write_file`.
    GeminiCli,
    /// Qwen Code 0.24.4, `PreToolUse` on `edit` and `write_file`.
    QwenCode,
    /// Cline CLI 3.x, its `PreToolUse` hook file (run offline against Cline
    /// CLI 3.0.65: its cancel stops Cline's whole task).
    ClineCli,
    /// OpenCode 1.18.33, through srview's plugin (`assets/gate/`), which
    /// sends srview's own JSON for `edit`, `write` and `apply_patch`.
    Opencode,
    /// pi 0.73.1, through srview's extension (`assets/gate/`), which sends
    /// srview's own JSON for `edit` and `write`.
    Pi,
}

impl GateAgent {
    /// Every agent, in `--agent`'s order.
    pub const ALL: [GateAgent; 7] = [
        GateAgent::ClaudeCode,
        GateAgent::Codex,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
        GateAgent::ClineCli,
        GateAgent::Opencode,
        GateAgent::Pi,
    ];

    /// The agent by its session id (`claude-code`, `codex`, ...).
    pub fn from_id(id: &str) -> Option<GateAgent> {
        GateAgent::ALL.into_iter().find(|a| a.id() == id)
    }

    /// Its session id.
    pub fn id(self) -> &'static str {
        match self {
            GateAgent::ClaudeCode => "claude-code",
            GateAgent::Codex => "codex",
            GateAgent::GeminiCli => "gemini-cli",
            GateAgent::QwenCode => "qwen-code",
            GateAgent::ClineCli => "cline-cli",
            GateAgent::Opencode => "opencode",
            GateAgent::Pi => "pi",
        }
    }

    /// Its name for people.
    pub fn title(self) -> &'static str {
        match self {
            GateAgent::ClaudeCode => "Claude Code",
            GateAgent::Codex => "Codex",
            GateAgent::GeminiCli => "Gemini CLI",
            GateAgent::QwenCode => "Qwen Code",
            GateAgent::ClineCli => "Cline",
            GateAgent::Opencode => "OpenCode",
            GateAgent::Pi => "pi",
        }
    }

    /// Whether its hook can hand the agent a rewritten tool input (Qwen
    /// Code 0.24.4 ignores one: recorded; Cline CLI 3.0.65 takes an
    /// `overrideInput`: run offline against the real CLI, docs/gate.md;
    /// OpenCode's plugin and pi's extension change the arguments in place).
    pub fn can_rewrite(self) -> bool {
        !matches!(self, GateAgent::QwenCode)
    }
}

/// What srview makes of an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Case {
    /// The agent places it by its exact stage, and no trust check fails.
    Exact,
    /// Exact, but a trust check fails.
    Doubt,
    /// The agent would place it by a loose stage.
    Loose,
    /// The agent would refuse it.
    Failing,
    /// The payload, its input or its file cannot be read, or srview failed.
    Unreadable,
    /// A tool the gate does not judge (not an edit): no opinion.
    NotAnEdit,
}

impl Case {
    /// The word the record and the messages use.
    pub fn name(self) -> &'static str {
        match self {
            Case::Exact => "exact",
            Case::Doubt => "doubt",
            Case::Loose => "loose",
            Case::Failing => "failing",
            Case::Unreadable => "unreadable",
            Case::NotAnEdit => "not-an-edit",
        }
    }
}

/// What the gate answers the agent.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Nothing on stdout, exit 0: the agent's own flow goes on.
    NoOpinion,
    /// The edit is not run; the model reads the reason.
    Deny {
        /// The text for the model.
        reason: String,
    },
    /// After Claude Code refused the edit (its `PostToolUseFailure` hook,
    /// best effort): srview's diagnosis added for the model.
    Context {
        /// The text for the model.
        text: String,
    },
    /// The edit runs with this tool input instead (the agent's own schema).
    Rewrite {
        /// Why, in one paragraph (where the agent shows a reason).
        reason: String,
        /// The whole tool input to run.
        input: Value,
    },
}

impl Answer {
    /// The word the record uses: `none`, `deny`, `context`, `repair`.
    pub fn name(&self) -> &'static str {
        match self {
            Answer::NoOpinion => "none",
            Answer::Deny { .. } => "deny",
            Answer::Context { .. } => "context",
            Answer::Rewrite { .. } => "repair",
        }
    }

    /// The text for the model, if any.
    pub fn message(&self) -> Option<&str> {
        match self {
            Answer::NoOpinion => None,
            Answer::Deny { reason } | Answer::Rewrite { reason, .. } => Some(reason),
            Answer::Context { text } => Some(text),
        }
    }
}

/// One edit judged.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgment {
    /// The agent whose hook called.
    pub agent: GateAgent,
    /// What the payload says of the call (`None` when it cannot be read).
    pub call: Option<Call>,
    /// The file(s) the edit names, as the input names them.
    pub file: Option<String>,
    /// The case.
    pub case: Case,
    /// The agent's stage that places the edit (its own name), or its name
    /// for the failure; `None` when nothing ran.
    pub stage: Option<String>,
    /// The policy's action for the case.
    pub action: Option<Action>,
    /// The answer.
    pub answer: Answer,
    /// The edit put to the review pane: set when the policy's action for
    /// its case is `review` ([`spool::consult`] asks the pane).
    pub review: Option<Review>,
    /// What the model is told to do next when the edit is denied, as the
    /// finding set it where it was made; `None` when nothing was judged
    /// (a payload that cannot be read: its deny says why).
    pub next_step: Option<NextStep>,
    /// What the record says of an edit the agent places where the model
    /// may not expect, when nothing is in doubt (a patch hunk with only
    /// added lines under a bare `@@`: where it lands).
    pub note: Option<String>,
}

/// An edit for the review pane, and what the pane answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// What srview found (the pane shows it; the answers are built on it).
    pub(crate) finding: Finding,
    /// The pane's verdict, once it answered.
    pub verdict: Option<spool::Verdict>,
}

/// What judging one edit found, before the policy decides.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finding {
    pub case: Case,
    pub file: Option<String>,
    pub stage: Option<String>,
    /// What srview found, in sentences for the model (empty when exact).
    pub explanation: String,
    /// The exact edit srview stands behind, in the agent's schema: the
    /// whole tool input.
    pub corrected: Option<Value>,
    /// Why no corrected edit is offered, when one was looked for.
    pub withheld: Option<String>,
    /// The file the edit needs and that does not exist (as the input
    /// names it): the model is told so, and how to create one (or, for a
    /// file it deletes, that nothing needs deleting).
    pub missing: Option<answer::Missing>,
    /// What the model can do next if the edit is denied, set here where
    /// the finding is made (never read back from its words).
    pub next_step: NextStep,
    /// Where the agent places an edit nothing is in doubt about, when the
    /// model may not expect it (see [`Judgment::note`]).
    pub note: Option<String>,
}

impl Finding {
    /// An input, a file or a tool srview cannot judge: `why`, and what the
    /// model can do (`step`).
    fn unreadable(file: Option<String>, why: String, step: NextStep) -> Finding {
        Finding {
            case: Case::Unreadable,
            file,
            stage: None,
            explanation: why,
            corrected: None,
            withheld: None,
            missing: None,
            next_step: step,
            note: None,
        }
    }
}

/// Judges the edit of one hook payload (`payload`: its bytes exactly as
/// the agent sent them) against the files of `fs_at(cwd)` (`cwd`: the
/// payload's working folder, the root the files' relative paths are read
/// from), and decides by `policy`. Never panics on any input.
pub fn judge<F: PatchFs>(
    agent: GateAgent,
    payload: &[u8],
    fs_at: impl FnOnce(&str) -> F,
    policy: &Policy,
) -> Judgment {
    let call = match payload::read(agent, payload) {
        Ok(call) => call,
        Err(why) => {
            return failure(agent, &format!("the hook's payload cannot be read: {why}"));
        }
    };
    if let Some(why) = wrong_agent::said(agent, &call) {
        let mut judgment = failure(agent, &why);
        judgment.call = Some(call);
        return judgment;
    }
    // Only the events that come before an edit runs (and Claude Code's
    // after a refused one) are judged: a `PostToolUse` or a prompt's hook
    // wired to the gate gets no opinion, never a deny of an edit already
    // written.
    let handled = ["PreToolUse", "BeforeTool", "PostToolUseFailure"];
    if call
        .event
        .as_deref()
        .is_some_and(|event| !handled.contains(&event))
    {
        return Judgment::unjudged(agent, Some(call), Case::NotAnEdit, Answer::NoOpinion);
    }
    let fs = fs_at(&call.cwd);
    let finding = finding_of(agent, &call, &fs);
    decide(agent, call, finding, policy)
}

/// What srview finds in `call` over `fs`. The judgment reads how the
/// agent's matcher places the edit, never the success text it would show
/// the model: not built (a snippet of the whole file, before and after,
/// for Gemini CLI and Qwen Code).
fn finding_of(agent: GateAgent, call: &Call, fs: &dyn PatchFs) -> Finding {
    // The file as the agent's tool reads the path ([`tool_path`]).
    let call = match tool_path::resolved(agent, call, fs) {
        Ok(call) => call,
        Err((written, why)) => return Finding::unreadable(Some(written), why, NextStep::CheckPath),
    };
    crate::dialect::quick::without_success_texts(|| judge::finding(agent, &call, fs))
}

/// A judgment for an internal failure of the command itself (the payload
/// cannot be read from stdin): an explicit deny with the reason.
pub fn failure(agent: GateAgent, why: &str) -> Judgment {
    let answer = Answer::Deny {
        reason: format!("srview gate: {why}"),
    };
    Judgment::unjudged(agent, None, Case::Unreadable, answer)
}

/// The policy's answer to a finding.
fn decide(agent: GateAgent, call: Call, mut finding: Finding, policy: &Policy) -> Judgment {
    let tool = call.tool.clone();
    let after_failure =
        agent == GateAgent::ClaudeCode && call.event.as_deref() == Some("PostToolUseFailure");
    let exact_action = (!after_failure)
        .then(|| policy.action(Case::Exact))
        .flatten();
    worded(agent, &tool, &mut finding, exact_action);
    let (action, answer) = if after_failure {
        (None, answer::after_failure(agent, &tool, &finding))
    } else {
        let action = policy.action(finding.case);
        (action, answer::for_finding(agent, &tool, &finding, action))
    };
    // Put to the review pane, the answer above being its fallback: a case
    // the policy says `review` of, and a loose edit `repair` cannot
    // rewrite (no exact edit srview stands behind, or an agent that takes
    // none), which goes to the pane when one runs, else is denied.
    let unrepaired = action == Some(Action::Repair)
        && finding.case == Case::Loose
        && matches!(answer, Answer::Deny { .. });
    let to_pane = (action == Some(Action::Review) || unrepaired) && !after_failure;
    let review = to_pane.then(|| Review {
        finding: finding.clone(),
        verdict: None,
    });
    Judgment {
        agent,
        call: Some(call),
        file: finding.file,
        case: finding.case,
        stage: finding.stage,
        action,
        answer,
        review,
        next_step: Some(finding.next_step),
        note: finding.note,
    }
}

/// `finding` in the words the model reads (and the review pane shows) for
/// `agent`'s `tool`; `exact_action`: the policy's action for an exact edit
/// (`None` after a failure), which is the reason an exact edit is held back.
fn worded(agent: GateAgent, tool: &str, finding: &mut Finding, exact_action: Option<Action>) {
    // An old text found at several places: the advice in the agent's terms
    // (which is the step said).
    finding.explanation = wording::ambiguity_in_terms(agent, tool, &finding.explanation);
    if wording::is_ambiguous(&finding.explanation) {
        finding.next_step = NextStep::Ambiguous;
    }
    // The agent's own matcher named where srview's diagnosis says "the
    // reference".
    finding.explanation = wording::own_matcher(agent, tool, &finding.explanation);
    finding.withheld = (finding.withheld.take()).map(|w| wording::own_matcher(agent, tool, &w));
    // An exact edit held back by the policy (`exact=deny`, `exact=review`)
    // has no finding to say: the policy is the reason (a new user's find:
    // the model read "srview gate: " and nothing more).
    if finding.case == Case::Exact && finding.explanation.is_empty() {
        let file = finding.file.as_deref().unwrap_or("the file");
        finding.explanation = match exact_action {
            Some(Action::Deny) => format!(
                "the edit of {file} matches exactly, but srview's policy exact=deny lets no \
                 edit through."
            ),
            Some(Action::Review) => format!(
                "the edit of {file} matches exactly; srview's policy exact=review puts every \
                 edit to the review pane."
            ),
            _ => String::new(),
        };
    }
}

impl Judgment {
    /// A call answered without judging its edit (a payload that cannot be
    /// read, an event the gate does not judge): no file, stage, policy,
    /// review, next step or note.
    fn unjudged(agent: GateAgent, call: Option<Call>, case: Case, answer: Answer) -> Judgment {
        Judgment {
            agent,
            call,
            file: None,
            case,
            stage: None,
            action: None,
            answer,
            review: None,
            next_step: None,
            note: None,
        }
    }

    /// The answer in the agent's own decision format. A repair goes to
    /// Claude Code as `ask` where its permission mode would have asked the
    /// user ([`answer::keeps_the_prompt`]); an edit the user already chose
    /// in the review pane goes as `allow` (a repair the pane sent unseen
    /// for a session allowed with `A` is not one: it asks as the policy's).
    pub fn reply(&self) -> Reply {
        let mode = self
            .call
            .as_ref()
            .and_then(|c| c.permission_mode.as_deref());
        let chosen_in_pane =
            self.review.is_some() && self.verdict() != Some(&spool::Verdict::SessionRepair);
        let ask_user = !chosen_in_pane && answer::keeps_the_prompt(mode);
        answer::reply(self.agent, &self.sent(), ask_user)
    }

    /// The answer as it is sent: a deny of an edit Cline refuses itself
    /// (the failing case: nothing is written either way) goes as the hook's
    /// `context` without a cancel, so that Cline's own error and srview's
    /// finding reach the model and the task goes on; a cancel stops Cline's
    /// whole task and the model reads nothing (a tester's find: the default
    /// `failing=deny` ended the task on every typo Cline would have let the
    /// model retry). Every other answer as decided.
    pub fn sent(&self) -> std::borrow::Cow<'_, Answer> {
        match (&self.answer, self.agent, self.case) {
            (Answer::Deny { reason }, GateAgent::ClineCli, Case::Failing) => {
                std::borrow::Cow::Owned(Answer::Context {
                    text: reason.clone(),
                })
            }
            (answer, ..) => std::borrow::Cow::Borrowed(answer),
        }
    }

    /// The judgment once the review pane answered `verdict`: its answer in
    /// the agent's terms, and the verdict kept for the record. A judgment
    /// not put to the pane is given back as it is.
    pub fn with_verdict(mut self, verdict: spool::Verdict) -> Judgment {
        let (Some(review), Some(call)) = (&mut self.review, &self.call) else {
            return self;
        };
        let action = self.action.unwrap_or(Action::Review);
        self.answer = answer::from_pane(self.agent, &call.tool, &review.finding, &verdict, action);
        review.verdict = Some(verdict);
        self
    }

    /// The review pane's verdict, when it answered.
    pub fn verdict(&self) -> Option<&spool::Verdict> {
        self.review.as_ref().and_then(|r| r.verdict.as_ref())
    }

    /// The line `.srview/gate.jsonl` keeps for it (without its newline);
    /// `time` is the decision's time (RFC 3339, UTC).
    pub fn record(&self, time: &str) -> String {
        let call = self.call.as_ref();
        // Absolute, whatever the input named (see `record::record_files`).
        let file = match (&self.file, call) {
            (Some(files), Some(call)) => Some(record::record_files(&call.cwd, files)),
            (files, _) => files.clone(),
        };
        let sent = self.sent();
        let record = Record {
            time,
            agent: self.agent.id(),
            session_id: call.and_then(|c| c.session_id.as_deref()),
            call_id: call.and_then(|c| c.call_id.as_deref()),
            tool: call.map(|c| c.tool.as_str()),
            file: file.as_deref(),
            input_sha256: call.map(|c| sha256_hex(c.input.to_string().as_bytes())),
            rewritten_sha256: match &self.answer {
                Answer::Rewrite { input, .. } => Some(sha256_hex(input.to_string().as_bytes())),
                _ => None,
            },
            stage: self.stage.as_deref(),
            case: self.case.name(),
            policy: self.action.map(Action::name),
            decision: sent.name(),
            message: sent.message(),
            decided_by: self.verdict().map(|_| "review pane"),
            review: self.verdict().map(spool::Verdict::name),
            note: self.note.as_deref(),
        };
        serde_json::to_string(&record).unwrap_or_default()
    }
}

/// One line of `.srview/gate.jsonl`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Record<'a> {
    time: &'a str,
    agent: &'a str,
    session_id: Option<&'a str>,
    call_id: Option<&'a str>,
    tool: Option<&'a str>,
    file: Option<&'a str>,
    /// Of the tool input as compact JSON (keys in sorted order).
    input_sha256: Option<String>,
    /// Of the rewritten input the agent was handed (a repair): the session
    /// of an agent that keeps the arguments it ran (OpenCode's plugin
    /// changes them in place) records that one.
    #[serde(skip_serializing_if = "Option::is_none")]
    rewritten_sha256: Option<String>,
    stage: Option<&'a str>,
    case: &'a str,
    /// The policy's action for the case (`None` when it does not apply).
    policy: Option<&'a str>,
    decision: &'a str,
    message: Option<&'a str>,
    /// Who decided, when not the policy: `review pane`.
    #[serde(skip_serializing_if = "Option::is_none")]
    decided_by: Option<&'a str>,
    /// The pane's answer (`allow`, `reject`, `corrected`, `allow-session`,
    /// `session-repair`).
    #[serde(skip_serializing_if = "Option::is_none")]
    review: Option<&'a str>,
    /// Where the agent places an edit nothing is in doubt about, when the
    /// model may not expect it ([`Judgment::note`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
}

/// `bytes`' SHA-256 in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
