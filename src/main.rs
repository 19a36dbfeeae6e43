//! The `srview` binary: everything lives in the library; this only runs it.
//!
//! Linked so that the process maps no shared library but libc: an agent's
//! hook starts `srview gate` on every edit, and each library the dynamic
//! loader maps, relocates and initialises costs 0.15-0.2 ms of CPU per
//! start (measured on a hello-world: libgcc_s 0.18 ms, libm 0.17 ms, against
//! 1.2 ms for all of `/bin/true`).

// glibc: libc before libm on the link line. The one libm symbol an
// optimized build of srview's own code uses, `ldexp` (what `f64::exp2` of
// an integer becomes, in syntect's highlighter), is exported by libc.so.6
// too, the same function; found in libc first, libm is not needed for it
// (`--as-needed`). A debug build still calls `exp2` and loads libm.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[link(name = "c")]
unsafe extern "C" {}

// The unwinder linked in (`libgcc_eh.a`, what gcc's `-static-libgcc`
// links) instead of loaded from libgcc_s.so.1: panics unwind as before
// (the gate's `catch_unwind`, the previewer restoring the terminal), by
// the same code, without a shared library to map at each start.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[link(name = "gcc_eh", kind = "static", modifiers = "+whole-archive,-bundle")]
unsafe extern "C" {}

/// The natural logarithm, for the one caller that needs libm's `log`:
/// SQLite's FTS5 `bm25()` ranking (in rusqlite's bundled SQLite; srview
/// runs no full-text query). Defined here, the binary needs nothing of
/// libm.so.6 (`e2e_previewer::libm_is_not_loaded`, run with `--release`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[unsafe(no_mangle)]
extern "C" fn log(x: f64) -> f64 {
    libm::log(x)
}

fn main() -> std::process::ExitCode {
    srview::main()
}
