//! Maps and sets kept as sorted lists: the Studio parts' collections.
//!
//! In WebAssembly every `BTreeMap<K, V>` type is a copy of the B-tree's node
//! code (insert with its splits, remove with its merges and steals, the
//! drop): about 4 KB a type, and Studio had ten. A [`Map`] is
//! [`litemap::LiteMap`] (ICU4X's map over one sorted `Vec`): a lookup is a
//! binary search, an insert or a removal moves the entries after it. What
//! these maps hold is bounded by a surface (its ids, its components, its
//! definitions), where moving a few thousand entries costs less than the
//! B-tree's allocations, and an insert in key order only appends. A [`Set`] is
//! a `Map` of `()`, with `BTreeSet`'s answers: `insert` says whether the item
//! is new, iteration is in order.
//!
//! ```
//! use surfaces_core::sorted::{Map, Set};
//!
//! let mut seen: Set<String> = Set::default();
//! assert!(seen.insert("hero".to_string()));
//! assert!(!seen.insert("hero".to_string()));
//! seen.extend(["faq".to_string(), "cta".to_string()]);
//! assert_eq!(seen.iter().map(String::as_str).collect::<Vec<_>>(), ["cta", "faq", "hero"]);
//!
//! let mut sizes: Map<String, usize> = Map::new_vec();
//! *sizes.entry("hero".to_string()).or_default() += 2;
//! assert_eq!(sizes.get("hero"), Some(&2));
//! ```

use core::borrow::Borrow;

/// A [`Map`]'s entry for a key.
pub use litemap::Entry;
/// A map over one sorted list (see the module's docs).
pub use litemap::LiteMap as Map;

/// A set over one sorted list, with `BTreeSet`'s answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Set<T>(Map<T, ()>);

impl<T> Default for Set<T> {
    fn default() -> Self {
        Set(Map::new_vec())
    }
}

impl<T: Ord> Set<T> {
    /// Adds `item`; whether it was not in the set (an item already in it
    /// stays as it was).
    pub fn insert(&mut self, item: T) -> bool {
        self.0.try_insert(item, ()).is_none()
    }

    /// Whether `item` is in the set.
    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.0.contains_key(item)
    }

    /// Takes `item` out; whether it was in the set.
    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.0.remove(item).is_some()
    }

    /// The items of this set not in `other`, in order.
    pub fn difference<'a>(&'a self, other: &'a Set<T>) -> impl Iterator<Item = &'a T> {
        self.iter().filter(|item| !other.contains(*item))
    }
}

impl<T> Set<T> {
    /// How many items the set holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Takes every item out.
    pub fn clear(&mut self) {
        self.0.clear()
    }

    /// Whether the set holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The items, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + Clone {
        self.0.as_slice().iter().map(|(item, ())| item)
    }
}

impl<T: Ord> Extend<T> for Set<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.insert(item);
        }
    }
}

impl<T: Ord> FromIterator<T> for Set<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut set = Set::default();
        set.extend(items);
        set
    }
}

impl<T> IntoIterator for Set<T> {
    type Item = T;
    type IntoIter = core::iter::Map<alloc::vec::IntoIter<(T, ())>, fn((T, ())) -> T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_tuple_vec().into_iter().map(|(item, ())| item)
    }
}

impl<'a, T> IntoIterator for &'a Set<T> {
    type Item = &'a T;
    type IntoIter = core::iter::Map<core::slice::Iter<'a, (T, ())>, fn(&'a (T, ())) -> &'a T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.as_slice().iter().map(|(item, ())| item)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::{Map, Set};
    use std::collections::{BTreeMap, BTreeSet};
    use std::vec::Vec;

    /// Random inserts, removals and lookups give `BTreeSet`'s and
    /// `BTreeMap`'s answers, and iterate in their order.
    #[test]
    fn answers_as_the_b_tree_does() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let (mut set, mut theirs) = (Set::default(), BTreeSet::new());
        let (mut map, mut their_map) = (Map::new_vec(), BTreeMap::new());
        for _ in 0..5_000 {
            let (op, key) = (next() % 4, next() % 300);
            match op {
                0 | 1 => {
                    assert_eq!(set.insert(key), theirs.insert(key));
                    assert_eq!(map.insert(key, op), their_map.insert(key, op));
                }
                2 => {
                    assert_eq!(set.remove(&key), theirs.remove(&key));
                    assert_eq!(map.remove(&key), their_map.remove(&key));
                }
                _ => {
                    assert_eq!(set.contains(&key), theirs.contains(&key));
                    assert_eq!(map.get(&key), their_map.get(&key));
                }
            }
            assert_eq!(set.len(), theirs.len());
        }
        assert!(set.iter().eq(theirs.iter()));
        assert!(map.iter().eq(their_map.iter()));
        let evens: Set<u32> = (0..300).step_by(2).rev().collect();
        let odd_in_set: Vec<u32> = set.difference(&evens).copied().collect();
        assert!(odd_in_set.iter().all(|k| k % 2 == 1 && theirs.contains(k)));
        assert!(set.clone().into_iter().eq(theirs.into_iter()));
        set.clear();
        assert!(set.is_empty());
    }
}
