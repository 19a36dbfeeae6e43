//! Reading FILE and DIFF: UTF-8 only, binary refused, errors as one line.

use std::io::Read;
use std::path::Path;

use crate::error::Error;

/// Decodes bytes as UTF-8 text, refusing binary content (a NUL byte, as git
/// decides) and naming the offset of the first bad byte.
pub fn decode(bytes: Vec<u8>, what: &str) -> Result<String, Error> {
    if let Some(at) = memchr::memchr(0, &bytes) {
        return Err(binary(what, at));
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::refused(format!(
            "{what} is not valid UTF-8 (first bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads a text file. `missing_ok` turns a missing file into `None`.
pub fn read_text(path: &Path, missing_ok: bool) -> Result<Option<String>, Error> {
    let what = path.display().to_string();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(Error::refused(format!("{what} is a directory"))),
        Ok(meta) if !meta.is_file() => {
            return Err(Error::refused(format!("{what} is not a regular file")));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && missing_ok => return Ok(None),
        Err(e) => return Err(Error::read(&what, e)),
        Ok(_) => {}
    }
    let bytes = std::fs::read(path).map_err(|e| Error::read(&what, e))?;
    decode(bytes, &what).map(Some)
}

/// Reads DIFF from a path, or from stdin when it is `-` or absent. Unlike
/// FILE, DIFF may be a pipe or a FIFO (`srview apply F <(gen)`); it is read
/// in chunks and refused at the first NUL byte, so binary or endless zero
/// input (`/dev/zero`) stops early instead of filling memory.
pub fn read_diff(path: Option<&Path>) -> Result<String, Error> {
    match path {
        Some(p) if p != Path::new("-") => {
            let what = p.display().to_string();
            match std::fs::metadata(p) {
                Ok(meta) if meta.is_dir() => {
                    return Err(Error::refused(format!("{what} is a directory")));
                }
                Err(e) => return Err(Error::read(&what, e)),
                Ok(_) => {}
            }
            let file = std::fs::File::open(p).map_err(|e| Error::read(&what, e))?;
            read_stream(file, &what)
        }
        _ => read_stream(std::io::stdin().lock(), "stdin"),
    }
}

/// Reads to the end, refusing binary input as soon as a NUL byte arrives.
fn read_stream(mut reader: impl Read, what: &str) -> Result<String, Error> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::read(what, e)),
        };
        if let Some(at) = memchr::memchr(0, &chunk[..n]) {
            return Err(binary(what, bytes.len() + at));
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
    decode(bytes, what)
}

fn binary(what: &str, at: usize) -> Error {
    Error::refused(format!(
        "{what} looks binary (NUL byte at offset {at}); refusing to treat it as text"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_first_bad_byte() {
        let err = decode(b"ab\xffcd".to_vec(), "x").unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(matches!(err, Error::Refused(_)));
        assert!(err.to_string().contains("offset 2"), "{err}");
    }

    #[test]
    fn refuses_nul_bytes() {
        let err = decode(b"ab\0".to_vec(), "x").unwrap_err();
        assert!(err.to_string().contains("binary"));
    }

    #[test]
    fn stream_stops_at_the_first_nul() {
        // An endless reader of zeros: refused after one chunk.
        let err = read_stream(std::io::repeat(0), "zeros").unwrap_err();
        assert!(err.to_string().contains("NUL byte at offset 0"), "{err}");
        let err =
            read_stream(std::io::Read::chain(&b"abc"[..], std::io::repeat(0)), "x").unwrap_err();
        assert!(err.to_string().contains("offset 3"), "{err}");
        assert_eq!(read_stream(&b"ok\n"[..], "x").unwrap(), "ok\n");
    }
}
