//! Reading FILE and DIFF: UTF-8 only, binary refused, errors as one line.

use std::io::Read;
use std::path::Path;

use crate::error::Error;

/// Why bytes are not text. Offsets count bytes from the start of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotText {
    /// A NUL byte: binary content, as git decides.
    Nul { at: usize },
    /// A byte that is not UTF-8.
    Invalid { at: usize },
    /// The input ended inside a multi-byte character.
    Truncated,
}

impl NotText {
    /// The one-line error for the input named `what`.
    pub fn error(self, what: &str) -> Error {
        Error::refused(match self {
            NotText::Nul { at } => format!(
                "{what} looks binary (NUL byte at offset {at}); refusing to treat it as text"
            ),
            NotText::Invalid { at } => {
                format!("{what} is not valid UTF-8 (first bad byte at offset {at})")
            }
            NotText::Truncated => format!("{what} is not valid UTF-8 (it ends inside a character)"),
        })
    }
}

impl std::fmt::Display for NotText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotText::Nul { at } => write!(f, "binary (NUL byte at offset {at})"),
            NotText::Invalid { at } => write!(f, "not valid UTF-8 (first bad byte at offset {at})"),
            NotText::Truncated => f.write_str("not valid UTF-8 (it ends inside a character)"),
        }
    }
}

/// Decodes a byte stream that arrives in pieces: a character split between
/// two pieces waits for its second half; a NUL byte or invalid UTF-8 is
/// refused with its offset in the whole stream. Every reader of text (FILE,
/// DIFF, stdin, a watched file) goes through it, so all say the same.
#[derive(Debug, Default)]
pub struct TextDecoder {
    /// Bytes of an incomplete last character.
    pending: Vec<u8>,
    /// Bytes decoded so far.
    decoded: usize,
}

impl TextDecoder {
    /// The text `bytes` complete.
    pub fn push(&mut self, bytes: &[u8]) -> Result<String, NotText> {
        let start = self.decoded;
        self.pending.extend_from_slice(bytes);
        if let Some(at) = memchr::memchr(0, &self.pending) {
            return Err(NotText::Nul { at: start + at });
        }
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(e) => {
                return Err(NotText::Invalid {
                    at: start + e.valid_up_to(),
                });
            }
        };
        let rest = self.pending.split_off(valid);
        let done = std::mem::replace(&mut self.pending, rest);
        self.decoded += done.len();
        String::from_utf8(done).map_err(|e| NotText::Invalid {
            at: start + e.utf8_error().valid_up_to(),
        })
    }

    /// Bytes received but not yet decoded (half a character).
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// The end of the stream: a character still incomplete is an error.
    pub fn finish(&self) -> Result<(), NotText> {
        if self.pending.is_empty() {
            Ok(())
        } else {
            Err(NotText::Truncated)
        }
    }
}

/// Decodes a whole input as text (see [`TextDecoder`]).
pub fn text(bytes: Vec<u8>) -> Result<String, NotText> {
    if let Some(at) = memchr::memchr(0, &bytes) {
        return Err(NotText::Nul { at });
    }
    String::from_utf8(bytes).map_err(|e| NotText::Invalid {
        at: e.utf8_error().valid_up_to(),
    })
}

/// [`text`], with the error naming the input `what`.
pub fn decode(bytes: Vec<u8>, what: &str) -> Result<String, Error> {
    text(bytes).map_err(|e| e.error(what))
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
        // `-` is stdin for the diff: FILE must be named.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && path == Path::new("-") => {
            return Err(Error::usage(
                "FILE cannot be `-` (stdin is for the diff): name the file the diff edits",
            ));
        }
        Err(e) => return Err(Error::read(&what, e)),
        Ok(_) => {}
    }
    let bytes = std::fs::read(path).map_err(|e| Error::read(&what, e))?;
    decode(bytes, &what).map(Some)
}

/// FILE of a command that has `--new-file`: [`read_text`], with a missing
/// file allowed when `new_file`, and otherwise refused with a message that
/// names the flag (the user may have meant to create it).
pub fn read_file_arg(path: &Path, new_file: bool) -> Result<Option<String>, Error> {
    match read_text(path, new_file) {
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Err(missing_file(&path.display().to_string()))
        }
        other => other,
    }
}

/// A FILE that does not exist, for a command that has `--new-file`.
pub fn missing_file(what: &str) -> Error {
    Error::refused(format!(
        "{what} does not exist (to create it, add --new-file: the edit then starts from an empty file)"
    ))
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

/// One `read` into `buf`, tried again when a signal interrupted it: `Ok(0)`
/// only at the end of the input.
pub fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            got => return got,
        }
    }
}

/// Reads to the end, refusing binary input as soon as a NUL byte arrives.
fn read_stream(mut reader: impl Read, what: &str) -> Result<String, Error> {
    let mut text = String::new();
    let mut decoder = TextDecoder::default();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = read_some(&mut reader, &mut chunk).map_err(|e| Error::read(what, e))?;
        if n == 0 {
            break;
        }
        text.push_str(&decoder.push(&chunk[..n]).map_err(|e| e.error(what))?);
    }
    decoder.finish().map_err(|e| e.error(what))?;
    Ok(text)
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
    fn decoder_holds_back_split_characters_and_counts_offsets() {
        let bytes = "aé".as_bytes();
        let mut d = TextDecoder::default();
        assert_eq!(d.push(&bytes[..2]), Ok("a".to_string()));
        assert_eq!(d.pending(), 1);
        assert_eq!(d.finish(), Err(NotText::Truncated));
        assert_eq!(d.push(&bytes[2..]), Ok("é".to_string()));
        assert_eq!(d.finish(), Ok(()));
        assert_eq!(d.push(b"b\xffc"), Err(NotText::Invalid { at: 4 }));
        let mut d = TextDecoder::default();
        assert_eq!(d.push(b"ab"), Ok("ab".to_string()));
        assert_eq!(d.push(b"c\0"), Err(NotText::Nul { at: 3 }));
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
