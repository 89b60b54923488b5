//! Content components (SPEC.md section 2): text (`Heading`, `Text`,
//! `Markdown`, `Badge`, `Stat`, `Quote`, `List`), links (`Link`, and
//! `Button`, a link or a button running actions), media (`Image`, `Icon`,
//! `Video`) and tables (`Table`, and `Chart`: an inline SVG of its series,
//! bars or lines, with its data as a table, the chart's text alternative).

use crate::markup::{end, open, ACTION, ATTR, TEXT};
use crate::{binding_attr, bound_attr, dynamic, escape_into, Node, Renderer};
use serde_json::Value;
use surfaces_core::truthy;

impl Renderer<'_> {
    /// Writes `node` when it is a content component; `false` when it is not.
    pub(crate) fn content(&self, out: &mut String, node: &Node) -> bool {
        let (name, props) = (node.name, node.props);
        let p = |key: &str| node.prop(key);
        let str_prop = |key: &str| node.str_prop(key);
        match name {
            "Heading" => {
                let level = p("level")
                    .and_then(Value::as_u64)
                    .filter(|l| (1..=6).contains(l))
                    .unwrap_or(2);
                self.text_element(out, &["h", &level.to_string()].concat(), None, p("text"));
            }
            "Text" => self.text_element(
                out,
                "p",
                Some(&["ch-text ch-tone-", str_prop("tone").unwrap_or("default")].concat()),
                p("text"),
            ),
            "Markdown" => {
                open(out, "div").class(name, props, &[]).close();
                for para in str_prop("source")
                    .unwrap_or_default()
                    .split("\n\n")
                    .filter(|s| !s.trim().is_empty())
                {
                    out.push_str("<p>");
                    escape_into(out, para.trim());
                    out.push_str("</p>");
                }
                end(out, "div");
            }
            "Image" => {
                open(out, "figure").class(name, props, &["aspect"]).close();
                open(out, "img")
                    .attr("src", &asset_url(str_prop("src").unwrap_or_default()))
                    .attr("alt", str_prop("alt").unwrap_or_default())
                    .close();
                self.text_element(out, "figcaption", None, p("caption"));
                end(out, "figure");
            }
            "Icon" => {
                let t = open(out, "span")
                    .class(name, props, &["size"])
                    .attr("data-icon", str_prop("name").unwrap_or_default());
                match str_prop("label") {
                    Some(label) => t.attr("role", "img").attr("aria-label", label),
                    None => t.attr("aria-hidden", "true"),
                }
                .close();
                end(out, "span");
            }
            "Button" => self.button(out, props),
            "Link" => {
                let mut t = open(out, "a")
                    .class(name, props, &[])
                    .attr("href", str_prop("href").unwrap_or("#"));
                if let Some(text) = p("text").filter(|v| dynamic(v)) {
                    t = t.attr(TEXT, &binding_attr(text));
                }
                t.close();
                escape_into(out, &p("text").map(|t| self.text(t)).unwrap_or_default());
                end(out, "a");
            }
            "Badge" => self.text_element(
                out,
                "span",
                Some(&["ch-badge ch-tone-", str_prop("tone").unwrap_or("neutral")].concat()),
                p("text"),
            ),
            "Stat" => {
                open(out, "div").class(name, props, &[]).close();
                self.text_element(out, "span", Some("ch-stat-label"), p("label"));
                self.text_element(out, "strong", Some("ch-stat-value"), p("value"));
                self.text_element(out, "small", Some("ch-stat-caption"), p("caption"));
                end(out, "div");
            }
            "Quote" => {
                open(out, "blockquote").class(name, props, &[]).close();
                self.text_element(out, "p", None, p("text"));
                self.text_element(out, "cite", None, p("cite"));
                end(out, "blockquote");
            }
            "List" => {
                let tag = if p("ordered").and_then(Value::as_bool) == Some(true) {
                    "ol"
                } else {
                    "ul"
                };
                open(out, tag).class(name, props, &[]).close();
                for item in self.list(p("items")) {
                    out.push_str("<li>");
                    escape_into(out, &self.text(&item));
                    out.push_str("</li>");
                }
                end(out, tag);
            }
            "Table" => {
                let columns: Vec<String> = self
                    .list(p("columns"))
                    .iter()
                    .map(|c| self.text(c))
                    .collect();
                let rows: Vec<Vec<Value>> = self
                    .list(p("rows"))
                    .into_iter()
                    .map(|r| self.list(Some(&r)))
                    .collect();
                self.table(out, name, str_prop("caption"), &columns, &rows);
            }
            "Chart" => {
                let labels = self.capped(name, "labels", p("labels"));
                let series = self.capped(name, "series", p("series"));
                let mut columns = vec![String::new()];
                columns.extend(
                    series
                        .iter()
                        .map(|s| self.text(s.get("label").unwrap_or(&Value::Null))),
                );
                let rows: Vec<Vec<Value>> = labels
                    .iter()
                    .enumerate()
                    .map(|(i, label)| {
                        let mut row = vec![label.clone()];
                        row.extend(series.iter().map(|s| {
                            s.get("values")
                                .and_then(|v| v.get(i))
                                .cloned()
                                .unwrap_or(Value::Null)
                        }));
                        row
                    })
                    .collect();
                open(out, "figure").class(name, props, &["kind"]).close();
                let values: Vec<Vec<Option<f64>>> = series
                    .iter()
                    .map(|s| {
                        let values = s.get("values").and_then(Value::as_array);
                        let values = values.map_or(&[][..], Vec::as_slice);
                        (0..labels.len())
                            .map(|i| values.get(i).and_then(Value::as_f64))
                            .collect()
                    })
                    .collect();
                chart_svg(out, str_prop("kind").unwrap_or_default(), &values);
                self.table(out, name, str_prop("title"), &columns, &rows);
                end(out, "figure");
            }
            "Video" => {
                let (src, title) = (str_prop("src").unwrap_or_default(), str_prop("title"));
                if !is_media_file(src) {
                    // A provider's page (YouTube, Vimeo...) is no file a
                    // <video> plays: a link to it, its poster inside.
                    open(out, "a")
                        .class(name, props, &[])
                        .attr("href", src)
                        .close();
                    if let Some(poster) = str_prop("poster") {
                        open(out, "img")
                            .attr("src", &asset_url(poster))
                            .attr("alt", "")
                            .close();
                    }
                    escape_into(out, title.unwrap_or_default());
                    end(out, "a");
                    return true;
                }
                let mut t = open(out, "video")
                    .class(name, props, &[])
                    .attr("src", src)
                    .attr("title", title.unwrap_or_default())
                    .flag("controls", true);
                if let Some(poster) = str_prop("poster") {
                    t = t.attr("poster", &asset_url(poster));
                }
                t.close();
                end(out, "video");
            }
            _ => return false,
        }
        true
    }

    /// A `Button`: a link when it has an `href` (which runs its `onClick`
    /// too, before the link is followed: the link works without
    /// JavaScript, the action with it), else a button running its
    /// `onClick`.
    fn button(&self, out: &mut String, props: &Value) {
        let label = props.get("label");
        if let Some(href) = props.get("href").and_then(Value::as_str) {
            let mut t = open(out, "a")
                .class("Button", props, &["variant"])
                .attr("href", href);
            if let Some(action) = props.get("onClick") {
                t = t.attr(ACTION, &validator_wasm::json_text(action));
            }
            if let Some(l) = label.filter(|l| dynamic(l)) {
                t = t.attr(TEXT, &binding_attr(l));
            }
            t.close();
            escape_into(out, &label.map(|l| self.text(l)).unwrap_or_default());
            end(out, "a");
            return;
        }
        let mut t = open(out, "button")
            .attr("type", "button")
            .class("Button", props, &["variant"]);
        if let Some(action) = props.get("onClick") {
            t = t.attr(ACTION, &validator_wasm::json_text(action));
        }
        if let Some(label) = label.filter(|l| dynamic(l)) {
            t = t.attr(TEXT, &binding_attr(label));
        }
        if let Some(disabled) = props.get("disabled") {
            if dynamic(disabled) {
                t = t.attr(ATTR, &bound_attr("disabled", disabled));
            }
            t = t.flag("disabled", truthy(&&self.value(disabled)));
        }
        t.close();
        escape_into(out, &label.map(|l| self.text(l)).unwrap_or_default());
        end(out, "button");
    }

    fn table(
        &self,
        out: &mut String,
        name: &str,
        caption: Option<&str>,
        columns: &[String],
        rows: &[Vec<Value>],
    ) {
        open(out, "table").class(name, &Value::Null, &[]).close();
        if let Some(caption) = caption {
            out.push_str("<caption>");
            escape_into(out, caption);
            out.push_str("</caption>");
        }
        out.push_str("<thead><tr>");
        for column in columns {
            out.push_str("<th scope=\"col\">");
            escape_into(out, column);
            out.push_str("</th>");
        }
        out.push_str("</tr></thead><tbody>");
        for row in rows {
            out.push_str("<tr>");
            for cell in row {
                out.push_str("<td>");
                escape_into(out, &self.text(cell));
                out.push_str("</td>");
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody>");
        end(out, "table");
    }
}

/// The plot's size (its `viewBox`): coordinates are whole numbers in it.
const PLOT: (i64, i64) = (1000, 500);

/// The inline SVG of a chart's series (`values[series][label]`, `None`
/// where one is missing): grouped bars for `bar`, a line per series for
/// `line`, filled down to zero for `area`; nothing for another kind (a pie),
/// whose table stands alone. It is hidden from assistive technology: the
/// table after it says the same. Each series is `ch-series-<n>` for a
/// theme's colours; no script, no style of the content's.
fn chart_svg(out: &mut String, kind: &str, values: &[Vec<Option<f64>>]) {
    let labels = values.first().map_or(0, Vec::len);
    if labels == 0 || !matches!(kind, "bar" | "line" | "area") {
        return;
    }
    let all = values.iter().flatten().flatten();
    let (low, high) = all.fold((0f64, 0f64), |(l, h), v| (l.min(*v), h.max(*v)));
    let span = if high > low { high - low } else { 1.0 };
    let (w, h) = PLOT;
    // The y of a value, and of zero (the bars' base, the areas' floor).
    let y = |v: f64| ((high - v) / span * h as f64).round() as i64;
    let zero = y(0.0);
    let step = w / labels as i64;
    let n = |x: i64| x.to_string();
    out.push_str(r#"<svg class="ch-chart-plot" viewBox="0 0 "#);
    out.push_str(&[n(w), " ".into(), n(h)].concat());
    out.push_str(r#"" aria-hidden="true" focusable="false">"#);
    for (j, series) in values.iter().enumerate() {
        let class = ["ch-series ch-series-", &j.to_string()].concat();
        if kind == "bar" {
            let width = step / (values.len() as i64 + 1);
            open(out, "g").attr("class", &class).close();
            for (i, v) in series.iter().enumerate() {
                let Some(v) = v else { continue };
                let x = i as i64 * step + (j as i64 * 2 + 1) * width / 2;
                let (top, bottom) = (y(*v).min(zero), y(*v).max(zero));
                let rect = [
                    ("x", x),
                    ("y", top),
                    ("width", width),
                    ("height", bottom - top),
                ];
                let mut t = open(out, "rect");
                for (name, value) in rect {
                    t = t.attr(name, &n(value));
                }
                t.close();
                end(out, "rect");
            }
            end(out, "g");
            continue;
        }
        let points: Vec<(i64, i64)> = series
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (i as i64 * step + step / 2, y(v))))
            .collect();
        let (Some(first), Some(last)) = (points.first(), points.last()) else {
            continue;
        };
        let mut list: Vec<String> = points
            .iter()
            .map(|(x, y)| [n(*x), ",".into(), n(*y)].concat())
            .collect();
        let tag = if kind == "area" {
            list.push([n(last.0), ",".into(), n(zero)].concat());
            list.push([n(first.0), ",".into(), n(zero)].concat());
            "polygon"
        } else {
            "polyline"
        };
        open(out, tag)
            .attr("class", &class)
            .attr("points", &list.join(" "))
            .attr(
                "fill",
                if tag == "polygon" {
                    "currentColor"
                } else {
                    "none"
                },
            )
            .attr("stroke", "currentColor")
            .close();
        end(out, tag);
    }
    out.push_str("</svg>\n");
}

/// A media source as the page loads it: cleaned as the validator's `asset`
/// format reads it ([`surfaces_core::href::clean`]), then `asset:NAME` (the scheme in any case) is the site's `/assets/NAME`,
/// and a path is kept.
fn asset_url(src: &str) -> String {
    let clean = surfaces_core::href::clean(src);
    match clean.get(..6) {
        Some(scheme) if scheme.eq_ignore_ascii_case("asset:") => {
            ["/assets/", clean.get(6..).unwrap_or_default()].concat()
        }
        _ => clean,
    }
}

/// Whether `url` names a media file a `<video>` plays (by its extension,
/// before any query or fragment), not a page that shows one.
fn is_media_file(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let file = path.rsplit('/').next().unwrap_or_default();
    let extension = file.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(
        extension.as_deref(),
        Some("mp4" | "webm" | "ogv" | "ogg" | "mov" | "m4v")
    )
}
