//! Reading FILE and DIFF: UTF-8 only, binary refused, errors as one line.

use std::io::Read;
use std::path::Path;

/// A user-facing failure with the exit status it maps to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    /// Usage or I/O problem: exit 2.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: 2,
            message: message.into(),
        }
    }

    /// The diff does not apply: exit 1.
    pub fn no_apply(message: impl Into<String>) -> Self {
        CliError {
            code: 1,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Decodes bytes as UTF-8 text, refusing binary content (a NUL byte, as git
/// decides) and naming the offset of the first bad byte.
pub fn decode(bytes: Vec<u8>, what: &str) -> Result<String, CliError> {
    if let Some(at) = memchr::memchr(0, &bytes) {
        return Err(binary(what, at));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::usage(format!(
            "{what} is not valid UTF-8 (first bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads a text file. `missing_ok` turns a missing file into `None`.
pub fn read_text(path: &Path, missing_ok: bool) -> Result<Option<String>, CliError> {
    let what = path.display().to_string();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(CliError::usage(format!("{what} is a directory"))),
        Ok(meta) if !meta.is_file() => {
            return Err(CliError::usage(format!("{what} is not a regular file")));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && missing_ok => return Ok(None),
        Err(e) => return Err(CliError::usage(format!("cannot read {what}: {e}"))),
        Ok(_) => {}
    }
    let bytes =
        std::fs::read(path).map_err(|e| CliError::usage(format!("cannot read {what}: {e}")))?;
    decode(bytes, &what).map(Some)
}

/// Reads DIFF from a path, or from stdin when it is `-` or absent. Unlike
/// FILE, DIFF may be a pipe or a FIFO (`srview apply F <(gen)`); it is read
/// in chunks and refused at the first NUL byte, so binary or endless zero
/// input (`/dev/zero`) stops early instead of filling memory.
pub fn read_diff(path: Option<&Path>) -> Result<String, CliError> {
    match path {
        Some(p) if p != Path::new("-") => {
            let what = p.display().to_string();
            match std::fs::metadata(p) {
                Ok(meta) if meta.is_dir() => {
                    return Err(CliError::usage(format!("{what} is a directory")));
                }
                Err(e) => return Err(CliError::usage(format!("cannot read {what}: {e}"))),
                Ok(_) => {}
            }
            let file = std::fs::File::open(p)
                .map_err(|e| CliError::usage(format!("cannot read {what}: {e}")))?;
            read_stream(file, &what)
        }
        _ => read_stream(std::io::stdin().lock(), "stdin"),
    }
}

/// Reads to the end, refusing binary input as soon as a NUL byte arrives.
fn read_stream(mut reader: impl Read, what: &str) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(CliError::usage(format!("cannot read {what}: {e}"))),
        };
        if let Some(at) = memchr::memchr(0, &chunk[..n]) {
            return Err(binary(what, bytes.len() + at));
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
    decode(bytes, what)
}

fn binary(what: &str, at: usize) -> CliError {
    CliError::usage(format!(
        "{what} looks binary (NUL byte at offset {at}); refusing to treat it as text"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_first_bad_byte() {
        let err = decode(b"ab\xffcd".to_vec(), "x").unwrap_err();
        assert_eq!(err.code, 2);
        assert!(err.message.contains("offset 2"), "{}", err.message);
    }

    #[test]
    fn refuses_nul_bytes() {
        let err = decode(b"ab\0".to_vec(), "x").unwrap_err();
        assert!(err.message.contains("binary"));
    }

    #[test]
    fn stream_stops_at_the_first_nul() {
        // An endless reader of zeros: refused after one chunk.
        let err = read_stream(std::io::repeat(0), "zeros").unwrap_err();
        assert!(
            err.message.contains("NUL byte at offset 0"),
            "{}",
            err.message
        );
        let err =
            read_stream(std::io::Read::chain(&b"abc"[..], std::io::repeat(0)), "x").unwrap_err();
        assert!(err.message.contains("offset 3"), "{}", err.message);
        assert_eq!(read_stream(&b"ok\n"[..], "x").unwrap(), "ok\n");
    }
}
