//! Layout components (SPEC.md section 2): the containers that arrange their
//! children (`Stack`, `Row`, `Grid`, `Columns`, `Band`, `Card`) and the
//! space between them (`Spacer`, `Divider`).

use crate::markup::{end, open};
use crate::{Node, Renderer};
use serde_json::Value;

impl Renderer<'_> {
    /// Writes `node` when it is a layout component; `false` when it is not.
    pub(crate) fn layout(&self, out: &mut String, node: &Node) -> bool {
        let (name, props) = (node.name, node.props);
        match name {
            "Stack" | "Row" | "Grid" | "Columns" | "Band" => self.container(out, node, None),
            "Card" => {
                open(out, "section").class(name, props, &["tone"]).close();
                self.text_element(out, "h3", None, node.prop("title"));
                self.children(out, node.value, node.depth);
                end(out, "section");
            }
            "Spacer" => {
                open(out, "div")
                    .class(name, props, &["size"])
                    .attr("aria-hidden", "true")
                    .close();
                end(out, "div");
            }
            "Divider" => out.push_str("<hr class=\"ch-divider\">\n"),
            _ => return false,
        }
        true
    }

    /// A `<div>` of `node`'s children, classed by the layout props it sets;
    /// with `region`, a labelled region (a `Carousel`).
    pub(crate) fn container(&self, out: &mut String, node: &Node, region: Option<&str>) {
        let modifiers = ["gap", "align", "justify", "ratio", "tone", "width"];
        let mut t = open(out, "div").class(node.name, node.props, &modifiers);
        if let Some(n) = node.prop("columns").and_then(Value::as_u64) {
            t = t.attr("data-columns", &n.to_string());
        }
        if let Some(label) = region {
            t = t.attr("role", "region").attr("aria-label", label);
        }
        t.close();
        out.push('\n');
        self.children(out, node.value, node.depth);
        end(out, "div");
    }
}
