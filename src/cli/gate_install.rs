//! `srview gate install --agent NAME [--project|--user] [--policy P]
//! [--timeout S] [--dry-run] [--uninstall]`: the gate written into the
//! agent's own config ([`crate::gate::install`] plans it), printed as a
//! unified diff with `--dry-run`, or written: folders created as needed,
//! and on `--uninstall` the files left empty removed with the folders
//! they leave empty (up to HOME or the project).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{CmdResult, GateInstallArgs};
use crate::error::Error;
use crate::gate::GateAgent;
use crate::gate::install::{self, Change, InstallError, Plan, Request, Scope};

pub fn run(args: &GateInstallArgs) -> CmdResult {
    let agent = agent(&args.agent)?;
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| Error::usage("gate install: HOME is not set"))?;
    let project = std::env::current_dir()
        .map_err(|e| Error::usage(format!("gate install: the current folder: {e}")))?;
    let srview = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| Error::usage(format!("gate install: srview's own path: {e}")))?;
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let request = Request {
        agent,
        scope: if args.project {
            Scope::Project
        } else {
            Scope::User
        },
        srview,
        timeout: args.timeout,
        policy: args.policy.clone(),
        uninstall: args.uninstall,
        home,
        project,
        codex_home: match agent {
            GateAgent::Codex => codex_home(std::env::var_os("CODEX_HOME"))?,
            _ => None,
        },
        xdg_config_home: absolute("XDG_CONFIG_HOME"),
    };
    if let Some(policy) = &request.policy {
        crate::gate::Policy::parse(policy)
            .map_err(|e| Error::usage(format!("gate install: {e}")))?;
    }
    let plan = install::plan(&request, read).map_err(|e| match e {
        InstallError::Usage(why) => Error::usage(format!("gate install: {why}")),
        other => Error::refused(format!("gate install: {other}")),
    })?;
    let mut out = std::io::stdout().lock();
    let text = if args.dry_run {
        dry_run(&plan)
    } else {
        apply(&plan)?;
        summary(&request, &plan)
    };
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::stdout)?;
    // Exit 1: written (or, with --dry-run, to be written), but the user
    // must act (each `warning:` line says what).
    Ok(u8::from(!plan.warnings.is_empty()))
}

/// Codex's config folder as Codex finds it from `CODEX_HOME` (`value`;
/// unset or empty: `None`, `~/.codex`): Codex canonicalises it (its
/// `find_codex_home`), and keys the hook's trust by the canonical path of
/// its hooks.json, so srview writes that path's key (a tester's find: with
/// `CODEX_HOME` behind a symbolic link, srview's key named the link and
/// Codex skipped the hook silently). A relative value is refused: Codex
/// reads it against the folder it runs in, which srview cannot know; so is
/// one that leads to no folder, which Codex refuses to start with.
fn codex_home(value: Option<std::ffi::OsString>) -> Result<Option<PathBuf>, Error> {
    let Some(value) = value.filter(|v| !v.is_empty()).map(PathBuf::from) else {
        return Ok(None);
    };
    let shown = value.display();
    if !value.is_absolute() {
        return Err(Error::usage(format!(
            "gate install: CODEX_HOME ({shown}) is a relative path, which Codex reads against \
             the folder it runs in: set CODEX_HOME to an absolute path (in the shell that runs \
             Codex too) and install again"
        )));
    }
    // A folder still to be made (install makes it): the canonical path of
    // its nearest existing parent, then the rest as written.
    let mut rest = Vec::new();
    let mut existing = value.as_path();
    let real = loop {
        match existing.canonicalize() {
            Ok(real) => break real,
            Err(_) => match (existing.parent(), existing.file_name()) {
                (Some(parent), Some(name)) => {
                    rest.push(name.to_os_string());
                    existing = parent;
                }
                _ => {
                    return Err(Error::usage(format!(
                        "gate install: CODEX_HOME ({shown}) cannot be resolved: set it to an \
                         existing folder"
                    )));
                }
            },
        }
    };
    if !real.is_dir() {
        return Err(Error::usage(format!(
            "gate install: CODEX_HOME ({shown}) leads to {}, which is not a folder: Codex \
             keeps its config folder there",
            real.display()
        )));
    }
    let tidy = rest
        .iter()
        .all(|name| name != std::ffi::OsStr::new("..") && name != std::ffi::OsStr::new("."));
    if !tidy {
        return Err(Error::usage(format!(
            "gate install: CODEX_HOME ({shown}) names a folder that does not exist through \
             `..`: create it, then install again"
        )));
    }
    Ok(Some(
        rest.iter().rev().fold(real, |path, name| path.join(name)),
    ))
}

/// The agent named, or a usage error (exit 2): Aider and Cline classic
/// have no hook.
fn agent(name: &str) -> Result<GateAgent, Error> {
    if let Some(why) = install::no_hook(name) {
        return Err(Error::usage(format!(
            "gate install: --agent {name}: {why}; there is nothing to install"
        )));
    }
    GateAgent::from_id(name).ok_or_else(|| {
        let ids: Vec<&str> = GateAgent::ALL.iter().map(|a| a.id()).collect();
        Error::usage(format!(
            "gate install: unknown --agent '{name}' (one of: {})",
            ids.join(", ")
        ))
    })
}

/// The text of the settings file at `path`; `None` when there is none. A
/// path that is not a regular file (a pipe would block the read forever,
/// a device never end) is an error, left as it is.
fn read(path: &Path) -> std::io::Result<Option<String>> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            return Err(std::io::Error::other(
                "not a regular file (a device, a pipe or a socket): it is left as it is",
            ));
        }
        _ => {}
    }
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Each change as a unified diff, then the notes.
fn dry_run(plan: &Plan) -> String {
    let mut text = String::new();
    for change in &plan.changes {
        let path = change.path.display().to_string();
        let old = change.before.as_deref().unwrap_or("");
        let new = change.after.as_deref().unwrap_or("");
        let from = if change.before.is_some() {
            path.clone()
        } else {
            "/dev/null".into()
        };
        let to = if change.after.is_some() {
            path.clone()
        } else {
            "/dev/null".into()
        };
        text.push_str(
            &similar::TextDiff::from_lines(old, new)
                .unified_diff()
                .context_radius(3)
                .header(&from, &to)
                .to_string(),
        );
    }
    if plan.changes.is_empty() {
        text.push_str("gate install: nothing to change\n");
    }
    for note in &plan.notes {
        text.push_str(&format!("note: {note}\n"));
    }
    for warning in &plan.warnings {
        text.push_str(&format!("warning: {warning}\n"));
    }
    text.push_str("(--dry-run: nothing written)\n");
    text
}

/// Writes the plan: files written (folders created), removed, and the
/// folders a removal leaves empty removed up to the plan's root.
fn apply(plan: &Plan) -> Result<(), Error> {
    for change in &plan.changes {
        let path = &change.path;
        match &change.after {
            Some(text) => write(change, text).map_err(|e| {
                Error::refused(format!(
                    "gate install: cannot write {}: {e}",
                    path.display()
                ))
            })?,
            None => {
                // Only a regular file (or a link) srview wrote is removed.
                if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
                    return Err(Error::refused(format!(
                        "gate install: cannot remove {}: it is a directory",
                        path.display()
                    )));
                }
                std::fs::remove_file(path).map_err(|e| {
                    Error::refused(format!(
                        "gate install: cannot remove {}: {e}",
                        path.display()
                    ))
                })?;
                remove_empty_folders(path, &plan.root);
            }
        }
    }
    Ok(())
}

/// Writes `text` in place of `change.path` atomically (a new file beside
/// it, renamed over it: a crash leaves the old settings or the new, never
/// half), only if the file still holds what the plan read.
fn write(change: &Change, text: &str) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(folder) = change.path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)?;
    }
    let expected = change.before.as_deref().unwrap_or("").as_bytes();
    crate::output::write_atomic(&change.path, text.as_bytes(), Some(expected))
        .map_err(|e| std::io::Error::other(e.message))?;
    if change.executable {
        std::fs::set_permissions(&change.path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// Removes the folders holding `path` while they are empty, stopping
/// below `root`.
fn remove_empty_folders(path: &Path, root: &Path) {
    let mut folder = path.parent();
    while let Some(dir) = folder {
        if dir == root || !dir.starts_with(root) || std::fs::remove_dir(dir).is_err() {
            break;
        }
        folder = dir.parent();
    }
}

fn summary(request: &Request, plan: &Plan) -> String {
    let title = request.agent.title();
    let mut text = if request.uninstall {
        if plan.changes.is_empty() {
            format!("srview gate: nothing to uninstall for {title}\n")
        } else {
            format!("srview gate: uninstalled for {title}\n")
        }
    } else if plan.gate_off {
        // Never "installed" for a gate the agent will not run.
        let done = if plan.changes.is_empty() {
            "already written"
        } else {
            "written"
        };
        format!(
            "srview gate: {done} for {title}, but {title} will not run it until you act (warning below): {}\n",
            install::command(request)
        )
    } else if plan.changes.is_empty() {
        format!("srview gate: already installed for {title}\n")
    } else {
        format!(
            "srview gate: installed for {title}: {}\n",
            install::command(request)
        )
    };
    for change in &plan.changes {
        let verb = match (&change.before, &change.after) {
            (None, _) => "created",
            (_, None) => "removed",
            _ => "changed",
        };
        text.push_str(&format!("  {verb} {}\n", change.path.display()));
    }
    for note in &plan.notes {
        text.push_str(&format!("note: {note}\n"));
    }
    for warning in &plan.warnings {
        text.push_str(&format!("warning: {warning}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_home_is_the_canonical_folder_codex_reads() {
        let dir = tempfile::tempdir().expect("a folder");
        let real = dir.path().join("real");
        std::fs::create_dir(&real).expect("the folder");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("the link");
        let real = real.canonicalize().expect("canonical");
        let home = |path: &Path| codex_home(Some(path.as_os_str().to_os_string()));
        assert_eq!(home(&link).ok().flatten(), Some(real.clone()));
        // A folder install will make: under its parent's real path.
        assert_eq!(
            home(&link.join("new")).ok().flatten(),
            Some(real.join("new"))
        );
        assert_eq!(codex_home(None).ok().flatten(), None);
        assert_eq!(codex_home(Some("".into())).ok().flatten(), None);
        let file = real.join("file");
        std::fs::write(&file, "").expect("a file");
        let refused = |path: &Path| match home(path) {
            Err(Error::Usage(why)) => why,
            other => panic!("{path:?}: {other:?}"),
        };
        assert!(refused(&file).contains("which is not a folder"));
        assert!(refused(Path::new("rel/codex")).contains("is a relative path"));
    }
}
