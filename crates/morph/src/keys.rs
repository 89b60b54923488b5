//! Keys and id sets: how the morph knows which old node a new one should be.
//!
//! A key is an element's `id`, else its `data-section-id`, else its
//! `data-component-id` (each kind numbered apart, so `id="a"` and
//! `data-section-id="a"` never match). A key is *persistent* when exactly one
//! element carries it in the old tree and exactly one in the new, with the same
//! tag: only those nodes are moved rather than recreated. An element's *id
//! set* is the persistent keys of itself and its descendants; two elements
//! whose id sets intersect are the same part of the page. The sets are never
//! listed: each is a range of ranks ([`Ranks`]).

use alloc::vec::Vec;
use core::ops::Range;

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

/// The persistent keys not yet claimed, by rank, answering for a range of
/// old ranks the least new rank among them: whether an old element still
/// holds a key, and (see the crate docs) whether it shares one with a new
/// element, without listing each element's keys (that costs keys × depth).
///
/// The persistent keyed elements of a tree, in document order, are ranked
/// 0, 1, ...; the keys at and below an element are then the ranks of one
/// range, a subtree being a stretch of document order. This holds, by old
/// rank, the new rank of each key until the key is claimed, in a segment
/// tree of minima (leaves from `n`, node `i` the least of `2i` and `2i + 1`):
/// O(log n) to set, claim or ask.
///
/// ```
/// use morph::keys::Ranks;
/// // The keys of old ranks 0, 1, 2 have new ranks 2, 0, 1.
/// let mut ranks = Ranks::new(3);
/// for (old, new) in [(0, 2), (1, 0), (2, 1)] {
///     ranks.set(old, new);
/// }
/// assert_eq!(ranks.least(0..2), 0);
/// ranks.set(1, u32::MAX);
/// assert_eq!(ranks.least(0..2), 2);
/// ranks.set(0, u32::MAX);
/// assert_eq!(ranks.least(0..2), u32::MAX, "all claimed");
/// ```
#[derive(Debug, Default)]
pub struct Ranks(Vec<u32>);

impl Ranks {
    /// `n` old ranks, none holding a key yet.
    pub fn new(n: usize) -> Ranks {
        Ranks(alloc::vec![u32::MAX; 2 * n])
    }

    /// Gives the key of old rank `rank` the new rank `new` (`u32::MAX`:
    /// claimed, it counts no more).
    pub fn set(&mut self, rank: u32, new: u32) {
        let mut node = self.0.len() / 2 + rank as usize;
        if let Some(leaf) = self.0.get_mut(node) {
            *leaf = new;
        }
        while node > 1 {
            node /= 2;
            let least = self.at(2 * node).min(self.at(2 * node + 1));
            if let Some(slot) = self.0.get_mut(node) {
                *slot = least;
            }
        }
    }

    /// The least new rank of the unclaimed keys of the old ranks in
    /// `ranks` (`u32::MAX` if none).
    pub fn least(&self, ranks: Range<u32>) -> u32 {
        let n = self.0.len() / 2;
        let (mut from, mut to) = (n + ranks.start as usize, n + ranks.end as usize);
        let mut least = u32::MAX;
        while from < to {
            if from & 1 == 1 {
                least = least.min(self.at(from));
                from += 1;
            }
            if to & 1 == 1 {
                to -= 1;
                least = least.min(self.at(to));
            }
            from /= 2;
            to /= 2;
        }
        least
    }

    fn at(&self, node: usize) -> u32 {
        self.0.get(node).copied().unwrap_or(u32::MAX)
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

    /// Every range of a few rankings, claims among the questions, against
    /// a direct minimum.
    #[test]
    fn ranks_answer_as_a_direct_minimum() {
        let mut seed = 7u32;
        let mut next = |m: u32| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) % m.max(1)
        };
        for n in [0u32, 1, 2, 3, 5, 8, 13, 33] {
            let mut new_ranks: Vec<u32> = (0..n).collect();
            for i in 0..n as usize {
                let j = next(n) as usize;
                new_ranks.swap(i, j);
            }
            let mut ranks = Ranks::new(n as usize);
            for (old, &new) in (0..).zip(&new_ranks) {
                ranks.set(old, new);
            }
            let mut left: Vec<Option<u32>> = new_ranks.iter().copied().map(Some).collect();
            for _ in 0..300 {
                let (a, b) = (next(n + 1), next(n + 1));
                let range = a.min(b)..a.max(b);
                let direct = left[range.start as usize..range.end as usize]
                    .iter()
                    .flatten()
                    .min()
                    .copied()
                    .unwrap_or(u32::MAX);
                assert_eq!(
                    ranks.least(range.clone()),
                    direct,
                    "{new_ranks:?} {range:?}"
                );
                if n > 0 && next(3) == 0 {
                    let r = next(n);
                    left[r as usize] = None;
                    ranks.set(r, u32::MAX);
                }
            }
        }
    }
}
