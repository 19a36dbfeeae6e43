//! Whether an edit changes the gate's own files (the agents' hook settings
//! `gate install` writes, srview's plugin and extension, `.srview/`): by
//! the path the edit names, by where that path really leads (a symbolic
//! link to such a file, or to its folder), and by the target of a patch's
//! `*** Move to:` (a tester's finds: an edit through `notes.json ->
//! .claude/settings.json`, or `cfg -> .claude`, and a file moved onto
//! `.claude/settings.local.json`, each passed with no opinion, and the
//! agent wrote the hook settings through them).

use serde_json::Value;

use super::install::own_file_places;
use super::{Call, Case, Finding, GateAgent};
use crate::dialect::apply_patch::{PatchFs, Section, parse};
use crate::dialect::call::fs_path;

/// One of the gate's own files an edit changes.
pub(super) struct Touched {
    /// What it holds of the gate (see [`gate_file`]).
    what: &'static str,
    /// How the edit reaches it, when not by the path it names: the link
    /// it goes through, the move that puts a file there.
    how: Option<String>,
}

/// The gate's own file `call` changes, `file` being the files its finding
/// names (joined by `, `); `None` when it changes none.
pub(super) fn touched(call: &Call, file: &str, fs: &dyn PatchFs) -> Option<Touched> {
    if let Some(what) = file.split(", ").find_map(gate_file) {
        return Some(Touched { what, how: None });
    }
    let linked = |path: &str| -> Option<(&'static str, String)> {
        let real = fs.resolve(&fs_path(&call.cwd, path))?;
        let what = gate_file(&real)?;
        Some((what, real))
    };
    for path in file.split(", ") {
        if let Some((what, real)) = linked(path) {
            let how = format!("{path} leads to {real} through a symbolic link");
            return Some(Touched {
                what,
                how: Some(how),
            });
        }
    }
    for (from, to) in moves(call) {
        let moved = format!("the patch moves {from} to {to}");
        if let Some(what) = gate_file(&to) {
            return Some(Touched {
                what,
                how: Some(moved),
            });
        }
        if let Some((what, real)) = linked(&to) {
            let how = format!("{moved}, which leads to {real} through a symbolic link");
            return Some(Touched {
                what,
                how: Some(how),
            });
        }
    }
    None
}

/// Each `*** Move to:` of an `apply_patch` call's patch: (source, target),
/// as the patch names them.
fn moves(call: &Call) -> Vec<(String, String)> {
    if call.tool != "apply_patch" {
        return Vec::new();
    }
    let text = ["command", "patchText", "input"]
        .iter()
        .find_map(|key| call.input.get(key).and_then(Value::as_str));
    let Some(patch) = text.and_then(|text| parse(text).ok()) else {
        return Vec::new();
    };
    patch
        .sections
        .into_iter()
        .filter_map(|section| match section {
            Section::Update {
                path,
                move_to: Some(to),
                ..
            } => Some((path, to)),
            _ => None,
        })
        .collect()
}

/// `found` (exact, in doubt or loose) made a doubt the user decides: it
/// changes the gate's own file `touched`. No corrected edit is offered:
/// srview stands behind no change of its own gate's files.
pub(super) fn mark(found: &mut Finding, touched: Touched) {
    let Touched { what, how } = touched;
    // How it gets there, a sentence of its own after the decision's.
    let how = how
        .map(|how| {
            let mut how = format!(" {how}.");
            if let Some(first) = how.get(1..2) {
                how.replace_range(1..2, &first.to_uppercase());
            }
            how
        })
        .unwrap_or_default();
    let file = found.file.as_deref().unwrap_or("the file");
    let sentence = format!("{what}, which may turn srview's gate off: the user decides.{how}");
    found.explanation = match found.case {
        Case::Exact => format!(
            "the edit of {file} matches exactly, but srview cannot stand behind its result: it \
             changes {sentence}"
        ),
        _ => format!(
            "{}\nThe edit also changes {sentence}",
            found.explanation.trim_end()
        ),
    };
    found.case = Case::Doubt;
    found.corrected = None;
    found.withheld = None;
}

/// The folders an agent loads every file of as code running in its own
/// process or as its hooks, where `gate install` puts srview's plugin,
/// extension or hook script (see [`own_file_places`]): OpenCode's plugin
/// folders (its loader's glob `{plugin,plugins}/*.{ts,js}` in each config
/// folder, the user's and the project's `.opencode/`; a plugin imports
/// files beside it), pi's extension folders (`*.ts`, and what they
/// import), Cline's hook folders (an executable per hook event). A new
/// file there runs beside srview's and can undo what it judged (a
/// tester's find: a second OpenCode plugin rewriting every edit the gate
/// let through passed as exact). Claude Code's, Codex's, Gemini CLI's and
/// Qwen Code's hooks are in their settings files.
const LOADED_FOLDERS: [&str; 8] = [
    "opencode/plugin/",
    "opencode/plugins/",
    ".opencode/plugin/",
    ".opencode/plugins/",
    ".pi/agent/extensions/",
    ".pi/extensions/",
    "Documents/Cline/Hooks/",
    ".clinerules/hooks/",
];

/// The agents' config files whose list of plugins or extensions loads code
/// into the agent's process beside srview's gate: OpenCode's `plugin` list
/// in `opencode.json`/`opencode.jsonc` (its user config folder, a project's
/// `.opencode/`, and the project root and each folder above the one it
/// starts in up to the worktree's root: any file of those names, see
/// [`OPENCODE_NAMES`]) and its global folder's older `config.json`; pi's
/// `extensions` list in `settings.json` (`~/.pi/agent/`, a project's
/// `.pi/`). A tester's find: a write adding a plugin to the project root's
/// `opencode.json`, or an extension to `.pi/settings.json`, passed with no
/// opinion.
const PLUGIN_CONFIGS: [&str; 7] = [
    "opencode/opencode.json",
    "opencode/opencode.jsonc",
    "opencode/config.json",
    ".opencode/opencode.json",
    ".opencode/opencode.jsonc",
    ".pi/agent/settings.json",
    ".pi/settings.json",
];

/// OpenCode's config file names, a config wherever it is: OpenCode reads
/// them from the folder it starts in and each folder above it up to the
/// worktree's root.
const OPENCODE_NAMES: [&str; 2] = ["opencode.json", "opencode.jsonc"];

/// What `path` holds of srview's gate, when it is one of the files `srview
/// gate install` writes, a file the agent loads from the folder it puts
/// srview's plugin or extension in ([`LOADED_FOLDERS`]), or the gate's own
/// folder: `None` otherwise.
pub(super) fn gate_file(path: &str) -> Option<&'static str> {
    const SETTINGS: [&str; 6] = [
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".codex/hooks.json",
        ".codex/config.toml",
        ".gemini/settings.json",
        ".qwen/settings.json",
    ];
    let own_files = GateAgent::ALL.into_iter().filter_map(own_file_places);
    let path = path.replace('\\', "/");
    let under = |tail: &str| path == tail || path.ends_with(&format!("/{tail}"));
    if (SETTINGS.into_iter().chain(own_files.flatten())).any(under) {
        return Some("the agent's hook settings (where srview's gate is installed)");
    }
    if PLUGIN_CONFIGS.into_iter().chain(OPENCODE_NAMES).any(under) {
        return Some(
            "the agent's config, whose list of plugins or extensions loads code into the agent \
             beside srview's gate (a new one runs too)",
        );
    }
    let in_folder = |folder: &str| path.starts_with(folder) || path.contains(&format!("/{folder}"));
    if LOADED_FOLDERS.into_iter().any(in_folder) {
        return Some(
            "a file in the folder the agent runs its plugins, extensions or hooks from, beside \
             srview's gate (a new one runs too)",
        );
    }
    (path.starts_with(".srview/") || path.contains("/.srview/"))
        .then_some("srview's own folder (the gate's record and review queue)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_folder_install_puts_a_gate_file_in_is_a_loaded_folder() {
        for agent in GateAgent::ALL {
            for place in own_file_places(agent).into_iter().flatten() {
                let folder = &place[..=place.rfind('/').expect("a folder")];
                assert!(LOADED_FOLDERS.contains(&folder), "{agent:?}: {place}");
            }
        }
    }

    #[test]
    fn a_new_file_beside_the_gates_plugin_or_extension_is_the_gates() {
        for path in [
            "/p/.opencode/plugin/zz-after.js",
            "/home/u/.config/opencode/plugins/helper.ts",
            ".pi/extensions/zz.ts",
            "/home/u/.pi/agent/extensions/sub/index.ts",
            "/p/.clinerules/hooks/TaskStart",
            "/home/u/.config/opencode/opencode.json",
        ] {
            assert!(gate_file(path).is_some(), "{path}");
        }
        for path in [
            "/p/plugin/zz.js",
            "/p/src/extensions/zz.ts",
            "/p/hooks/x",
            "/p/config.json",
            "/p/settings.json",
            "/p/.vscode/settings.json",
            "/p/myopencode.json",
        ] {
            assert_eq!(gate_file(path), None, "{path}");
        }
    }

    #[test]
    fn a_config_whose_plugin_or_extension_list_loads_code_is_the_gates() {
        for path in [
            "opencode.json",
            "/p/opencode.json",
            "/p/opencode.jsonc",
            "/p/sub/opencode.json",
            "/home/u/.config/opencode/config.json",
            "/p/.pi/settings.json",
            "/home/u/.pi/agent/settings.json",
        ] {
            assert_eq!(
                gate_file(path),
                Some(
                    "the agent's config, whose list of plugins or extensions loads code into \
                     the agent beside srview's gate (a new one runs too)"
                ),
                "{path}"
            );
        }
    }
}
