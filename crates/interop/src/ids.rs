//! Ids made to match our rule (`^[a-z][a-z0-9-]{0,40}$`), distinct within
//! a surface: lower case, other characters as `-`, a `c-` before a first
//! character that is no letter, a `-2`, `-3`... before the suffix of a
//! name already taken.

use surfaces_core::fence::is_component_id;
use surfaces_core::sorted;

/// Our ids for another format's: each matching `^[a-z][a-z0-9-]{0,40}$`, distinct.
#[derive(Debug, Clone, Default)]
pub struct Ids {
    /// By [`key`], where in `ids` the id given is (the module's one B-tree
    /// type: each type of map is its own code).
    given: sorted::Index,
    ids: Vec<String>,
    taken: sorted::Names,
}

/// The key of `raw`'s copy `copy`: one string, `raw`'s length first, so
/// that no two pairs make the same.
fn key(raw: &str, copy: &str) -> String {
    [&raw.len().to_string(), ":", raw, copy].concat()
}

impl Ids {
    /// Gives `raw` the id `id` (a root named otherwise is `root`).
    pub fn assign(&mut self, raw: &str, id: &str) {
        self.taken.insert(id.to_string());
        self.given.insert(key(raw, ""), self.ids.len());
        self.ids.push(id.to_string());
    }

    pub fn original(&mut self, raw: &str) -> String {
        self.get(raw, "", "")
    }

    /// The id of `raw`'s copy `copy`, ending with `suffix` (`""` for `raw`
    /// itself).
    pub fn get(&mut self, raw: &str, copy: &str, suffix: &str) -> String {
        let key = key(raw, copy);
        if let Some(id) = self.given.get(&key).and_then(|&i| self.ids.get(i)) {
            return id.clone();
        }
        let mut base: String = raw
            .chars()
            .map(|c| match c.to_ascii_lowercase() {
                c @ ('a'..='z' | '0'..='9') => c,
                _ => '-',
            })
            .collect();
        if !base.starts_with(|c: char| c.is_ascii_lowercase()) {
            base.insert_str(0, "c-");
        }
        // A copy's suffix too long for an id is its number instead.
        let number;
        let suffix = if suffix.len() > 24 {
            number = ["-", &self.given.len().to_string()].concat();
            number.as_str()
        } else {
            suffix
        };
        let mut id = String::new();
        for n in 1usize.. {
            let tag = if n == 1 {
                String::new()
            } else {
                ["-", &n.to_string()].concat()
            };
            let mut head = base.clone();
            head.truncate(41 - suffix.len() - tag.len());
            id = [head.as_str(), &tag, suffix].concat();
            if !self.taken.contains(&id) && is_component_id(&id) {
                break;
            }
        }
        self.taken.insert(id.clone());
        self.given.insert(key, self.ids.len());
        self.ids.push(id.clone());
        id
    }
}

#[cfg(test)]
mod tests {
    use super::Ids;

    #[test]
    fn each_name_and_copy_keeps_its_own_id() {
        let mut ids = Ids::default();
        ids.assign("Main", "root");
        let item = ids.get("ab", "c", "-c");
        // The same characters split otherwise are another pair.
        let other = ids.get("a", "bc", "-c");
        assert_ne!(item, other);
        assert_eq!(ids.get("ab", "c", "-c"), item);
        assert_eq!(ids.original("Main"), "root");
        assert_eq!(ids.original("Hero Image"), "hero-image");
        assert_eq!(ids.original("hero image"), "hero-image-2");
    }
}
