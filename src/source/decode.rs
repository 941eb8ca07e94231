//! Turning a file's bytes into text, once, before any stage sees it.
//!
//! UTF-8 (a byte-order mark dropped), UTF-16 LE or BE (with a byte-order mark, or
//! without one when every other byte of ASCII text is zero), and otherwise Latin-1,
//! which reads any byte sequence losslessly (one character per byte) and is reported
//! with a note. Spans index into the decoded text and columns count its characters,
//! as an editor that reads the file in the same encoding shows them; the BOM is not a
//! character of the text. Bytes that are no text in any of these (an object file, a
//! file of NULs) are refused. `encode` writes fixed text back in the file's encoding.

/// How a file's bytes were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8, with or without a byte-order mark.
    Utf8 { bom: bool },
    /// UTF-16 little-endian, with or without a byte-order mark.
    Utf16Le { bom: bool },
    /// UTF-16 big-endian, with or without a byte-order mark.
    Utf16Be { bom: bool },
    /// ISO 8859-1: one character per byte, U+0000 to U+00FF.
    Latin1,
}

impl Encoding {
    /// The encoding's name as users know it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 { bom: false } => "UTF-8",
            Encoding::Utf8 { bom: true } => "UTF-8 with BOM",
            Encoding::Utf16Le { bom: true } => "UTF-16 LE with BOM",
            Encoding::Utf16Le { bom: false } => "UTF-16 LE without BOM",
            Encoding::Utf16Be { bom: true } => "UTF-16 BE with BOM",
            Encoding::Utf16Be { bom: false } => "UTF-16 BE without BOM",
            Encoding::Latin1 => "Latin-1",
        }
    }
}

/// A file's text and how it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The text without its byte-order mark.
    pub text: String,
    pub encoding: Encoding,
    /// Said to the user when the encoding is a guess (Latin-1, UTF-16 without BOM).
    pub note: Option<String>,
}

/// Why bytes are not source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotText(pub String);

impl std::fmt::Display for NotText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not source text: {}", self.0)
    }
}

/// Decodes `bytes`; an empty file is empty UTF-8 text.
pub fn decode(bytes: &[u8]) -> Result<Decoded, NotText> {
    let plain = |text: String, encoding| Decoded {
        text,
        encoding,
        note: None,
    };
    let decoded = if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        match std::str::from_utf8(rest) {
            Ok(text) => plain(text.to_string(), Encoding::Utf8 { bom: true }),
            Err(e) => {
                return Err(NotText(format!(
                    "it starts with a UTF-8 byte-order mark but is not valid UTF-8 (line {})",
                    line_of(rest, e.valid_up_to())
                )))
            }
        }
    } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        plain(
            utf16(rest, u16::from_le_bytes)?,
            Encoding::Utf16Le { bom: true },
        )
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        plain(
            utf16(rest, u16::from_be_bytes)?,
            Encoding::Utf16Be { bom: true },
        )
    } else if let Some(encoding) = bomless_utf16(bytes) {
        let text = match encoding {
            Encoding::Utf16Be { .. } => utf16(bytes, u16::from_be_bytes)?,
            _ => utf16(bytes, u16::from_le_bytes)?,
        };
        Decoded {
            text,
            encoding,
            note: Some(format!(
                "no byte-order mark; read as {} (every other byte is zero)",
                encoding.name()
            )),
        }
    } else {
        match std::str::from_utf8(bytes) {
            Ok(text) => plain(text.to_string(), Encoding::Utf8 { bom: false }),
            Err(e) => Decoded {
                text: bytes.iter().map(|&b| char::from(b)).collect(),
                encoding: Encoding::Latin1,
                note: Some(format!(
                    "not valid UTF-8 (line {}) nor UTF-16; read as Latin-1 (ISO 8859-1), one character per byte",
                    line_of(bytes, e.valid_up_to())
                )),
            },
        }
    };
    check_text(&decoded.text)?;
    Ok(decoded)
}

/// `text` in `encoding`, its byte-order mark restored; `None` when a character has
/// no place in it (Latin-1 holds only U+0000 to U+00FF).
pub fn encode(text: &str, encoding: Encoding) -> Option<Vec<u8>> {
    let units = |bom: bool, to: fn(u16) -> [u8; 2]| -> Vec<u8> {
        let bom = bom.then_some(0xFEFF);
        bom.into_iter()
            .chain(text.encode_utf16())
            .flat_map(to)
            .collect()
    };
    Some(match encoding {
        Encoding::Utf8 { bom } => {
            let mut out = Vec::with_capacity(text.len() + 3);
            if bom {
                out.extend_from_slice(b"\xEF\xBB\xBF");
            }
            out.extend_from_slice(text.as_bytes());
            out
        }
        Encoding::Utf16Le { bom } => units(bom, u16::to_le_bytes),
        Encoding::Utf16Be { bom } => units(bom, u16::to_be_bytes),
        Encoding::Latin1 => text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).ok())
            .collect::<Option<Vec<u8>>>()?,
    })
}

/// UTF-16 code units of `bytes` decoded; an odd length or a lone surrogate is refused.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String, NotText> {
    if !bytes.len().is_multiple_of(2) {
        return Err(NotText(
            "it starts with a UTF-16 byte-order mark but has an odd number of bytes".into(),
        ));
    }
    let units = bytes.chunks_exact(2).map(|p| unit([p[0], p[1]]));
    let mut text = String::with_capacity(bytes.len() / 2);
    let mut line = 1;
    for c in char::decode_utf16(units) {
        match c {
            Ok(c) => {
                line += usize::from(c == '\n');
                text.push(c);
            }
            Err(_) => {
                return Err(NotText(format!(
                    "invalid UTF-16 (an unpaired surrogate on line {line})"
                )))
            }
        }
    }
    Ok(text)
}

/// UTF-16 without a byte-order mark, recognised as text that is mostly ASCII: of the
/// first 4 KB, nine in ten code units have a zero high byte and a non-zero low byte.
fn bomless_utf16(bytes: &[u8]) -> Option<Encoding> {
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) || !bytes.contains(&0) {
        return None;
    }
    let head = &bytes[..bytes.len().min(4096)];
    let pairs = head.len() / 2;
    let ascii = |hi: usize| {
        head.chunks_exact(2)
            .filter(|p| p[hi] == 0 && p[1 - hi] != 0)
            .count()
            * 10
            >= pairs * 9
    };
    if ascii(1) {
        Some(Encoding::Utf16Le { bom: false })
    } else if ascii(0) {
        Some(Encoding::Utf16Be { bom: false })
    } else {
        None
    }
}

/// Refuses text no editor would show as source: a NUL character (compilers drop or
/// reject them; object files are full of them), or control characters (other than
/// tab, line feed, vertical tab, form feed, carriage return and the old end-of-file
/// mark `^Z`) in more than one character in twenty.
fn check_text(text: &str) -> Result<(), NotText> {
    if let Some(at) = text.find('\0') {
        return Err(NotText(format!(
            "it holds a NUL character (line {}): a binary file?",
            line_of(text.as_bytes(), at)
        )));
    }
    let mut chars = 0usize;
    let mut controls = 0usize;
    for c in text.chars() {
        chars += 1;
        if c.is_control() && !matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | '\u{1a}') {
            controls += 1;
        }
    }
    if controls * 20 > chars {
        return Err(NotText(format!(
            "{controls} of its {chars} characters are control characters: a binary file?"
        )));
    }
    Ok(())
}

/// The 1-based line of byte `at` of `bytes`.
fn line_of(bytes: &[u8], at: usize) -> usize {
    1 + memchr::memchr_iter(b'\n', &bytes[..at.min(bytes.len())]).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(text: &str, bom: bool) -> Vec<u8> {
        encode(text, Encoding::Utf16Le { bom }).unwrap_or_default()
    }

    #[test]
    fn every_encoding_round_trips() {
        let text = "groupshared float s[64]; // caf\u{e9}\r\n";
        for encoding in [
            Encoding::Utf8 { bom: false },
            Encoding::Utf8 { bom: true },
            Encoding::Utf16Le { bom: true },
            Encoding::Utf16Be { bom: true },
            Encoding::Utf16Le { bom: false },
            Encoding::Utf16Be { bom: false },
            Encoding::Latin1,
        ] {
            let bytes = encode(text, encoding).unwrap_or_default();
            let decoded = decode(&bytes).map_err(|e| e.to_string());
            assert_eq!(decoded.as_ref().map(|d| d.text.as_str()), Ok(text));
            assert_eq!(decoded.map(|d| d.encoding), Ok(encoding));
        }
    }

    #[test]
    fn guesses_carry_a_note_and_sure_readings_none() {
        assert_eq!(decode(b"int x;").map(|d| d.note), Ok(None));
        assert_eq!(decode(&utf16le("int x;", true)).map(|d| d.note), Ok(None));
        let latin = decode(b"int x;\n// caf\xe9\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(latin.text, "int x;\n// caf\u{e9}\n");
        assert!(latin.note.is_some_and(|n| n.contains("line 2")));
        assert!(decode(&utf16le("int x;", false)).is_ok_and(|d| d.note.is_some()));
    }

    #[test]
    fn empty_files_are_empty_text() {
        assert_eq!(decode(b"").map(|d| d.text), Ok(String::new()));
        assert_eq!(decode(b"\xEF\xBB\xBF").map(|d| d.text), Ok(String::new()));
    }

    #[test]
    fn binary_is_not_text() {
        assert!(decode(&[0u8; 64]).is_err());
        assert!(decode(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0>\0").is_err());
        let noise: Vec<u8> = (0..4096u64)
            .map(|i| ((i * 2_654_435_761) >> 13) as u8)
            .collect();
        assert!(decode(&noise).is_err());
        assert!(decode(b"\xFF\xFEa").is_err(), "odd UTF-16");
        assert!(decode(b"\xFF\xFE\x00\xD8a\x00").is_err(), "lone surrogate");
        assert!(decode(b"\xEF\xBB\xBFcaf\xe9").is_err(), "BOM but not UTF-8");
    }

    #[test]
    fn latin1_cannot_hold_every_character() {
        assert_eq!(
            encode("caf\u{e9}", Encoding::Latin1),
            Some(b"caf\xe9".to_vec())
        );
        assert_eq!(encode("\u{2192}", Encoding::Latin1), None);
    }
}
