//! The `srview` binary: everything lives in the library; this only runs it.

// glibc: libc before libm on the link line. The one libm symbol an
// optimized build uses, `ldexp` (what `f64::exp2` of an integer becomes, in
// syntect's highlighter), is exported by libc.so.6 too, the same function;
// found in libc first, libm is never loaded (`--as-needed`): no pages of it
// mapped, no relocation of it at startup
// (`e2e_previewer::libm_is_not_loaded`, run with `--release`). A debug
// build still calls `exp2` and loads libm.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[link(name = "c")]
unsafe extern "C" {}

fn main() -> std::process::ExitCode {
    srview::main()
}
