//! Keys and id sets: how the morph knows which old node a new one should be.
//!
//! A key is an element's `id`, else its `data-section-id`, else its
//! `data-component-id` (each kind in its own namespace, so `id="a"` and
//! `data-section-id="a"` never match). A key is *persistent* when exactly one
//! element carries it in the old tree and exactly one in the new, with the same
//! tag: only those nodes are moved rather than recreated. Every element's *id
//! set* holds the persistent keys of itself and its descendants; two elements
//! whose id sets intersect are the same part of the page.

use alloc::string::String;
use alloc::vec::Vec;

/// The kinds of key, in the order an element's key is chosen.
pub const KEY_ATTRIBUTES: [&str; 3] = ["id", "data-section-id", "data-component-id"];

/// Builds a key from the attribute that supplied it (an index into
/// [`KEY_ATTRIBUTES`]) and its value.
pub fn key(kind: usize, value: &str) -> String {
    let mut k = String::with_capacity(value.len() + 1);
    k.push(char::from(b'0' + (kind as u8 % 10)));
    k.push_str(value);
    k
}

/// Interns keys and decides which persist.
///
/// ```
/// use morph::keys::Keys;
/// let mut keys = Keys::default();
/// let a = keys.intern("0a", "DIV", true);
/// keys.intern("0a", "DIV", false);
/// let b = keys.intern("0b", "P", true);
/// keys.intern("0b", "SPAN", false);
/// assert!(keys.persistent(a));
/// assert!(!keys.persistent(b), "the tag changed");
/// ```
#[derive(Debug, Default)]
pub struct Keys {
    /// Key text to number, sorted by text.
    ids: Vec<(String, u32)>,
    seen: Vec<Seen>,
}

#[derive(Debug, Default)]
struct Seen {
    old: u32,
    new: u32,
    old_tag: String,
    same_tag: bool,
}

impl Keys {
    /// Records an element with key `key` and tag `tag` in the old tree
    /// (`old`) or the new; returns the key's number.
    pub fn intern(&mut self, key: &str, tag: &str, old: bool) -> u32 {
        let id = match self.ids.binary_search_by(|(k, _)| k.as_str().cmp(key)) {
            Ok(at) => self.ids.get(at).map_or(0, |(_, id)| *id),
            Err(at) => {
                let id = self.seen.len() as u32;
                self.ids.insert(at, (key.into(), id));
                self.seen.push(Seen::default());
                id
            }
        };
        if let Some(seen) = self.seen.get_mut(id as usize) {
            if old {
                seen.old += 1;
                seen.old_tag = tag.into();
            } else {
                seen.new += 1;
                seen.same_tag = seen.old_tag == tag;
            }
        }
        id
    }

    /// Whether the key numbered `id` is on exactly one element in each tree,
    /// with the same tag (call after interning both trees, old first).
    pub fn persistent(&self, id: u32) -> bool {
        self.seen
            .get(id as usize)
            .is_some_and(|s| s.old == 1 && s.new == 1 && s.same_tag)
    }

    /// How many distinct keys were interned.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether no key was interned.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

/// A set of persistent key numbers, kept sorted.
///
/// ```
/// use morph::keys::IdSet;
/// let mut a = IdSet::default();
/// a.insert(3);
/// a.insert(1);
/// let mut b = IdSet::default();
/// b.insert(3);
/// assert!(a.intersects(&b));
/// a.remove(3);
/// assert!(!a.intersects(&b));
/// ```
#[derive(Debug, Default, Clone, PartialEq)]
pub struct IdSet(Vec<u32>);

impl IdSet {
    /// Adds `id`.
    pub fn insert(&mut self, id: u32) {
        if let Err(at) = self.0.binary_search(&id) {
            self.0.insert(at, id);
        }
    }

    /// Removes `id` if present.
    pub fn remove(&mut self, id: u32) {
        if let Ok(at) = self.0.binary_search(&id) {
            self.0.remove(at);
        }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the two sets share a key (a merge of the sorted lists).
    pub fn intersects(&self, other: &IdSet) -> bool {
        let (mut a, mut b) = (self.0.iter().peekable(), other.0.iter().peekable());
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            match x.cmp(y) {
                core::cmp::Ordering::Less => drop(a.next()),
                core::cmp::Ordering::Greater => drop(b.next()),
                core::cmp::Ordering::Equal => return true,
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_kinds_do_not_collide() {
        assert_ne!(key(0, "a"), key(1, "a"));
        assert_eq!(key(2, "hero"), "2hero");
    }

    #[test]
    fn duplicated_keys_do_not_persist() {
        let mut keys = Keys::default();
        let twice_old = keys.intern("0x", "DIV", true);
        keys.intern("0x", "DIV", true);
        keys.intern("0x", "DIV", false);
        let twice_new = keys.intern("0y", "DIV", true);
        keys.intern("0y", "DIV", false);
        keys.intern("0y", "DIV", false);
        assert!(!keys.persistent(twice_old));
        assert!(!keys.persistent(twice_new));
    }

    #[test]
    fn keys_on_one_side_only_do_not_persist() {
        let mut keys = Keys::default();
        let only_old = keys.intern("0gone", "DIV", true);
        let only_new = keys.intern("0fresh", "DIV", false);
        assert!(!keys.persistent(only_old));
        assert!(!keys.persistent(only_new));
        assert!(!keys.persistent(99));
        assert_eq!(keys.len(), 2);
        assert!(!keys.is_empty());
    }

    #[test]
    fn id_sets_stay_sorted_and_intersect_exactly() {
        let mut a = IdSet::default();
        let mut b = IdSet::default();
        for id in [5, 1, 9, 5] {
            a.insert(id);
        }
        for id in [2, 4, 8, 10] {
            b.insert(id);
        }
        assert_eq!(a, IdSet(alloc::vec![1, 5, 9]));
        assert!(!a.intersects(&b));
        b.insert(9);
        assert!(a.intersects(&b));
        a.remove(9);
        a.remove(7);
        assert!(!a.intersects(&b));
        assert!(!IdSet::default().intersects(&a));
        assert!(IdSet::default().is_empty());
    }
}
