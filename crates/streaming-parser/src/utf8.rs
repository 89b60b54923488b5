//! Decoding bytes that arrive split anywhere, even inside a character.

use alloc::string::String;
use alloc::vec::Vec;

/// Holds the start of a character cut by a chunk boundary until the rest
/// arrives. Invalid bytes become U+FFFD exactly as
/// `String::from_utf8_lossy` would replace them in the whole input, so the
/// decoded text does not depend on the chunking.
#[derive(Debug, Default, Clone)]
pub struct Decoder {
    pending: Vec<u8>,
}

impl Decoder {
    /// Decodes `bytes` after what is pending; keeps a cut character back.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        let mut out = String::new();
        let joined;
        let mut rest: &[u8] = if self.pending.is_empty() {
            bytes
        } else {
            self.pending.extend_from_slice(bytes);
            joined = core::mem::take(&mut self.pending);
            &joined
        };
        loop {
            match core::str::from_utf8(rest) {
                Ok(text) => {
                    out.push_str(text);
                    return out;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    out.push_str(core::str::from_utf8(valid).unwrap_or_default());
                    match e.error_len() {
                        Some(n) => {
                            out.push('\u{FFFD}');
                            rest = after.get(n..).unwrap_or_default();
                        }
                        None => {
                            self.pending = after.to_vec();
                            return out;
                        }
                    }
                }
            }
        }
    }

    /// Whether no cut character is waiting.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// The input ended: a cut character left over becomes U+FFFD.
    pub fn finish(&mut self) -> String {
        if self.pending.is_empty() {
            String::new()
        } else {
            self.pending.clear();
            String::from("\u{FFFD}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_split_matches_lossy_decoding() {
        let input: Vec<u8> = [
            "a é 한 😀 ".as_bytes(),
            &[0xFF, b'x', 0xE2, 0x82, b'y', 0xF0, 0x9F, 0x98],
        ]
        .concat();
        let whole = String::from_utf8_lossy(&input).into_owned();
        for size in 1..input.len() {
            let mut d = Decoder::default();
            let mut out = String::new();
            for chunk in input.chunks(size) {
                out.push_str(&d.push(chunk));
            }
            out.push_str(&d.finish());
            assert_eq!(out, whole, "chunk size {size}");
        }
    }
}
