//! Interactive components (SPEC.md section 2), which work without
//! JavaScript and which the runtime brings to life: `Tabs` and `Toggle` as
//! radio groups, disclosures as native `<details>` (`Accordion`'s
//! `AccordionItem`s, `Disclosure`, and a `TabPanel` outside `Tabs`),
//! `Carousel` as a labelled region, and the form controls (`Select`,
//! `Slider`, `Counter`, `Form` and its fields `TextField`, `TextArea`,
//! `Checkbox`), each writing its value to state through `data-ch-model`.

use crate::markup::{end, open, Tag, ACTION, ATTR, CHECKS, MESSAGE, MODEL, VALUE};
use crate::{bound_attr, dynamic, escape_into, Node, Renderer};
use serde_json::Value;
use surfaces_core::truthy;

impl Renderer<'_> {
    /// Writes `node` when it is an interactive component; `false` when it is
    /// not.
    pub(crate) fn interactive(&self, out: &mut String, node: &Node) -> bool {
        let (name, props) = (node.name, node.props);
        let p = |key: &str| node.prop(key);
        let str_prop = |key: &str| node.str_prop(key);
        match name {
            "Carousel" => {
                self.container(out, node, Some(str_prop("label").unwrap_or_default()));
            }
            "Tabs" => self.tabs(out, node, &self.element_id(node, "")),
            "Accordion" => {
                open(out, "div").class(name, props, &[]).close();
                self.children(out, node.value, node.depth);
                end(out, "div");
            }
            "AccordionItem" | "Disclosure" | "TabPanel" => {
                let open_now = p("open").map(|v| truthy(&&self.value(v))).unwrap_or(false);
                let mut t = open(out, "details").class(name, props, &[]);
                // Bound to state: the runtime opens and closes it (section 10).
                if let Some(bound) = p("open").filter(|v| dynamic(v)) {
                    t = t.attr(ATTR, &bound_attr("open", bound));
                }
                t.flag("open", open_now).close();
                self.text_element(
                    out,
                    "summary",
                    None,
                    p("title").or(p("summary")).or(p("label")),
                );
                self.children(out, node.value, node.depth);
                end(out, "details");
            }
            "Toggle" => {
                open(out, "fieldset").class(name, props, &[]).close();
                self.text_element(out, "legend", None, p("label"));
                let current = p("value").map(|v| self.value(v));
                for (i, option) in self.list(p("options")).iter().enumerate() {
                    let text = self.text(option);
                    let checked = current.as_ref().map_or(i == 0, |c| c == option);
                    out.push_str("<label>");
                    let mut t = open(out, "input")
                        .attr("type", "radio")
                        .attr("name", &self.element_id(node, ""))
                        .attr("value", &text);
                    if let Some(path) = p("value").and_then(model_path) {
                        t = t.attr(MODEL, path);
                    }
                    t.flag("checked", checked).close();
                    out.push(' ');
                    escape_into(out, &text);
                    out.push_str("</label>\n");
                }
                end(out, "fieldset");
            }
            "Select" => {
                out.push_str("<label class=\"ch-select\">");
                escape_into(out, str_prop("label").unwrap_or_default());
                let mut t = open(out, "select");
                if let Some(path) = p("value").and_then(model_path) {
                    t = t.attr(MODEL, path);
                }
                t.close();
                let current = p("value").map(|v| self.value(v));
                // The placeholder stands for no choice, null (so the runtime
                // shows it where the renderer did, for a value null or missing).
                if let Some(placeholder) = str_prop("placeholder") {
                    open(out, "option")
                        .attr("value", "")
                        .attr(VALUE, "null")
                        .flag("disabled", true)
                        .flag("selected", current.as_ref().is_none_or(Value::is_null))
                        .close();
                    escape_into(out, placeholder);
                    out.push_str("</option>");
                }
                for option in self.list(p("options")) {
                    let text = self.text(&option);
                    open(out, "option")
                        .attr("value", &text)
                        .flag("selected", current.as_ref() == Some(&option))
                        .close();
                    escape_into(out, &text);
                    out.push_str("</option>");
                }
                out.push_str("</select></label>\n");
            }
            "Slider" => {
                out.push_str("<label class=\"ch-slider\">");
                escape_into(out, str_prop("label").unwrap_or_default());
                let mut t = open(out, "input").attr("type", "range");
                for k in ["min", "max", "step"] {
                    if let Some(n) = p(k).filter(|v| v.is_number()) {
                        t = t.attr(k, &self.text(n));
                    }
                }
                let value = p("value");
                if let Some(v) = value {
                    t = t.attr("value", &self.text(v));
                }
                if let Some(path) = value.and_then(model_path) {
                    t = t.attr(MODEL, path);
                }
                t.close();
                if let Some(v) = value {
                    self.text_element(out, "output", None, Some(v));
                }
                out.push_str("</label>\n");
            }
            "Counter" => {
                open(out, "div")
                    .class(name, props, &[])
                    .attr("role", "group")
                    .attr("aria-label", str_prop("label").unwrap_or_default())
                    .close();
                self.text_element(out, "span", Some("ch-counter-label"), p("label"));
                if let Some(path) = p("value").and_then(model_path) {
                    let step = p("step").and_then(Value::as_f64).unwrap_or(1.0);
                    for (label, by) in [("−", -step), ("+", step)] {
                        let mut action =
                            serde_json::json!({"action": "increment", "path": path, "by": by});
                        for k in ["min", "max"] {
                            if let Some(n) = p(k).filter(|v| v.is_number()) {
                                action[k] = n.clone();
                            }
                        }
                        open(out, "button")
                            .attr("type", "button")
                            .attr("aria-label", if by < 0.0 { "Decrease" } else { "Increase" })
                            .attr(ACTION, &validator_wasm::json_text(&action))
                            .close();
                        out.push_str(label);
                        end(out, "button");
                    }
                }
                self.text_element(out, "output", None, p("value"));
                end(out, "div");
            }
            "Form" => {
                open(out, "div")
                    .class(name, props, &[])
                    .attr("role", "form")
                    .close();
                self.children(out, node.value, node.depth);
                let mut t = open(out, "button").attr("type", "button");
                if let Some(action) = p("onSubmit") {
                    t = t.attr(ACTION, &validator_wasm::json_text(action));
                }
                t.close();
                escape_into(out, str_prop("submitLabel").unwrap_or_default());
                end(out, "button");
                end(out, "div");
            }
            "TextField" | "TextArea" | "Checkbox" => {
                self.field(out, name, props, &self.element_id(node, "-msg"));
            }
            _ => return false,
        }
        true
    }

    /// A `TextField`, `TextArea` or `Checkbox` in its label, with the
    /// element its checks' message goes to (`message_id`) when it has any.
    fn field(&self, out: &mut String, name: &str, props: &Value, message_id: &str) {
        let checks = props
            .get("checks")
            .filter(|c| c.as_array().is_some_and(|a| !a.is_empty()));
        let bound = props.get(if name == "Checkbox" {
            "checked"
        } else {
            "value"
        });
        open(out, "label").class(name, props, &[]).close();
        if name != "Checkbox" {
            escape_into(
                out,
                props
                    .get("label")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            );
        }
        let mut t = match name {
            "TextArea" => {
                let mut t = open(out, "textarea");
                if let Some(rows) = props.get("rows").and_then(Value::as_u64) {
                    t = t.attr("rows", &rows.to_string());
                }
                t
            }
            "Checkbox" => {
                let on = bound.map(|b| truthy(&&self.value(b))).unwrap_or(false);
                open(out, "input")
                    .attr("type", "checkbox")
                    .flag("checked", on)
            }
            _ => {
                let kind = props.get("type").and_then(Value::as_str).unwrap_or("text");
                let t = open(out, "input").attr("type", kind);
                match bound {
                    Some(v) => t.attr("value", &self.text(v)),
                    None => t,
                }
            }
        };
        if let Some(path) = bound.and_then(model_path) {
            t = t.attr(MODEL, path);
        }
        if let Some(checks) = checks {
            t = t
                .attr("aria-describedby", message_id)
                .attr(CHECKS, &validator_wasm::json_text(checks));
        }
        t.close();
        match name {
            "TextArea" => {
                escape_into(out, &bound.map(|v| self.text(v)).unwrap_or_default());
                out.push_str("</textarea>");
            }
            "Checkbox" => {
                out.push(' ');
                escape_into(
                    out,
                    props
                        .get("label")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                );
            }
            _ => {}
        }
        out.push_str("</label>");
        if checks.is_some() {
            open(out, "span")
                .attr("id", message_id)
                .attr("class", "ch-message")
                .flag(MESSAGE, true)
                .close();
            out.push_str("</span>");
        }
        out.push('\n');
    }

    /// `Tabs`: a radio per panel, named `group` and valued and labelled by
    /// the panel's label (the bound one checked, else the first), then the
    /// panels.
    fn tabs(&self, out: &mut String, node: &Node, group: &str) {
        let props = node.props;
        open(out, "div").class("Tabs", props, &[]).close();
        out.push('\n');
        let panels: Vec<&Value> = self
            .child_indices(node.value)
            .into_iter()
            .filter(|i| self.left_out.component(*i).is_none())
            .filter_map(|i| self.components.get(i))
            .collect();
        let bound = props.get("value");
        let current = bound.map(|v| self.value(v));
        let label = |panel: &Value| {
            panel
                .pointer("/props/label")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let chosen = panels
            .iter()
            .position(|panel| {
                current.as_ref().and_then(Value::as_str) == Some(label(panel).as_str())
            })
            .unwrap_or(0);
        for (i, panel) in panels.iter().enumerate() {
            let id = [group, "-", &i.to_string()].concat();
            let mut t = open(out, "input")
                .attr("type", "radio")
                .attr("class", "ch-tab")
                .attr("name", group)
                .attr("id", &id)
                .attr("value", &label(panel));
            if let Some(path) = bound.and_then(model_path) {
                t = t.attr(MODEL, path);
            }
            self.panel_visible(t.flag("checked", i == chosen), panel)
                .close();
            let label_tag = open(out, "label").attr("for", &id);
            self.panel_visible(label_tag, panel).close();
            escape_into(out, &label(panel));
            out.push_str("</label>\n");
        }
        for panel in &panels {
            let start = out.len();
            let panel_tag = open(out, "div").attr("class", "ch-tabpanel");
            self.panel_visible(panel_tag, panel).close();
            self.mark(out, start, panel.get("id").and_then(Value::as_str), false);
            out.push('\n');
            self.children(out, panel, node.depth + 1);
            end(out, "div");
        }
        end(out, "div");
    }
}

impl Renderer<'_> {
    /// A tab panel's `visible` on one of its elements (its radio, label or
    /// panel), set on the element itself: a wrapper would break the tab
    /// styles' sibling selectors.
    fn panel_visible<'o>(&self, t: Tag<'o>, panel: &Value) -> Tag<'o> {
        match panel.get("visible") {
            Some(condition) => self.visible(t, condition),
            None => t,
        }
    }
}

/// The pointer a form control writes: a plain binding's path.
fn model_path(value: &Value) -> Option<&str> {
    value
        .get("path")
        .and_then(Value::as_str)
        .filter(|p| p.starts_with('/'))
}
