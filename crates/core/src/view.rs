//! How the shared rules read JSON: a small read-only view over any value store.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// The kind of a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null` (also what a view reports for values JSON cannot hold, such as `undefined`).
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// A read-only view of one JSON value, implemented by every value store the
/// rules run over: `&serde_json::Value` (feature `serde_json`) in the
/// validator, JS-held values in the interaction runtime.
///
/// A view is a cheap handle (`Clone`): `get` and `index` return another
/// handle, borrowed or reference-counted.
pub trait JsonView: Sized + Clone {
    /// The kind of the value.
    fn kind(&self) -> Kind;
    /// The boolean, when the value is one.
    fn as_bool(&self) -> Option<bool>;
    /// The number, when the value is one.
    fn as_f64(&self) -> Option<f64>;
    /// The string, when the value is one.
    fn as_str(&self) -> Option<Cow<'_, str>>;
    /// Items of an array, entries of an object, else 0.
    fn len(&self) -> usize;
    /// Whether [`JsonView::len`] is 0.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The item at `i` of an array.
    fn index(&self, i: usize) -> Option<Self>;
    /// The member `key` of an object.
    fn get(&self, key: &str) -> Option<Self>;
    /// The keys of an object, in the store's order (empty for other kinds).
    fn keys(&self) -> Vec<String>;
}

#[cfg(feature = "serde_json")]
impl JsonView for &serde_json::Value {
    fn kind(&self) -> Kind {
        use serde_json::Value;
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }
    fn as_bool(&self) -> Option<bool> {
        serde_json::Value::as_bool(self)
    }
    fn as_f64(&self) -> Option<f64> {
        serde_json::Value::as_f64(self)
    }
    fn as_str(&self) -> Option<Cow<'_, str>> {
        serde_json::Value::as_str(self).map(Cow::Borrowed)
    }
    fn len(&self) -> usize {
        match self {
            serde_json::Value::Array(items) => items.len(),
            serde_json::Value::Object(map) => map.len(),
            _ => 0,
        }
    }
    fn index(&self, i: usize) -> Option<Self> {
        self.as_array().and_then(|items| items.get(i))
    }
    fn get(&self, key: &str) -> Option<Self> {
        // Bindings, calls and conditions are tiny objects: a scan beats
        // hashing the key.
        match self.as_object()? {
            map if map.len() <= 8 => map.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v),
            map => map.get(key),
        }
    }
    fn keys(&self) -> Vec<String> {
        match self {
            serde_json::Value::Object(map) => map.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }
}

/// JSON equality (RFC 8259 semantics, numbers by value so `1 == 1.0`),
/// without recursion: arbitrarily deep values cannot overflow the stack.
pub fn json_equal<V: JsonView>(a: &V, b: &V) -> bool {
    let mut pending: Vec<(V, V)> = Vec::new();
    pending.push((a.clone(), b.clone()));
    while let Some((x, y)) = pending.pop() {
        if x.kind() != y.kind() {
            return false;
        }
        match x.kind() {
            Kind::Null => {}
            Kind::Bool => {
                if x.as_bool() != y.as_bool() {
                    return false;
                }
            }
            Kind::Number => {
                if x.as_f64() != y.as_f64() {
                    return false;
                }
            }
            Kind::String => {
                if x.as_str() != y.as_str() {
                    return false;
                }
            }
            Kind::Array => {
                if x.len() != y.len() {
                    return false;
                }
                for i in 0..x.len() {
                    match (x.index(i), y.index(i)) {
                        (Some(p), Some(q)) => pending.push((p, q)),
                        _ => return false,
                    }
                }
            }
            Kind::Object => {
                if x.len() != y.len() {
                    return false;
                }
                // Borrowed, not consumed: a consuming loop adds drop code to the wasm.
                for key in &x.keys() {
                    match (x.get(key), y.get(key)) {
                        (Some(p), Some(q)) => pending.push((p, q)),
                        _ => return false,
                    }
                }
            }
        }
    }
    true
}

/// JavaScript truthiness of a JSON value: `null`, `false`, `0`, `NaN` and
/// `""` are false; everything else, empty arrays and objects included, is true.
pub fn truthy<V: JsonView>(value: &V) -> bool {
    match value.kind() {
        Kind::Null => false,
        Kind::Bool => value.as_bool().unwrap_or(false),
        Kind::Number => value.as_f64().is_some_and(|n| n != 0.0 && !n.is_nan()),
        Kind::String => value.as_str().is_some_and(|s| !s.is_empty()),
        Kind::Array | Kind::Object => true,
    }
}

#[cfg(all(test, feature = "serde_json"))]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equality_treats_integer_and_float_alike() {
        assert!(json_equal(&&json!(1), &&json!(1.0)));
        assert!(json_equal(
            &&json!({"a": [1, "x", null]}),
            &&json!({"a": [1.0, "x", null]})
        ));
        assert!(!json_equal(&&json!({"a": 1}), &&json!({"b": 1})));
        assert!(!json_equal(&&json!([1, 2]), &&json!([1])));
        assert!(!json_equal(&&json!("1"), &&json!(1)));
        assert!(!json_equal(&&json!(true), &&json!(false)));
    }

    #[test]
    fn truthiness_follows_javascript() {
        for v in [json!(null), json!(false), json!(0), json!(""), json!(0.0)] {
            assert!(!truthy(&&v), "{v}");
        }
        for v in [json!(true), json!(1), json!("0"), json!([]), json!({})] {
            assert!(truthy(&&v), "{v}");
        }
    }
}
