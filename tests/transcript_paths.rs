//! A model's paths are untrusted: `..`, absolute paths and symlinks leading
//! out of --cwd are refused unless --allow-outside.

use std::path::Path;

mod support;

use srview::source::transcript::PathRules;

const DIFF: &str = "------- SEARCH\nsecret\n=======\npwned\n+++++++ REPLACE";

fn transcript(path: &str) -> String {
    format!("<replace_in_file><path>{path}</path><diff>{DIFF}</diff></replace_in_file>")
}

/// `root/work` is the cwd; `root/outside.txt` must never be touched.
fn setup() -> tempfile::TempDir {
    let root = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(root.path().join("work")).expect("mkdir");
    std::fs::write(root.path().join("outside.txt"), "secret\n").expect("write");
    std::fs::write(root.path().join("work/inside.txt"), "secret\n").expect("write");
    root
}

fn apply(root: &Path, path: &str, allow: bool) -> std::process::Output {
    let msg = root.join("msg.md");
    std::fs::write(&msg, transcript(path)).expect("write msg");
    let mut cmd = support::runner::srview(["apply", "--transcript"])
        .arg(&msg)
        .arg("--cwd")
        .arg(root.join("work"))
        .args(["--write", "--json"]);
    if allow {
        cmd = cmd.arg("--allow-outside");
    }
    cmd.output()
}

fn outside(root: &Path) -> String {
    std::fs::read_to_string(root.join("outside.txt")).expect("readable")
}

fn assert_refused(root: &Path, path: &str) {
    let out = apply(root, path, false);
    assert_eq!(out.status.code(), Some(2), "{path}: {out:?}");
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["files"][0]["state"], "refused", "{path}");
    let error = report["files"][0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("--allow-outside"), "{error}");
    assert_eq!(outside(root), "secret\n", "{path} must not be written");
}

#[test]
fn parent_paths_are_refused() {
    let root = setup();
    assert_refused(root.path(), "../outside.txt");
    assert_refused(root.path(), "sub/../../outside.txt");
}

#[test]
fn absolute_paths_are_refused() {
    let root = setup();
    let abs = root.path().join("outside.txt");
    assert_refused(root.path(), &abs.to_string_lossy());
    // Even an absolute path that points inside: the model must not choose.
    let inside = root.path().join("work/inside.txt");
    assert_refused(root.path(), &inside.to_string_lossy());
}

#[cfg(unix)]
#[test]
fn symlinks_out_are_refused() {
    let root = setup();
    let work = root.path().join("work");
    std::os::unix::fs::symlink(root.path(), work.join("up")).expect("symlink");
    std::os::unix::fs::symlink(root.path().join("outside.txt"), work.join("link.txt"))
        .expect("symlink");
    std::os::unix::fs::symlink(root.path().join("gone.txt"), work.join("dangling.txt"))
        .expect("symlink");
    assert_refused(root.path(), "up/outside.txt");
    assert_refused(root.path(), "link.txt");
    assert_refused(root.path(), "new/../up/outside.txt");
    assert_refused(root.path(), "dangling.txt");
    // A link that stays inside is fine.
    std::os::unix::fs::symlink(work.join("inside.txt"), work.join("alias.txt")).expect("symlink");
    let ws = PathRules::new(&work, false);
    assert!(ws.resolve("alias.txt").is_ok());
}

#[test]
fn allow_outside_permits_them() {
    let root = setup();
    let out = apply(root.path(), "../outside.txt", true);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(outside(root.path()), "pwned\n");
}

#[test]
fn inside_paths_apply() {
    let root = setup();
    let out = apply(root.path(), "./inside.txt", false);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(root.path().join("work/inside.txt")).expect("read");
    assert_eq!(text, "pwned\n");
}
