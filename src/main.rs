//! The `srview` binary: everything lives in the library; this only runs it.

fn main() -> std::process::ExitCode {
    srview::cli::main()
}
