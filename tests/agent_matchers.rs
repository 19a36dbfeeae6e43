//! Every agent matcher against its corpus: the agent's own shipped code's
//! results on generated cases (tests/fixtures/matchers/*.jsonl.gz, one
//! record a line), run in-process, compared field by field; each prints its
//! pass count per kind. One module per matcher, in tests/agent_matchers/.

#[path = "support/corpus.rs"]
mod reference_corpus;

mod corpus {
    use std::collections::BTreeMap;

    use serde_json::Value;
    use srview::dialect::apply_patch::fs::MemoryFs;
    use srview::dialect::call::ToolCall;

    /// The project folder every matcher's call runs in.
    pub const CWD: &str = "/home/user/project";

    /// The recorded real CLI calls in
    /// `tests/fixtures/matchers/recorded/FOLDER/`: each JSON file's name and
    /// content, by name.
    pub fn recorded(folder: &str) -> Vec<(String, Value)> {
        let dir = format!(
            "{}/tests/fixtures/matchers/recorded/{folder}",
            env!("CARGO_MANIFEST_DIR")
        );
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|entry| {
                let entry = entry.unwrap_or_else(|e| panic!("{dir}: {e}"));
                entry.file_name().to_string_lossy().into_owned()
            })
            .filter(|name| name.ends_with(".json"))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|name| {
                let path = format!("{dir}/{name}");
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
                (name, json)
            })
            .collect()
    }

    /// `run` on the tool call of `input` in the project `CWD` holding
    /// `files` (path below the project, content), in memory.
    pub fn with_call<T>(
        input: &Value,
        files: impl IntoIterator<Item = (String, String)>,
        run: impl FnOnce(&ToolCall) -> T,
    ) -> T {
        let fs = MemoryFs::new(files);
        run(&ToolCall {
            input,
            cwd: CWD,
            fs: &fs,
        })
    }

    /// The records of `tests/fixtures/matchers/NAME.jsonl.gz`.
    pub use super::reference_corpus::matcher_records as load;

    /// Passes and failures per kind (the part of `kind` before its first
    /// `.` or `/`... as given), printed as a table; fails the test listing
    /// the first failures when any record fails.
    #[derive(Default)]
    pub struct Tally {
        kinds: BTreeMap<String, (usize, usize)>,
        failures: Vec<String>,
    }

    impl Tally {
        /// Counts one record: `failure` is `None` when it matched.
        pub fn record(&mut self, kind: &str, id: &str, failure: Option<String>) {
            let entry = self.kinds.entry(kind.to_string()).or_default();
            match failure {
                None => entry.0 += 1,
                Some(why) => {
                    entry.1 += 1;
                    self.failures.push(format!("{id} ({kind}): {why}"));
                }
            }
        }

        /// Prints the table and fails on any failure.
        pub fn finish(self, corpus: &str) {
            let passed: usize = self.kinds.values().map(|k| k.0).sum();
            let total: usize = self.kinds.values().map(|k| k.0 + k.1).sum();
            println!("{corpus}: {passed}/{total}");
            for (kind, (pass, fail)) in &self.kinds {
                println!("  {kind:<32} {pass:>5}/{}", pass + fail);
            }
            assert!(total > 0, "{corpus}: no records");
            assert!(
                self.failures.is_empty(),
                "{corpus}: {} of {total} records differ; first:\n{}",
                self.failures.len(),
                self.failures
                    .iter()
                    .take(8)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }

    /// Every record of the corpus `name` through `check` (`None`: it
    /// matched), tallied by its `kind` and `id`; the table printed, the
    /// test failed on any failure.
    pub fn check_all(name: &str, mut check: impl FnMut(&Value) -> Option<String>) {
        let mut tally = Tally::default();
        for record in load(name) {
            let kind = record["kind"].as_str().expect("kind");
            let id = record["id"].as_str().expect("id");
            tally.record(kind, id, check(&record));
        }
        tally.finish(name);
    }

    /// The strings of the array `value[key]` (it must be one, of strings).
    pub fn strings<'a>(value: &'a Value, key: &str) -> Vec<&'a str> {
        value[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key}: not an array"))
            .iter()
            .map(|s| {
                s.as_str()
                    .unwrap_or_else(|| panic!("{key}: {s} is not a string"))
            })
            .collect()
    }

    /// The `(path, content)` pairs of the object `value[key]` (its values
    /// must be strings).
    pub fn files<'a>(value: &'a Value, key: &str) -> Vec<(&'a str, &'a str)> {
        value[key]
            .as_object()
            .unwrap_or_else(|| panic!("{key}: not an object"))
            .iter()
            .map(|(path, content)| {
                let content = content
                    .as_str()
                    .unwrap_or_else(|| panic!("{key}: {path}: not a string"));
                (path.as_str(), content)
            })
            .collect()
    }

    /// A recorded real call `call` (the file `name`) and `outcome` agree
    /// on the verdict (`ok`) and on the text the model read (`text`: the
    /// success message, or the error).
    #[track_caller]
    pub fn assert_verdict_and_text(
        outcome: &srview::dialect::call::CallOutcome,
        call: &Value,
        name: &str,
    ) {
        assert_eq!(Some(outcome.ok), call["ok"].as_bool(), "{name}");
        let text = outcome.message.as_deref().or(outcome.error.as_deref());
        assert_eq!(text, call["text"].as_str(), "{name}");
    }

    /// `None` when `got` equals `want`, else what differs.
    pub fn differ<T: PartialEq + std::fmt::Debug>(field: &str, got: T, want: T) -> Option<String> {
        (got != want).then(|| format!("{field}: got {got:?}, want {want:?}"))
    }

    /// [`differ`] on the agent's own words: its error, its success message
    /// and its stage, against the record's `expect`.
    pub fn differ_words(
        outcome: &srview::dialect::call::CallOutcome,
        expect: &serde_json::Value,
    ) -> Option<String> {
        differ("error", outcome.error.as_deref(), expect["error"].as_str())
            .or_else(|| {
                differ(
                    "message",
                    outcome.message.as_deref(),
                    expect["message"].as_str(),
                )
            })
            .or_else(|| differ("stage", outcome.stage.as_deref(), expect["stage"].as_str()))
    }
}
#[path = "agent_matchers/aider_diff.rs"]
mod aider_diff;
#[path = "agent_matchers/aider_udiff.rs"]
mod aider_udiff;
#[path = "agent_matchers/cline_apply_patch.rs"]
mod cline_apply_patch;
#[path = "agent_matchers/gemini_replace.rs"]
mod gemini_replace;
#[path = "agent_matchers/opencode_apply_patch.rs"]
mod opencode_apply_patch;
#[path = "agent_matchers/opencode_edit.rs"]
mod opencode_edit;
#[path = "agent_matchers/pi_edit.rs"]
mod pi_edit;
#[path = "agent_matchers/qwen_edit.rs"]
mod qwen_edit;
#[path = "agent_matchers/string_edits.rs"]
mod string_edits;
