//! Maps and sets for the Studio parts, with as little code per type as
//! their sizes allow.
//!
//! In WebAssembly every `BTreeMap<K, V>` type is a copy of the B-tree's node
//! code (insert with its splits, remove with its merges and steals, the
//! drop): about 4 KB a type, and Studio had ten. So:
//!
//! - [`ByName`] and [`Names`], a map and a set keyed by strings, for what the
//!   input's size does not bound (an A2UI stream's components, a document's
//!   ids): every one is the one B-tree type [`Index`],
//!   `BTreeMap<String, usize>`, whose code is compiled once (and which maps
//!   a name to a position directly); a `ByName`'s values sit in a list that
//!   it indexes. Inserts and removals stay O(log n) in any order.
//! - [`Map`] and [`Set`], sorted lists ([`litemap::LiteMap`], ICU4X's map
//!   over one `Vec`), for what a bound keeps small (the components one
//!   A2UI conversion may give): a lookup is a binary search,
//!   an insert or a removal moves the entries after it, so they are for
//!   hundreds of entries, not for input of any size.
//!
//! Both iterate in key order, and a set's `insert` says whether the item is
//! new, as `BTreeSet`'s does.
//!
//! ```
//! use surfaces_core::sorted::{ByName, Map, Names, Set};
//!
//! let mut seen = Names::default();
//! assert!(seen.insert("hero".to_string()));
//! assert!(!seen.insert("hero".to_string()));
//! seen.extend(["faq".to_string(), "cta".to_string()]);
//! assert_eq!(seen.iter().map(String::as_str).collect::<Vec<_>>(), ["cta", "faq", "hero"]);
//!
//! let mut sizes: ByName<usize> = ByName::default();
//! *sizes.get_or_insert_with("hero".to_string(), || 0) += 2;
//! assert_eq!(sizes.get("hero"), Some(&2));
//!
//! let mut small: Map<(u8, u8), &str> = Map::new_vec();
//! small.insert((1, 2), "a");
//! let pairs: Set<(u8, u8)> = [(2, 1), (1, 2)].into_iter().collect();
//! assert_eq!(pairs.iter().next(), Some(&(1, 2)));
//! ```

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::borrow::Borrow;

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
}

impl<T> Set<T> {
    /// How many items the set holds.
    pub fn len(&self) -> usize {
        self.0.len()
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

impl<'a, T> IntoIterator for &'a Set<T> {
    type Item = &'a T;
    type IntoIter = core::iter::Map<core::slice::Iter<'a, (T, ())>, fn(&'a (T, ())) -> &'a T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.as_slice().iter().map(|(item, ())| item)
    }
}

/// The one B-tree type: a map from names to positions (where something is
/// in a list), and what [`ByName`] and [`Names`] are made of.
pub type Index = BTreeMap<String, usize>;

/// A map from strings to `V`, in key order, over the one B-tree type
/// `BTreeMap<String, usize>`: the key's entry holds where its value is in a
/// list (see the module's docs).
#[derive(Clone, Debug)]
pub struct ByName<V> {
    index: Index,
    slots: Vec<Option<V>>,
    /// Slots a removal emptied, used again first.
    free: Vec<usize>,
}

impl<V> Default for ByName<V> {
    fn default() -> Self {
        ByName {
            index: BTreeMap::new(),
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<V> ByName<V> {
    /// How many entries the map holds.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether the map holds nothing.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Whether `name` has a value.
    pub fn contains_key(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.slots[*self.index.get(name)?].as_ref()
    }

    /// The key as stored and the value of `name`.
    pub fn get_key_value(&self, name: &str) -> Option<(&String, &V)> {
        let (key, &at) = self.index.get_key_value(name)?;
        Some((key, self.slots[at].as_ref()?))
    }

    /// The value of `name`, to change.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut V> {
        self.slots[*self.index.get(name)?].as_mut()
    }

    /// Sets the value of `name`; the value it had.
    pub fn insert(&mut self, name: String, value: V) -> Option<V> {
        match self.index.get(name.as_str()) {
            Some(&at) => self.slots[at].replace(value),
            None => {
                let at = self.add(name);
                self.slots[at] = Some(value);
                None
            }
        }
    }

    /// The value of `name`, made by `make` when it has none.
    pub fn get_or_insert_with(&mut self, name: String, make: impl FnOnce() -> V) -> &mut V {
        match self.index.get(name.as_str()) {
            Some(&at) => self.slots[at].get_or_insert_with(make),
            None => {
                let at = self.add(name);
                self.slots[at].insert(make())
            }
        }
    }

    /// Takes `name` out; the value it had.
    pub fn remove(&mut self, name: &str) -> Option<V> {
        let at = self.index.remove(name)?;
        self.free.push(at);
        self.slots[at].take()
    }

    /// Takes every entry out.
    pub fn clear(&mut self) {
        self.index.clear();
        self.slots.clear();
        self.free.clear();
    }

    /// The entries, in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &V)> {
        let slots = &self.slots;
        self.index
            .iter()
            .filter_map(move |(key, &at)| Some((key, slots[at].as_ref()?)))
    }

    /// An empty slot (one a removal freed, else a new one) indexed under
    /// `name`, which has none, for its value.
    fn add(&mut self, name: String) -> usize {
        let at = self.free.pop().unwrap_or_else(|| {
            self.slots.push(None);
            self.slots.len() - 1
        });
        self.index.insert(name, at);
        at
    }
}

impl<V: PartialEq> PartialEq for ByName<V> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// A set of strings, in order, over the one B-tree type
/// `BTreeMap<String, usize>` (see the module's docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names(Index);

impl Names {
    /// Adds `name`; whether it was not in the set.
    pub fn insert(&mut self, name: String) -> bool {
        self.0.insert(name, 0).is_none()
    }

    /// Whether `name` is in the set.
    pub fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// Takes `name` out; whether it was in the set.
    pub fn remove(&mut self, name: &str) -> bool {
        self.0.remove(name).is_some()
    }

    /// Takes every name out.
    pub fn clear(&mut self) {
        self.0.clear()
    }

    /// How many names the set holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &String> + Clone {
        self.0.keys()
    }

    /// The names of this set not in `other`, in order.
    pub fn difference<'a>(&'a self, other: &'a Names) -> impl Iterator<Item = &'a String> {
        self.iter().filter(|name| !other.contains(name))
    }
}

impl Extend<String> for Names {
    fn extend<I: IntoIterator<Item = String>>(&mut self, names: I) {
        for name in names {
            self.insert(name);
        }
    }
}

impl FromIterator<String> for Names {
    fn from_iter<I: IntoIterator<Item = String>>(names: I) -> Self {
        let mut set = Names::default();
        set.extend(names);
        set
    }
}

impl IntoIterator for Names {
    type Item = String;
    type IntoIter = alloc::collections::btree_map::IntoKeys<String, usize>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_keys()
    }
}

impl<'a> IntoIterator for &'a Names {
    type Item = &'a String;
    type IntoIter = alloc::collections::btree_map::Keys<'a, String, usize>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.keys()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::{ByName, Map, Names, Set};
    use std::collections::{BTreeMap, BTreeSet};
    use std::string::ToString;

    /// A xorshift sequence from `seed`: the same random operations each run.
    fn xorshift(mut seed: u32) -> impl FnMut() -> u32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        }
    }

    /// Random inserts, removals and lookups give `BTreeSet`'s and
    /// `BTreeMap`'s answers, and iterate in their order.
    #[test]
    fn answers_as_the_b_tree_does() {
        let mut next = xorshift(0x9e37_79b9_u32);
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
        assert_eq!(set.is_empty(), theirs.is_empty());
    }

    /// The same for the string-keyed [`ByName`] and [`Names`], whose values
    /// sit in a list of slots used again after removals.
    #[test]
    fn by_name_answers_as_the_b_tree_does() {
        let mut next = xorshift(0x2545_f491_u32);
        let (mut names, mut theirs) = (Names::default(), BTreeSet::new());
        let (mut map, mut their_map) = (ByName::default(), BTreeMap::new());
        for step in 0..5_000u32 {
            let (op, key) = (next() % 5, (next() % 300).to_string());
            match op {
                0 | 1 => {
                    assert_eq!(names.insert(key.clone()), theirs.insert(key.clone()));
                    assert_eq!(map.insert(key.clone(), step), their_map.insert(key, step));
                }
                2 => {
                    assert_eq!(names.remove(&key), theirs.remove(&key));
                    assert_eq!(map.remove(&key), their_map.remove(&key));
                }
                3 => {
                    *map.get_or_insert_with(key.clone(), || step) += 1;
                    *their_map.entry(key).or_insert(step) += 1;
                }
                _ => {
                    assert_eq!(names.contains(&key), theirs.contains(&key));
                    assert_eq!(map.get(&key), their_map.get(&key));
                    assert_eq!(map.get_key_value(&key), their_map.get_key_value(&key));
                }
            }
            assert_eq!((names.len(), map.len()), (theirs.len(), their_map.len()));
        }
        assert!(names.iter().eq(theirs.iter()));
        assert!(map.iter().eq(their_map.iter()));
        // Slots are used again: never more than the most entries held at once.
        assert!(map.slots.len() <= 300);
        let odd: Names = (0..300)
            .filter(|k| k % 2 == 1)
            .map(|k| k.to_string())
            .collect();
        assert!(names
            .difference(&odd)
            .all(|k| k.parse::<u32>().unwrap() % 2 == 0));
        assert!(names.clone().into_iter().eq(theirs.into_iter()));
        map.clear();
        assert!(map.is_empty() && map.get("1").is_none());
    }
}
