//! A surface's state as the runtime holds it: a small JSON tree owned by Rust.
//!
//! The browser parses (`JSON.parse`) and the loader walks the result into a
//! [`Builder`]; Rust never parses or prints a float. Reads go through
//! [`surfaces_core`]'s rules via the [`JsonView`] implementation; writes are
//! the runtime's own (the validator never writes state).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use surfaces_core::pointer;
use surfaces_core::{JsonView, Kind};

/// One JSON value.
#[derive(Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (JSON numbers are doubles in the browser).
    Num(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Value>),
    /// An object, members in source order (keys are unique: `JSON.parse` keeps the last).
    Obj(Vec<(String, Value)>),
}

// Written out rather than derived: pushing into empty vectors reuses the
// builder's code, where the derived clone adds its own copy loops to the wasm.
impl Clone for Value {
    fn clone(&self) -> Value {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(*b),
            Value::Num(n) => Value::Num(*n),
            Value::Str(s) => Value::Str(s.clone()),
            Value::Arr(items) => {
                let mut out = Vec::new();
                items.iter().for_each(|v| out.push(v.clone()));
                Value::Arr(out)
            }
            Value::Obj(members) => {
                let mut out = Vec::new();
                members
                    .iter()
                    .for_each(|(k, v)| out.push((k.clone(), v.clone())));
                Value::Obj(out)
            }
        }
    }
}

/// The `null` a missing path reads as.
pub static NULL: Value = Value::Null;

impl Value {
    /// The member `key` of an object.
    pub fn member(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Obj(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, when the value is one.
    pub fn str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The number, when the value is one.
    pub fn num(&self) -> Option<f64> {
        match self {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// The value at `path` (a JSON Pointer, resolved by the shared rule), or
    /// `null` when the path is missing, invalid or unsafe.
    pub fn at(&self, path: &str) -> &Value {
        pointer::resolve(&self, path).unwrap_or(&NULL)
    }

    /// Writes `value` at `path`; `false` (and `self` untouched) when the path
    /// is invalid or unsafe, or its parent does not exist. An object member is
    /// added or replaced; an array item replaced, or appended at the index
    /// equal to the length or at `-`. The empty path replaces the whole state.
    pub fn set(&mut self, path: &str, value: Value) -> bool {
        match self.slot(path, true) {
            Some(slot) => {
                *slot = value;
                true
            }
            None => false,
        }
    }

    /// The place `path` names, creating the last segment when `create`.
    fn slot(&mut self, path: &str, create: bool) -> Option<&mut Value> {
        let segments = pointer::parse(path).ok()?;
        let mut at = self;
        let count = segments.len();
        for (i, segment) in segments.iter().enumerate() {
            at = at.child(segment, create && i + 1 == count)?;
        }
        Some(at)
    }

    fn child(&mut self, segment: &str, create: bool) -> Option<&mut Value> {
        match self {
            Value::Obj(members) => {
                let found = members.iter().position(|(k, _)| k == segment);
                match found {
                    Some(i) => members.get_mut(i).map(|(_, v)| v),
                    None if create => {
                        members.push((String::from(segment), Value::Null));
                        members.last_mut().map(|(_, v)| v)
                    }
                    None => None,
                }
            }
            Value::Arr(items) => {
                let len = items.len();
                let i = if segment == "-" {
                    len
                } else {
                    pointer::array_index(segment)?
                };
                if i == len && create {
                    items.push(Value::Null);
                }
                items.get_mut(i)
            }
            _ => None,
        }
    }
}

impl JsonView for &Value {
    fn kind(&self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Num(_) => Kind::Number,
            Value::Str(_) => Kind::String,
            Value::Arr(_) => Kind::Array,
            Value::Obj(_) => Kind::Object,
        }
    }
    fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn as_f64(&self) -> Option<f64> {
        self.num()
    }
    fn as_str(&self) -> Option<Cow<'_, str>> {
        self.str().map(Cow::Borrowed)
    }
    fn len(&self) -> usize {
        match self {
            Value::Arr(items) => items.len(),
            Value::Obj(members) => members.len(),
            _ => 0,
        }
    }
    fn index(&self, i: usize) -> Option<Self> {
        match self {
            Value::Arr(items) => items.get(i),
            _ => None,
        }
    }
    fn get(&self, key: &str) -> Option<Self> {
        self.member(key)
    }
    fn keys(&self) -> Vec<String> {
        match self {
            Value::Obj(members) => {
                let mut keys = Vec::new();
                members.iter().for_each(|(k, _)| keys.push(k.clone()));
                keys
            }
            _ => Vec::new(),
        }
    }
}

/// Assembles a [`Value`] from a depth-first walk (the loader's walk over a
/// `JSON.parse` result): scalars, `open_*`/`close` around containers, and a
/// `key` before each object member.
#[derive(Default)]
pub struct Builder {
    /// Open containers, each with the key it will be stored under (the
    /// same type as an object's members, so the wasm shares their code;
    /// the key of an array item is empty and unused).
    stack: Vec<(String, Value)>,
    key: String,
    done: Option<Value>,
}

impl Builder {
    /// An empty builder (`const`, so the wasm edge can keep one in a static).
    pub const fn new() -> Builder {
        Builder {
            stack: Vec::new(),
            key: String::new(),
            done: None,
        }
    }

    /// Adds a scalar, or a whole value.
    pub fn value(&mut self, value: Value) {
        let key = core::mem::take(&mut self.key);
        match self.stack.last_mut() {
            Some((_, Value::Arr(items))) => items.push(value),
            Some((_, Value::Obj(members))) => members.push((key, value)),
            _ => self.done = Some(value),
        }
    }

    /// Names the next member of the open object.
    pub fn key(&mut self, key: String) {
        self.key = key;
    }

    /// Opens an array (`object == false`) or an object.
    pub fn open(&mut self, object: bool) {
        let key = core::mem::take(&mut self.key);
        self.stack.push((
            key,
            if object {
                Value::Obj(Vec::new())
            } else {
                Value::Arr(Vec::new())
            },
        ));
    }

    /// Closes the innermost open container.
    pub fn close(&mut self) {
        if let Some((key, value)) = self.stack.pop() {
            self.key = key;
            self.value(value);
        }
    }

    /// The finished value, when the walk closed everything it opened.
    pub fn finish(&mut self) -> Option<Value> {
        let done = self.done.take();
        if self.stack.is_empty() {
            done
        } else {
            self.stack.clear();
            None
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use alloc::vec;

    pub fn s(text: &str) -> Value {
        Value::Str(String::from(text))
    }

    pub fn obj(members: &[(&str, Value)]) -> Value {
        Value::Obj(
            members
                .iter()
                .map(|(k, v)| (String::from(*k), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn builder_assembles_nested_values() {
        let mut b = Builder::default();
        b.open(true);
        b.key("a".into());
        b.open(false);
        b.value(Value::Num(1.5));
        b.value(Value::Null);
        b.close();
        b.key("b".into());
        b.value(s("x"));
        b.close();
        let v = b.finish().unwrap();
        assert_eq!(
            v,
            obj(&[
                ("a", Value::Arr(vec![Value::Num(1.5), Value::Null])),
                ("b", s("x"))
            ])
        );
    }

    #[test]
    fn clones_are_deep_and_equal() {
        let v = obj(&[
            ("a", Value::Arr(vec![Value::Num(1.5), Value::Null, s("x")])),
            ("b", obj(&[("c", Value::Bool(true))])),
        ]);
        let mut copy = v.clone();
        assert_eq!(copy, v);
        assert!(copy.set("/b/c", Value::Bool(false)));
        assert_eq!(v.at("/b/c"), &Value::Bool(true));
    }

    #[test]
    fn builder_refuses_an_unfinished_walk() {
        let mut b = Builder::default();
        b.open(true);
        assert_eq!(b.finish(), None);
        b.value(Value::Bool(true));
        assert_eq!(b.finish(), Some(Value::Bool(true)));
    }

    #[test]
    fn reads_resolve_through_the_shared_pointer_rule() {
        let v = obj(&[
            ("a", Value::Arr(vec![s("x"), s("y")])),
            ("a/b", Value::Num(2.0)),
        ]);
        assert_eq!(v.at("/a/1"), &s("y"));
        assert_eq!(v.at("/a~1b"), &Value::Num(2.0));
        assert_eq!(v.at("/missing"), &Value::Null);
        assert_eq!(v.at("/a/01"), &Value::Null);
        assert_eq!(v.at(""), &v);
    }

    #[test]
    fn writes_add_replace_and_append() {
        let mut v = obj(&[("a", Value::Arr(vec![Value::Num(1.0)]))]);
        assert!(v.set("/b", s("new")));
        assert!(v.set("/a/0", Value::Num(2.0)));
        assert!(v.set("/a/1", Value::Num(3.0)));
        assert!(v.set("/a/-", Value::Num(4.0)));
        assert_eq!(v.at("/b"), &s("new"));
        assert_eq!(
            v.at("/a"),
            &Value::Arr(vec![Value::Num(2.0), Value::Num(3.0), Value::Num(4.0)])
        );
    }

    #[test]
    fn writes_without_a_parent_leave_the_state_unchanged() {
        let mut v = obj(&[("a", Value::Num(1.0))]);
        let before = v.clone();
        assert!(!v.set("/x/y", Value::Null));
        assert!(!v.set("/a/b", Value::Null));
        assert!(!v.set("no-slash", Value::Null));
        assert_eq!(v, before);
    }

    #[test]
    fn prototype_paths_are_refused_for_reads_and_writes() {
        let mut v = obj(&[("__proto__", obj(&[("polluted", Value::Bool(true))]))]);
        let before = v.clone();
        for path in [
            "/__proto__",
            "/__proto__/polluted",
            "/constructor",
            "/x/prototype",
        ] {
            assert_eq!(v.at(path), &Value::Null, "{path}");
            assert!(!v.set(path, Value::Bool(true)), "{path}");
        }
        assert_eq!(v, before);
    }

    #[test]
    fn the_empty_path_replaces_the_whole_state() {
        let mut v = obj(&[]);
        assert!(v.set("", Value::Num(1.0)));
        assert_eq!(v, Value::Num(1.0));
    }
}
