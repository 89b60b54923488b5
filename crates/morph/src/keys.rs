//! Keys and id sets: how the morph knows which old node a new one should be.
//!
//! A key is an element's `id`, else its `data-section-id`, else its
//! `data-component-id` (each kind numbered apart, so `id="a"` and
//! `data-section-id="a"` never match). A key is *persistent* when exactly one
//! element carries it in the old tree and exactly one in the new, with the same
//! tag: only those nodes are moved rather than recreated. Every element's *id
//! set* holds the persistent keys of itself and its descendants; two elements
//! whose id sets intersect are the same part of the page.

use alloc::vec::Vec;

/// The kinds of key, in the order an element's key is chosen.
pub const KEY_ATTRIBUTES: [&str; 3] = ["id", "data-section-id", "data-component-id"];

/// Decides which keys persist. Keys are numbered densely from 0 by the
/// caller (in the browser, JS `Map`s number them without copying the text);
/// tags are anything comparable (JS strings there).
///
/// ```
/// use morph::keys::Keys;
/// let mut keys = Keys::default();
/// keys.note(0, "DIV", true);
/// keys.note(0, "DIV", false);
/// keys.note(1, "P", true);
/// keys.note(1, "SPAN", false);
/// assert!(keys.persistent(0));
/// assert!(!keys.persistent(1), "the tag changed");
/// ```
#[derive(Debug)]
pub struct Keys<T> {
    seen: Vec<Seen<T>>,
}

impl<T> Default for Keys<T> {
    fn default() -> Self {
        Keys { seen: Vec::new() }
    }
}

#[derive(Debug)]
struct Seen<T> {
    old: u32,
    new: u32,
    old_tag: Option<T>,
    same_tag: bool,
}

impl<T: PartialEq> Keys<T> {
    /// Records an element carrying key number `id` with tag `tag`, in the
    /// old tree (`old`) or the new. Note the old tree first.
    pub fn note(&mut self, id: u32, tag: T, old: bool) {
        let at = id as usize;
        while self.seen.len() <= at {
            self.seen.push(Seen {
                old: 0,
                new: 0,
                old_tag: None,
                same_tag: false,
            });
        }
        if let Some(seen) = self.seen.get_mut(at) {
            if old {
                seen.old += 1;
                seen.old_tag = Some(tag);
            } else {
                seen.new += 1;
                seen.same_tag = seen.old_tag.as_ref() == Some(&tag);
            }
        }
    }

    /// Whether the key numbered `id` is on exactly one element in each tree,
    /// with the same tag.
    pub fn persistent(&self, id: u32) -> bool {
        self.seen
            .get(id as usize)
            .is_some_and(|s| s.old == 1 && s.new == 1 && s.same_tag)
    }

    /// How many key numbers were noted (one more than the highest).
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether no key was noted.
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
        self.0.retain(|&x| x != id);
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
    fn duplicated_keys_do_not_persist() {
        let mut keys = Keys::default();
        keys.note(0, "DIV", true);
        keys.note(0, "DIV", true);
        keys.note(0, "DIV", false);
        keys.note(1, "DIV", true);
        keys.note(1, "DIV", false);
        keys.note(1, "DIV", false);
        assert!(!keys.persistent(0));
        assert!(!keys.persistent(1));
    }

    #[test]
    fn keys_on_one_side_only_do_not_persist() {
        let mut keys = Keys::default();
        keys.note(0, "DIV", true);
        keys.note(3, "DIV", false);
        assert!(!keys.persistent(0));
        assert!(!keys.persistent(3));
        assert!(!keys.persistent(2), "numbers skipped are not keys");
        assert!(!keys.persistent(99));
        assert_eq!(keys.len(), 4);
        assert!(!keys.is_empty());
        assert!(Keys::<&str>::default().is_empty());
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
