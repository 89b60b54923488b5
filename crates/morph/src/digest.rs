//! Change detection: which sections' HTML differs from what was last applied.

use alloc::string::String;
use alloc::vec::Vec;

/// The 64-bit FNV-1a hash of `text`: small, fast, and plenty to tell one
/// render of a section from the next (a collision only costs a skipped
/// update, which the next change repairs).
///
/// ```
/// use morph::digest::fnv1a;
/// assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
/// assert_ne!(fnv1a("<p>a</p>"), fnv1a("<p>b</p>"));
/// ```
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The hash of each section's HTML as last applied, by `data-section-id`.
#[derive(Debug, Default)]
pub struct Ledger {
    /// Sorted by key (a sorted vector is smaller in wasm than a map).
    applied: Vec<(String, u64)>,
}

impl Ledger {
    /// Records `html` as the section `key`'s content and says whether it
    /// differs from what was recorded before (a new key differs).
    ///
    /// ```
    /// let mut ledger = morph::digest::Ledger::default();
    /// assert!(ledger.record("intro", "<p>a</p>"));
    /// assert!(!ledger.record("intro", "<p>a</p>"));
    /// assert!(ledger.record("intro", "<p>b</p>"));
    /// ```
    pub fn record(&mut self, key: &str, html: &str) -> bool {
        let hash = fnv1a(html);
        match self.find(key) {
            Ok(at) => match self.applied.get_mut(at) {
                Some(slot) if slot.1 != hash => {
                    slot.1 = hash;
                    true
                }
                _ => false,
            },
            Err(at) => {
                self.applied.insert(at, (key.into(), hash));
                true
            }
        }
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.applied.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// Whether `html` is what the section `key` last received.
    pub fn unchanged(&self, key: &str, html: &str) -> bool {
        self.find(key)
            .ok()
            .and_then(|at| self.applied.get(at))
            .is_some_and(|(_, h)| *h == fnv1a(html))
    }

    /// Forgets every section not in `present`, returning their keys (sorted):
    /// a whole document without them removed them.
    pub fn keep_only(&mut self, present: &[String]) -> Vec<String> {
        let mut gone = Vec::new();
        self.applied.retain(|(k, _)| {
            let keep = present.contains(k);
            if !keep {
                gone.push(k.clone());
            }
            keep
        });
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn a_section_counts_as_changed_only_when_its_html_differs() {
        let mut ledger = Ledger::default();
        assert!(ledger.record("a", "<p>1</p>"));
        assert!(ledger.record("b", "<p>1</p>"));
        assert!(!ledger.record("a", "<p>1</p>"));
        assert!(ledger.unchanged("a", "<p>1</p>"));
        assert!(!ledger.unchanged("a", "<p>2</p>"));
        assert!(!ledger.unchanged("zzz", "<p>1</p>"));
        assert!(ledger.record("a", "<p>2</p>"));
        assert!(!ledger.record("a", "<p>2</p>"));
    }

    #[test]
    fn keep_only_reports_and_forgets_removed_sections() {
        let mut ledger = Ledger::default();
        ledger.record("a", "1");
        ledger.record("b", "1");
        ledger.record("c", "1");
        assert_eq!(ledger.keep_only(&["b".into()]), vec!["a", "c"]);
        assert!(ledger.record("a", "1"), "a forgotten section is new again");
        assert!(!ledger.record("b", "1"));
    }
}
