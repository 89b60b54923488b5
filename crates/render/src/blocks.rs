//! The registry blocks the built-in catalog adds to the core components
//! (SPEC.md section 3): `callout`, `faq`, `testimonial` and
//! `pricing-table`.

use crate::markup::{end, open};
use crate::{escape_into, Node, Renderer};
use serde_json::Value;
use surfaces_core::href::is_safe_href;

impl Renderer<'_> {
    /// Writes `node` when it is a registry block; `false` when it is not.
    pub(crate) fn block(&self, out: &mut String, node: &Node) -> bool {
        let (name, props) = (node.name, node.props);
        let p = |key: &str| node.prop(key);
        let str_prop = |key: &str| node.str_prop(key);
        match name {
            "callout" => {
                open(out, "aside")
                    .class(name, props, &["tone"])
                    .attr("role", "note")
                    .close();
                if let Some(icon) = str_prop("icon") {
                    open(out, "span")
                        .attr("class", "ch-icon")
                        .attr("data-icon", icon)
                        .attr("aria-hidden", "true")
                        .close();
                    end(out, "span");
                }
                self.text_element(out, "strong", None, p("title"));
                self.text_element(out, "p", None, p("text"));
                end(out, "aside");
            }
            "faq" => {
                open(out, "section").class(name, props, &[]).close();
                self.text_element(out, "h3", None, p("title"));
                for item in self.list(p("items")) {
                    out.push_str("<details>");
                    self.text_element(out, "summary", None, item.get("question"));
                    self.text_element(out, "p", None, item.get("answer"));
                    end(out, "details");
                }
                end(out, "section");
            }
            "testimonial" => {
                open(out, "figure").class(name, props, &[]).close();
                self.text_element(out, "blockquote", None, p("quote"));
                out.push_str("<figcaption>");
                escape_into(out, str_prop("author").unwrap_or_default());
                if let Some(role) = str_prop("role") {
                    out.push_str(", ");
                    escape_into(out, role);
                }
                out.push_str("</figcaption>");
                end(out, "figure");
            }
            "pricing-table" => self.pricing(out, props),
            _ => return false,
        }
        true
    }

    /// `pricing-table`: a section per plan, its monthly and yearly prices
    /// each shown while `period` names it (both when there is no `period`).
    fn pricing(&self, out: &mut String, props: &Value) {
        let period = props.get("period");
        open(out, "div").class("pricing-table", props, &[]).close();
        out.push('\n');
        for plan in self.list(props.get("plans")) {
            let highlighted = plan.get("highlighted").and_then(Value::as_bool) == Some(true);
            open(out, "section")
                .attr(
                    "class",
                    if highlighted {
                        "ch-plan ch-highlighted"
                    } else {
                        "ch-plan"
                    },
                )
                .close();
            self.text_element(out, "h3", None, plan.get("name"));
            // The catalog's default (blog@1's is EUR), then USD for a
            // catalog that names none.
            let currency = plan
                .get("currency")
                .or_else(|| self.default("pricing-table", &["plans", "[]", "currency"]))
                .and_then(Value::as_str)
                .unwrap_or("USD");
            let price = |key: &str| -> Option<String> {
                let call = serde_json::json!({"call": "formatCurrency", "args": {"value": plan.get(key)?, "currency": currency}});
                Some(self.text(&call))
            };
            for (key, when) in [("price", "monthly"), ("yearlyPrice", "yearly")] {
                let Some(text) = price(key) else { continue };
                if let Some(period) = period {
                    self.open_visible(out, &serde_json::json!({"eq": [period, when]}));
                }
                out.push_str("<p class=\"ch-price\">");
                escape_into(out, &text);
                out.push_str("</p>");
                if period.is_some() {
                    end(out, "div");
                }
            }
            out.push_str("<ul>");
            for feature in self.list(plan.get("features")) {
                out.push_str("<li>");
                escape_into(out, &self.text(&feature));
                out.push_str("</li>");
            }
            out.push_str("</ul>");
            if let Some(cta) = plan.get("cta") {
                let href = cta
                    .get("href")
                    .and_then(Value::as_str)
                    .filter(|h| is_safe_href(h));
                open(out, "a")
                    .attr("class", "ch-button")
                    .attr("href", href.unwrap_or("#"))
                    .close();
                escape_into(
                    out,
                    cta.get("label").and_then(Value::as_str).unwrap_or_default(),
                );
                end(out, "a");
            }
            end(out, "section");
        }
        end(out, "div");
    }
}
