//! `codex exec --json`: `item.started` / `item.completed` of type
//! `file_change`, with only `{path, kind}` per file.

use std::collections::HashMap;

use serde::Deserialize;

use super::super::store::Store;
use super::super::{AgentTool, EditInput, Verdict};
use super::parse_line;

#[derive(Default)]
pub(in crate::source::agent) struct ExecParser {
    /// Item id → its edits (one per changed file).
    items: HashMap<String, Vec<usize>>,
}

#[derive(Deserialize)]
struct ExecLine {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    item: Option<ExecItem>,
}

#[derive(Deserialize)]
struct ExecItem {
    #[serde(default)]
    id: String,
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    changes: Vec<ExecChange>,
    #[serde(default)]
    status: Option<String>,
}

#[derive(Deserialize)]
struct ExecChange {
    #[serde(default)]
    path: Option<String>,
}

impl ExecParser {
    pub(in crate::source::agent) fn line(&mut self, text: &str, store: &mut Store) {
        let Some(line) = parse_line::<ExecLine>(text, store) else {
            return;
        };
        let Some(item) = line.item.filter(|i| i.kind == "file_change") else {
            return;
        };
        if !matches!(line.kind.as_str(), "item.started" | "item.completed") {
            return;
        }
        if !self.items.contains_key(&item.id) {
            let mut edits = Vec::new();
            for change in &item.changes {
                match &change.path {
                    Some(path) => edits.push(store.push(
                        AgentTool::ApplyPatch,
                        path,
                        EditInput::NotRecorded,
                        false,
                    )),
                    None => store.missing("file_change item", "path"),
                }
            }
            self.items.insert(item.id.clone(), edits);
        }
        if line.kind == "item.completed" {
            let verdict = match item.status.as_deref() {
                Some("completed") => Verdict::Applied,
                Some("failed") => Verdict::Failed,
                _ => return,
            };
            for &at in self.items.get(&item.id).into_iter().flatten() {
                store.set_verdict(at, verdict, None);
            }
        }
    }
}

impl crate::source::agent::reader::FormatReader for ExecParser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.line(text, store);
    }
}
