//! The markup the interaction runtime reads (SPEC.md section 10): its
//! `data-ch-*` attribute names, each spelled here once for every family of
//! components, and the element writer they all use.
//!
//! A value that starts with `/` (or is empty) is a JSON Pointer; any other
//! is JSON (a binding, call, condition, action, or a list of them).

use crate::escape_into;
use serde_json::Value;

/// The surface's outer element, naming the surface.
pub(crate) const SURFACE: &str = "data-ch-surface";
/// The `<script type="application/json">` holding the surface's data.
pub(crate) const STATE: &str = "data-ch-state";
/// An element whose text a binding or call computes.
pub(crate) const TEXT: &str = "data-ch-text";
/// A `display:contents` wrapper, `hidden` while its condition fails.
pub(crate) const VISIBLE: &str = "data-ch-visible";
/// A form control writing its value to the data at this pointer.
pub(crate) const MODEL: &str = "data-ch-model";
/// A button running this action, or list of actions, when pressed.
pub(crate) const ACTION: &str = "data-ch-action";
/// The JSON literal a radio or option writes (SPEC.md section 10).
pub(crate) const VALUE: &str = "data-ch-value";
/// Attributes bound to state: `{"attribute": binding}`.
pub(crate) const ATTR: &str = "data-ch-attr";
/// A field's checks; their first failing message goes to the element its
/// `aria-describedby` names.
pub(crate) const CHECKS: &str = "data-ch-checks";
/// The element a field's failing check writes its message into.
pub(crate) const MESSAGE: &str = "data-ch-message";
/// In a preview (SPEC.md section 15): a section's outer element, naming it.
pub(crate) const SECTION_ID: &str = "data-section-id";
/// In a preview: a component's outer element, naming it.
pub(crate) const COMPONENT_ID: &str = "data-component-id";
/// In a preview: a placeholder for a flagged part, holding the code.
pub(crate) const PLACEHOLDER: &str = "data-ch-placeholder";
/// In a preview: an invalid prop's placeholder, naming the component it
/// follows (which carries `data-component-id`).
pub(crate) const PLACEHOLDER_OF: &str = "data-ch-placeholder-of";
/// In a preview: the operation being written.
pub(crate) const GHOST: &str = "data-ch-ghost";

/// An element being written: `<tag attr="..." ...>`.
pub(crate) struct Tag<'o> {
    out: &'o mut String,
}

impl Tag<'_> {
    /// ` name="value"`, the value escaped.
    pub(crate) fn attr(self, name: &str, value: &str) -> Self {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        escape_into(self.out, value);
        self.out.push('"');
        self
    }

    /// ` name` when `on`: a boolean attribute.
    pub(crate) fn flag(self, name: &str, on: bool) -> Self {
        if on {
            self.out.push(' ');
            self.out.push_str(name);
        }
        self
    }

    /// `class="ch-<base>"`, plus `ch-<prop>-<value>` for each of the
    /// `modifiers` (enum props) that `props` sets.
    pub(crate) fn class(self, base: &str, props: &Value, modifiers: &[&str]) -> Self {
        let mut class = String::from("ch-");
        class.push_str(&base.to_ascii_lowercase());
        for m in modifiers {
            if let Some(v) = props.get(*m).and_then(Value::as_str) {
                class.push_str(" ch-");
                class.push_str(&m.to_ascii_lowercase());
                class.push('-');
                class.push_str(v);
            }
        }
        self.attr("class", &class)
    }

    /// `>`: the start tag is done.
    pub(crate) fn close(self) {
        self.out.push('>');
    }
}

/// Starts `<tag`; attributes follow through the returned [`Tag`].
pub(crate) fn open<'o>(out: &'o mut String, tag: &str) -> Tag<'o> {
    out.push('<');
    out.push_str(tag);
    Tag { out }
}

/// `</tag>` and a line break.
pub(crate) fn end(out: &mut String, tag: &str) {
    out.push_str("</");
    out.push_str(tag);
    out.push_str(">\n");
}
