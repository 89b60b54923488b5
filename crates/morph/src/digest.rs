//! Change detection: which sections' HTML differs from what was last applied.

use alloc::string::String;
use alloc::vec::Vec;

/// Each section's HTML as last applied, by `data-section-id`.
///
/// Generic over how the HTML is held: in the browser it stays a JS string,
/// compared with `===` (cheaper than copying the page into wasm memory to
/// hash it); natively any `PartialEq` text will do.
///
/// ```
/// let mut ledger = morph::digest::Ledger::default();
/// assert!(ledger.record("intro", "<p>a</p>"));
/// assert!(!ledger.record("intro", "<p>a</p>"));
/// assert!(ledger.unchanged("intro", &"<p>a</p>"));
/// assert!(ledger.record("intro", "<p>b</p>"));
/// ```
#[derive(Debug)]
pub struct Ledger<H> {
    /// Sorted by key (a sorted vector is smaller in wasm than a map).
    applied: Vec<(String, H)>,
}

impl<H> Default for Ledger<H> {
    fn default() -> Self {
        Ledger {
            applied: Vec::new(),
        }
    }
}

impl<H: PartialEq> Ledger<H> {
    /// Records `html` as the section `key`'s content and says whether it
    /// differs from what was recorded before (a new key differs).
    pub fn record(&mut self, key: &str, html: H) -> bool {
        match self.find(key) {
            Ok(at) => match self.applied.get_mut(at) {
                Some(slot) if slot.1 != html => {
                    slot.1 = html;
                    true
                }
                _ => false,
            },
            Err(at) => {
                self.applied.insert(at, (key.into(), html));
                true
            }
        }
    }

    /// Whether `html` is what the section `key` last received.
    pub fn unchanged(&self, key: &str, html: &H) -> bool {
        self.find(key)
            .ok()
            .and_then(|at| self.applied.get(at))
            .is_some_and(|(_, h)| h == html)
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.applied.binary_search_by(|(k, _)| k.as_str().cmp(key))
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
    fn a_section_counts_as_changed_only_when_its_html_differs() {
        let mut ledger = Ledger::default();
        assert!(ledger.record("a", "<p>1</p>"));
        assert!(ledger.record("b", "<p>1</p>"));
        assert!(!ledger.record("a", "<p>1</p>"));
        assert!(ledger.unchanged("a", &"<p>1</p>"));
        assert!(!ledger.unchanged("a", &"<p>2</p>"));
        assert!(!ledger.unchanged("zzz", &"<p>1</p>"));
        assert!(ledger.record("a", "<p>2</p>"));
        assert!(!ledger.record("a", "<p>2</p>"));
    }

    #[test]
    fn keys_are_kept_apart_whatever_their_order_of_arrival() {
        let mut ledger = Ledger::default();
        for key in ["m", "c", "x", "a"] {
            assert!(ledger.record(key, key.len()));
        }
        for key in ["a", "c", "m", "x"] {
            assert!(ledger.unchanged(key, &1));
        }
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
