//! The morph in real Chromium: morphdom's fixture pairs, every preserved
//! state, outlines, the scheduler's coalescing and rate, stripping, and a
//! randomized comparison against fresh renders.
//!
//! Run: `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p morph --test web`
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, JsString, Object, Promise, Reflect};
use morph::live::OUTLINE_ATTRIBUTE;
use morph::Preview;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{
    Document, Element, HtmlDialogElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    HtmlTextAreaElement, MutationObserver, MutationObserverInit, Node,
};

wasm_bindgen_test_configure!(run_in_browser);

fn doc() -> Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh container in the page, holding `html` as a browser parses it.
fn mount(html: &str) -> Element {
    let el = doc().create_element("div").unwrap();
    el.set_inner_html(html);
    doc().body().unwrap().append_child(&el).unwrap();
    el
}

/// The exported `morph`, from Rust text.
fn morph(target: &Element, html: &str, options: JsValue) {
    morph::morph(target, &JsString::from(html), options.dyn_into().ok());
}

fn by_id<T: JsCast>(id: &str) -> T {
    doc().get_element_by_id(id).unwrap().dyn_into().unwrap()
}

fn options(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &(*k).into(), v).unwrap();
    }
    o.into()
}

/// A serialization that ignores attribute order: tag, sorted attributes,
/// children; text and comments verbatim.
fn canon(node: &Node, out: &mut String) {
    if let Some(el) = node.dyn_ref::<Element>() {
        let attrs = el.attributes();
        let mut list: Vec<(String, String)> = (0..attrs.length())
            .filter_map(|i| attrs.item(i))
            .map(|a| (a.name(), a.value()))
            .collect();
        list.sort();
        out.push('<');
        out.push_str(&el.tag_name());
        for (k, v) in list {
            out.push_str(&format!(" {k}={v:?}"));
        }
        out.push('>');
        let mut child = node.first_child();
        while let Some(c) = child {
            canon(&c, out);
            child = c.next_sibling();
        }
        out.push_str(&format!("</{}>", el.tag_name()));
    } else {
        out.push_str(&format!(
            "[{}:{:?}]",
            node.node_type(),
            node.node_value().unwrap_or_default()
        ));
    }
}

fn canonical(node: &Node) -> String {
    let mut out = String::new();
    let mut child = node.first_child();
    while let Some(c) = child {
        canon(&c, &mut out);
        child = c.next_sibling();
    }
    out
}

/// Elements with an `id`, by id and tag, where the id is unique.
fn ids(root: &Element) -> Vec<(String, String, Element)> {
    let list = root.query_selector_all("[id]").unwrap();
    let all: Vec<Element> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect();
    all.iter()
        .filter(|e| all.iter().filter(|o| o.id() == e.id()).count() == 1)
        .map(|e| (e.id(), e.tag_name(), e.clone()))
        .collect()
}

/// Morphs a DOM built from `from` toward `to`; checks the result against
/// a fresh parse of `to`, and that same-id same-tag nodes were reused.
fn check_fixture(name: &str, from: &str, to: &str) -> Element {
    let live = mount(from);
    let before = ids(&live);
    morph(&live, to, JsValue::UNDEFINED);
    let fresh = mount(to);
    assert_eq!(
        canonical(&live),
        canonical(&fresh),
        "{name}: the morphed DOM differs from a fresh parse"
    );
    for (id, tag, el) in ids(&live) {
        if let Some((_, _, old)) = before.iter().find(|(i, t, _)| *i == id && *t == tag) {
            assert!(
                *old == el,
                "{name}: #{id} <{tag}> was recreated, not reused"
            );
        }
    }
    fresh.remove();
    live
}

macro_rules! fixtures {
    ($($test:ident => $dir:literal),* $(,)?) => {$(
        #[wasm_bindgen_test]
        fn $test() {
            let live = check_fixture(
                $dir,
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/morphdom-autotest/", $dir, "/from.html")),
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/morphdom-autotest/", $dir, "/to.html")),
            );
            live.remove();
        }
    )*};
}

fixtures! {
    fixture_attr_value_empty_string => "attr-value-empty-string",
    fixture_change_tagname => "change-tagname",
    fixture_change_tagname_ids => "change-tagname-ids",
    fixture_data_table => "data-table",
    fixture_data_table2 => "data-table2",
    fixture_equal => "equal",
    fixture_id_change_tag_name => "id-change-tag-name",
    fixture_ids_nested => "ids-nested",
    fixture_ids_nested_2 => "ids-nested-2",
    fixture_ids_nested_3 => "ids-nested-3",
    fixture_ids_nested_4 => "ids-nested-4",
    fixture_ids_nested_5 => "ids-nested-5",
    fixture_ids_nested_6 => "ids-nested-6",
    fixture_ids_nested_7 => "ids-nested-7",
    fixture_ids_prepend => "ids-prepend",
    fixture_input_element => "input-element",
    fixture_large => "large",
    fixture_lengthen => "lengthen",
    fixture_one => "one",
    fixture_reverse => "reverse",
    fixture_reverse_ids => "reverse-ids",
    fixture_shorten => "shorten",
    fixture_simple => "simple",
    fixture_simple_ids => "simple-ids",
    fixture_simple_text_el => "simple-text-el",
    fixture_svg => "svg",
    fixture_svg_append => "svg-append",
    fixture_svg_append_new => "svg-append-new",
    fixture_svg_no_default_namespace => "svg-no-default-namespace",
    fixture_svg_xlink => "svg-xlink",
    fixture_tag_to_text => "tag-to-text",
    fixture_text_to_tag => "text-to-tag",
    fixture_text_to_text => "text-to-text",
    fixture_todomvc => "todomvc",
    fixture_todomvc2 => "todomvc2",
    fixture_two => "two",
}

macro_rules! pair {
    ($dir:literal) => {
        (
            $dir,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/conformance/morphdom-autotest/",
                $dir,
                "/from.html"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/conformance/morphdom-autotest/",
                $dir,
                "/to.html"
            )),
        )
    };
}

#[wasm_bindgen_test]
fn fixture_input_element_enabled_clears_the_disabled_property() {
    let (name, from, to) = pair!("input-element-enabled");
    let live = check_fixture(name, from, to);
    let input: HtmlInputElement = live.first_element_child().unwrap().dyn_into().unwrap();
    assert!(!input.disabled());
    assert_eq!(input.value(), "Hello World");
    live.remove();
}

#[wasm_bindgen_test]
fn fixture_input_element_disabled_sets_the_disabled_property() {
    let (name, from, to) = pair!("input-element-disabled");
    let live = check_fixture(name, from, to);
    let input: HtmlInputElement = live.first_element_child().unwrap().dyn_into().unwrap();
    assert!(input.disabled());
    live.remove();
}

#[wasm_bindgen_test]
fn fixture_select_element_selects_the_new_default() {
    let (name, from, to) = pair!("select-element");
    let live = check_fixture(name, from, to);
    let select: HtmlSelectElement = live
        .query_selector("select")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(select.value(), "value3");
    assert_eq!(select.selected_index(), 2);
    live.remove();
}

#[wasm_bindgen_test]
fn fixture_select_element_default_keeps_the_first_option() {
    let (name, from, to) = pair!("select-element-default");
    let live = check_fixture(name, from, to);
    let select: HtmlSelectElement = live
        .query_selector("select")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(select.value(), "value1");
    live.remove();
}

#[wasm_bindgen_test]
fn fixture_textarea_takes_the_new_text_as_its_value() {
    let (name, from, to) = pair!("textarea");
    let live = check_fixture(name, from, to);
    let area: HtmlTextAreaElement = live.first_element_child().unwrap().dyn_into().unwrap();
    assert_eq!(area.value(), "bar");
    live.remove();
}

// ---- preserved state ----

#[wasm_bindgen_test]
fn focus_and_caret_in_a_text_input_survive() {
    let live = mount("");
    morph(
        &live,
        r#"<p>a</p><input id="fi-q" value="x">"#,
        JsValue::UNDEFINED,
    );
    let input: HtmlInputElement = by_id("fi-q");
    input.focus().unwrap();
    input.set_value("hello");
    input.set_selection_range(2, 4).unwrap();
    morph(
        &live,
        r#"<p>b</p><p>new</p><input id="fi-q" value="x" class="c">"#,
        JsValue::UNDEFINED,
    );
    let again: HtmlInputElement = by_id("fi-q");
    assert!(again == input);
    assert!(doc().active_element().unwrap() == Element::from(input.clone()));
    assert_eq!(input.value(), "hello");
    assert_eq!(input.selection_start().unwrap(), Some(2));
    assert_eq!(input.selection_end().unwrap(), Some(4));
    live.remove();
}

#[wasm_bindgen_test]
fn focus_stays_on_a_textarea_whose_section_moves() {
    let live = mount("");
    let page = |a: &str, b: &str| {
        format!(
            r#"<section data-section-id="{a}"><h2>{a}</h2></section><section data-section-id="{b}"><h2>{b}</h2></section>"#
        )
    };
    morph(&live, &page("one", "two"), JsValue::UNDEFINED);
    live.query_selector("[data-section-id=two]")
        .unwrap()
        .unwrap()
        .set_inner_html(r#"<textarea id="ft-t">default</textarea>"#);
    let area: HtmlTextAreaElement = by_id("ft-t");
    area.focus().unwrap();
    area.set_value("typed");
    area.set_selection_range(1, 3).unwrap();
    let swapped = r#"<section data-section-id="two"><textarea id="ft-t">default</textarea></section><section data-section-id="one"><h2>one</h2></section>"#;
    morph(&live, swapped, JsValue::UNDEFINED);
    assert!(live.first_element_child().unwrap().contains(Some(&area)));
    assert!(doc().active_element().unwrap() == Element::from(area.clone()));
    assert_eq!(area.value(), "typed");
    assert_eq!(
        (
            area.selection_start().unwrap(),
            area.selection_end().unwrap()
        ),
        (Some(1), Some(3))
    );
    live.remove();
}

#[wasm_bindgen_test]
fn caret_in_a_contenteditable_survives_a_text_change() {
    let live = mount("");
    morph(
        &live,
        r#"<div id="ce" contenteditable="true">hello world</div><p>x</p>"#,
        JsValue::UNDEFINED,
    );
    let ce: HtmlElement = by_id("ce");
    ce.focus().unwrap();
    let text = ce.first_child().unwrap();
    let sel = doc().get_selection().unwrap().unwrap();
    sel.set_base_and_extent(&text, 3, &text, 5).unwrap();
    morph(
        &live,
        r#"<div id="ce" contenteditable="true">hello there</div><p>y</p>"#,
        JsValue::UNDEFINED,
    );
    assert_eq!(ce.text_content().unwrap(), "hello there");
    assert!(doc().active_element().unwrap() == Element::from(ce.clone()));
    let sel = doc().get_selection().unwrap().unwrap();
    assert!(sel.anchor_node().unwrap() == text);
    assert_eq!((sel.anchor_offset(), sel.focus_offset()), (3, 5));
    live.remove();
}

#[wasm_bindgen_test]
fn window_scroll_survives() {
    let live = mount("");
    let page = |n: u32| {
        (0..40)
            .map(|i| format!(r#"<div data-component-id="w{i}" style="height:100px">{i} {n}</div>"#))
            .collect::<String>()
    };
    morph(&live, &page(0), JsValue::UNDEFINED);
    let win = web_sys::window().unwrap();
    win.scroll_to_with_x_and_y(0.0, 1200.0);
    let y = win.scroll_y().unwrap();
    assert!(y > 1000.0);
    // Reversed order and new text: every component moves.
    let reversed = (0..40)
        .rev()
        .map(|i| format!(r#"<div data-component-id="w{i}" style="height:100px">{i} 1</div>"#))
        .collect::<String>();
    morph(&live, &reversed, JsValue::UNDEFINED);
    assert_eq!(win.scroll_y().unwrap(), y);
    live.remove();
    win.scroll_to_with_x_and_y(0.0, 0.0);
}

#[wasm_bindgen_test]
fn a_scrolled_container_keeps_its_scroll_when_it_moves() {
    let live = mount("");
    let inner = (0..50)
        .map(|i| format!("<p>line {i}</p>"))
        .collect::<String>();
    let bx = format!(r#"<div id="sc-box" style="height:80px;overflow:auto">{inner}</div>"#);
    morph(
        &live,
        &format!(r#"<div id="sc-a">a</div>{bx}"#),
        JsValue::UNDEFINED,
    );
    let b: Element = by_id("sc-box");
    b.set_scroll_top(150);
    morph(
        &live,
        &format!(r#"{bx}<div id="sc-a">a changed</div>"#),
        JsValue::UNDEFINED,
    );
    assert!(live.first_element_child().unwrap() == b);
    assert_eq!(b.scroll_top(), 150);
    live.remove();
}

#[wasm_bindgen_test]
fn details_keep_the_persons_choice_until_the_server_changes_its_own() {
    let live = mount("");
    let page = |open: bool, text: &str| {
        format!(
            r#"<details id="dt"{}><summary>more</summary>{text}</details>"#,
            if open { " open" } else { "" }
        )
    };
    morph(&live, &page(false, "a"), JsValue::UNDEFINED);
    let details: Element = by_id("dt");
    details.set_attribute("open", "").unwrap(); // the person opens it
    morph(&live, &page(false, "b"), JsValue::UNDEFINED);
    assert!(details.has_attribute("open"), "the person's opening stays");
    details.remove_attribute("open").unwrap(); // and closes it again
    morph(&live, &page(true, "c"), JsValue::UNDEFINED);
    assert!(details.has_attribute("open"), "the server opened it");
    details.remove_attribute("open").unwrap(); // the person closes it
    morph(&live, &page(true, "d"), JsValue::UNDEFINED);
    assert!(!details.has_attribute("open"), "the person's closing stays");
    morph(&live, &page(false, "e"), JsValue::UNDEFINED);
    assert!(!details.has_attribute("open"));
    assert!(by_id::<Element>("dt") == details);
    live.remove();
}

#[wasm_bindgen_test]
fn a_dialog_the_person_opened_stays_open_and_modal() {
    let live = mount("");
    let page = |text: &str| format!(r#"<dialog id="dl"><p>{text}</p></dialog><p>{text}</p>"#);
    morph(&live, &page("a"), JsValue::UNDEFINED);
    let dialog: HtmlDialogElement = by_id("dl");
    dialog.show_modal().unwrap();
    morph(&live, &page("b"), JsValue::UNDEFINED);
    assert!(dialog.open());
    assert!(dialog.matches(":modal").unwrap());
    assert_eq!(dialog.text_content().unwrap(), "b");
    dialog.close();
    morph(
        &live,
        r#"<dialog id="dl" open><p>c</p></dialog>"#,
        JsValue::UNDEFINED,
    );
    assert!(dialog.open(), "the server opened it");
    morph(
        &live,
        r#"<dialog id="dl"><p>c</p></dialog>"#,
        JsValue::UNDEFINED,
    );
    assert!(!dialog.open(), "the server closed it");
    live.remove();
}

#[wasm_bindgen_test]
fn form_values_the_person_changed_stay_until_the_server_default_changes() {
    let live = mount("");
    let page = |text: &str, check: bool, radio: &str, option: &str, title: &str| {
        format!(
            r#"<input id="fv-text" value="{text}">
               <input id="fv-box" type="checkbox"{}>
               <input id="fv-r1" type="radio" name="fv" value="1"{}>
               <input id="fv-r2" type="radio" name="fv" value="2"{}>
               <select id="fv-sel"><option value="a"{}>A</option><option value="b"{}>B</option><option value="c">C</option></select>
               <h3>{title}</h3>"#,
            if check { " checked" } else { "" },
            if radio == "1" { " checked" } else { "" },
            if radio == "2" { " checked" } else { "" },
            if option == "a" { " selected" } else { "" },
            if option == "b" { " selected" } else { "" },
        )
    };
    morph(
        &live,
        &page("server", false, "1", "a", "one"),
        JsValue::UNDEFINED,
    );
    let text: HtmlInputElement = by_id("fv-text");
    let bx: HtmlInputElement = by_id("fv-box");
    let r2: HtmlInputElement = by_id("fv-r2");
    let sel: HtmlSelectElement = by_id("fv-sel");
    // The person types, ticks, picks.
    text.set_value("typed");
    bx.set_checked(true);
    r2.set_checked(true);
    sel.set_value("c");
    morph(
        &live,
        &page("server", false, "1", "a", "two"),
        JsValue::UNDEFINED,
    );
    assert_eq!(text.value(), "typed");
    assert!(bx.checked());
    assert!(r2.checked());
    assert_eq!(sel.value(), "c");
    // The server changes every default: the server wins.
    morph(
        &live,
        &page("fresh", true, "1", "b", "three"),
        JsValue::UNDEFINED,
    );
    assert_eq!(text.value(), "fresh");
    assert!(bx.checked());
    assert_eq!(sel.value(), "b");
    assert!(r2.checked(), "the radio defaults did not change");
    morph(
        &live,
        &page("fresh", false, "2", "b", "four"),
        JsValue::UNDEFINED,
    );
    assert!(!bx.checked());
    assert!(r2.checked());
    assert!(!by_id::<HtmlInputElement>("fv-r1").checked());
    live.remove();
}

fn observe(node: &Node) -> MutationObserver {
    let noop: Function = Closure::<dyn FnMut()>::new(|| {})
        .into_js_value()
        .unchecked_into();
    let observer = MutationObserver::new(&noop).unwrap();
    let init = MutationObserverInit::new();
    init.set_attributes(true);
    init.set_child_list(true);
    init.set_character_data(true);
    init.set_subtree(true);
    observer.observe_with_options(node, &init).unwrap();
    observer
}

#[wasm_bindgen_test]
fn iframes_and_media_are_neither_reloaded_nor_touched() {
    let live = mount("");
    let media = r#"<iframe id="mf-frame"></iframe><img id="mf-img" src="/mf-nothing.png" alt="">"#;
    morph(
        &live,
        &format!(r#"<div id="mf-a">a</div><div id="mf-media">{media}</div>"#),
        JsValue::UNDEFINED,
    );
    let frame: web_sys::HtmlIFrameElement = by_id("mf-frame");
    let window = frame.content_window().unwrap();
    Reflect::set(&window, &"marker".into(), &1.into()).unwrap();
    let watch = observe(&by_id::<Node>("mf-media"));
    morph(
        &live,
        &format!(r#"<div id="mf-media">{media}</div><div id="mf-a">b</div>"#),
        JsValue::UNDEFINED,
    );
    assert_eq!(
        watch.take_records().length(),
        0,
        "nothing inside was touched"
    );
    let after = frame.content_window().unwrap();
    assert_eq!(
        Reflect::get(&after, &"marker".into()).unwrap(),
        1,
        "the frame was not reloaded"
    );
    live.remove();
}

#[wasm_bindgen_test]
fn a_same_origin_iframe_document_is_morphed_in_place() {
    let frame: web_sys::HtmlIFrameElement =
        doc().create_element("iframe").unwrap().dyn_into().unwrap();
    doc().body().unwrap().append_child(&frame).unwrap();
    let inner = frame.content_document().unwrap();
    let body: Element = inner.body().unwrap().into();
    morph(
        &body,
        r#"<p id="if-a">a</p><ul><li id="if-1">1</li><li id="if-2">2</li></ul><details id="if-d"><summary>s</summary>x</details>"#,
        JsValue::UNDEFINED,
    );
    let two = inner.get_element_by_id("if-2").unwrap();
    let details = inner.get_element_by_id("if-d").unwrap();
    details.set_attribute("open", "").unwrap(); // the person opens it
    morph(
        &body,
        r#"<ul><li id="if-2">2!</li><li id="if-1">1</li><li id="if-3">3</li></ul><p id="if-a">a</p><details id="if-d"><summary>s</summary>y</details>"#,
        JsValue::UNDEFINED,
    );
    assert!(
        inner.get_element_by_id("if-2").unwrap() == two,
        "moved, not recreated"
    );
    assert!(details.has_attribute("open"));
    let three = inner.get_element_by_id("if-3").unwrap();
    assert!(three.owner_document().unwrap() == inner);
    assert_eq!(
        body.text_content().unwrap(),
        "2!13asy",
        "the iframe's body took the new content"
    );
    assert!(
        doc().get_element_by_id("if-3").is_none(),
        "nothing leaked into the parent page"
    );
    frame.remove();
}

#[wasm_bindgen_test]
fn a_file_input_whose_default_changes_does_not_break_the_morph() {
    let live = mount("");
    morph(
        &live,
        r#"<input id="fl" type="file" value="a"><p>1</p>"#,
        JsValue::UNDEFINED,
    );
    morph(
        &live,
        r#"<input id="fl" type="file" value="b"><p>2</p>"#,
        JsValue::UNDEFINED,
    );
    assert_eq!(live.text_content().unwrap(), "2");
    assert_eq!(
        by_id::<Element>("fl").get_attribute("value").as_deref(),
        Some("b")
    );
    live.remove();
}

// ---- outlines and following ----

async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn changed_elements_are_outlined_for_the_configured_time() {
    let live = mount("");
    morph(
        &live,
        r#"<p id="ol-a">a</p><p id="ol-b">b</p>"#,
        JsValue::UNDEFINED,
    );
    let opts = options(&[("outline", 120.into())]);
    morph(
        &live,
        r#"<p id="ol-a">a</p><p id="ol-b" class="x">b</p><p id="ol-c">c</p>"#,
        opts,
    );
    let a: Element = by_id("ol-a");
    let b: Element = by_id("ol-b");
    let c: Element = by_id("ol-c");
    assert!(!a.has_attribute(OUTLINE_ATTRIBUTE));
    assert!(b.has_attribute(OUTLINE_ATTRIBUTE));
    assert!(c.has_attribute(OUTLINE_ATTRIBUTE));
    // The outline is never taken for a server attribute to remove.
    morph(
        &live,
        r#"<p id="ol-a">a</p><p id="ol-b" class="x">b</p><p id="ol-c">c</p>"#,
        JsValue::UNDEFINED,
    );
    assert!(b.has_attribute(OUTLINE_ATTRIBUTE));
    sleep(250).await;
    assert!(!b.has_attribute(OUTLINE_ATTRIBUTE));
    assert!(!c.has_attribute(OUTLINE_ATTRIBUTE));
    live.remove();
}

#[wasm_bindgen_test]
fn follow_scrolls_the_changed_element_into_view() {
    let live = mount("");
    let page = |last: &str| {
        let filler: String = (0..30)
            .map(|i| format!(r#"<div style="height:100px">{i}</div>"#))
            .collect();
        format!(r#"{filler}<p id="fw-last">{last}</p>"#)
    };
    morph(&live, &page("a"), JsValue::UNDEFINED);
    let win = web_sys::window().unwrap();
    win.scroll_to_with_x_and_y(0.0, 0.0);
    morph(&live, &page("b"), options(&[("follow", true.into())]));
    let rect = by_id::<Element>("fw-last").get_bounding_client_rect();
    let height = win.inner_height().unwrap().as_f64().unwrap();
    assert!(
        rect.bottom() <= height + 1.0 && rect.top() >= 0.0,
        "{} {}",
        rect.top(),
        height
    );
    live.remove();
    win.scroll_to_with_x_and_y(0.0, 0.0);
}

// ---- nothing runs ----

#[wasm_bindgen_test]
async fn scripts_handlers_and_javascript_urls_never_run() {
    let live = mount("");
    let html = r#"<script>window.__morphRan = 1</script>
        <img id="xs-img" src="/xs-missing.png" onerror="window.__morphRan = 2" alt="">
        <a id="xs-a" href=" JavaScript:window.__morphRan = 3">a</a>
        <a id="xs-ok" href="/fine">ok</a>
        <form id="xs-form" action="javascript:x()"><button id="xs-btn" formaction="javascript:y()">b</button></form>
        <iframe id="xs-frame" srcdoc="<script>parent.__morphRan = 4</script>"></iframe>
        <svg><a id="xs-svg" xlink:href="javascript:z()"><set attributeName="href" to="javascript:q()"/></a><script>window.__morphRan = 5</script></svg>
        <template id="xs-tpl"><script>1</script><b onclick="x()">t</b></template>
        <div id="xs-div" onclick="x()" onmouseover="y()" title="t">d</div>"#;
    morph(&live, html, JsValue::UNDEFINED);
    // The same holds for nodes that are morphed into, not inserted.
    morph(&live, html, JsValue::UNDEFINED);
    // And for whole documents, whose body is taken.
    let doc_live = mount("");
    morph(
        &doc_live,
        r#"<!doctype html><html><head><script>window.__morphRan = 6</script></head><body onload="window.__morphRan = 7"><img src="/xs-doc.png" onerror="window.__morphRan = 8" alt=""></body></html>"#,
        JsValue::UNDEFINED,
    );
    assert_eq!(doc_live.inner_html(), r#"<img src="/xs-doc.png" alt="">"#);
    assert_eq!(live.query_selector_all("script").unwrap().length(), 0);
    assert!(!by_id::<Element>("xs-img").has_attribute("onerror"));
    assert!(!by_id::<Element>("xs-a").has_attribute("href"));
    assert_eq!(
        by_id::<Element>("xs-ok").get_attribute("href").as_deref(),
        Some("/fine")
    );
    assert!(!by_id::<Element>("xs-form").has_attribute("action"));
    assert!(!by_id::<Element>("xs-btn").has_attribute("formaction"));
    assert!(!by_id::<Element>("xs-frame").has_attribute("srcdoc"));
    assert!(!by_id::<Element>("xs-svg").has_attribute("xlink:href"));
    assert_eq!(live.query_selector_all("set").unwrap().length(), 0);
    let tpl: web_sys::HtmlTemplateElement = by_id("xs-tpl");
    assert_eq!(
        tpl.content()
            .query_selector_all("script,[onclick]")
            .unwrap()
            .length(),
        0
    );
    let div: Element = by_id("xs-div");
    assert!(!div.has_attribute("onclick") && !div.has_attribute("onmouseover"));
    assert_eq!(div.get_attribute("title").as_deref(), Some("t"));
    sleep(300).await; // long enough for the image to fail and the frame to load
    let window = web_sys::window().unwrap();
    assert!(Reflect::get(&window, &"__morphRan".into())
        .unwrap()
        .is_undefined());
    live.remove();
    doc_live.remove();
}

// ---- the scheduler ----

/// The keys `flush` returned.
fn keys(list: Array) -> Vec<String> {
    list.iter().filter_map(|k| k.as_string()).collect()
}

/// Each morph the scheduler reported: when, and which keys.
type Runs = Rc<RefCell<Vec<(f64, Vec<String>)>>>;

fn recorder() -> (Runs, JsValue) {
    let runs: Runs = Rc::default();
    let sink = Rc::clone(&runs);
    let f = Closure::<dyn FnMut(Array)>::new(move |keys: Array| {
        let keys = keys.iter().filter_map(|k| k.as_string()).collect();
        sink.borrow_mut().push((js_sys::Date::now(), keys));
    });
    (runs, f.into_js_value())
}

fn sections(texts: &[(&str, &str)]) -> JsString {
    texts
        .iter()
        .map(|(k, t)| format!(r#"<section data-section-id="{k}"><p>{t}</p></section>"#))
        .collect::<String>()
        .into()
}

#[wasm_bindgen_test]
async fn updates_in_a_burst_coalesce_and_the_latest_wins() {
    let live = mount("");
    let (runs, on_morph) = recorder();
    let preview = Preview::new(
        live.clone(),
        options(&[("onMorph", on_morph)]).dyn_into().ok(),
    );
    for i in 0..10 {
        preview.update(sections(&[("a", &i.to_string())]));
    }
    assert_eq!(runs.borrow().len(), 1, "the first update runs at once");
    assert_eq!(live.text_content().unwrap(), "0");
    sleep(400).await;
    assert_eq!(runs.borrow().len(), 2, "the other nine became one morph");
    assert_eq!(live.text_content().unwrap(), "9");
    let reported: Vec<Vec<String>> = runs.borrow().iter().map(|(_, k)| k.clone()).collect();
    assert_eq!(reported, vec![vec!["a".to_string()], vec!["a".to_string()]]);
    live.remove();
}

#[wasm_bindgen_test]
async fn the_preview_outlines_what_changed_and_follows_it() {
    let live = mount("");
    let filler: String = (0..30)
        .map(|i| format!(r#"<div style="height:100px">{i}</div>"#))
        .collect();
    let page = |text: &str| {
        JsString::from(format!(
            r#"<section data-section-id="top"><p>top</p></section>{filler}<section data-section-id="end"><p id="pv-end">{text}</p></section>"#
        ))
    };
    let (runs, on_morph) = recorder();
    let opts = options(&[
        ("outline", 150.into()),
        ("follow", true.into()),
        ("onMorph", on_morph),
    ]);
    let preview = Preview::new(live.clone(), opts.dyn_into().ok());
    preview.update(page("a"));
    sleep(250).await; // the first render's outlines (all of it) fade
    let win = web_sys::window().unwrap();
    win.scroll_to_with_x_and_y(0.0, 0.0);
    preview.update(page("b"));
    preview.flush(); // in case the update had to wait its turn
    let last = runs.borrow().last().map(|(_, k)| k.clone());
    assert_eq!(last, Some(vec!["end".to_string()]));
    let end: Element = by_id("pv-end");
    assert!(end.has_attribute(OUTLINE_ATTRIBUTE));
    assert!(!live
        .first_element_child()
        .unwrap()
        .has_attribute(OUTLINE_ATTRIBUTE));
    let rect = end.get_bounding_client_rect();
    let height = win.inner_height().unwrap().as_f64().unwrap();
    assert!(rect.top() >= 0.0 && rect.bottom() <= height + 1.0);
    sleep(300).await;
    assert!(!end.has_attribute(OUTLINE_ATTRIBUTE));
    live.remove();
    win.scroll_to_with_x_and_y(0.0, 0.0);
}

#[wasm_bindgen_test]
async fn a_steady_stream_morphs_at_most_four_times_a_second() {
    let live = mount("");
    let (runs, on_morph) = recorder();
    let preview = Preview::new(
        live.clone(),
        options(&[("onMorph", on_morph)]).dyn_into().ok(),
    );
    let start = js_sys::Date::now();
    let mut i = 0;
    while js_sys::Date::now() - start < 1100.0 {
        preview.update(sections(&[("s", &i.to_string())]));
        i += 1;
        sleep(15).await;
    }
    sleep(300).await;
    let runs = runs.borrow();
    assert!(i > 30, "{i} updates were sent");
    assert!((4..=6).contains(&runs.len()), "{} morphs", runs.len());
    for pair in runs.windows(2) {
        assert!(
            pair[1].0 - pair[0].0 >= 245.0,
            "morphs {} ms apart",
            pair[1].0 - pair[0].0
        );
    }
    assert_eq!(
        live.text_content().unwrap(),
        (i - 1).to_string(),
        "the last update landed"
    );
    live.remove();
}

#[wasm_bindgen_test]
async fn an_update_sent_while_a_morph_runs_lands_after_it() {
    // A custom element whose connectedCallback (run synchronously inside
    // the morph's insertion) sends the preview an update.
    js_sys::eval(
        "customElements.get('x-reenter') || customElements.define('x-reenter', \
         class extends HTMLElement { connectedCallback() { window.__reenter?.(); } })",
    )
    .unwrap();
    let live = mount("");
    let preview = Rc::new(Preview::new(live.clone(), None));
    let inside = Rc::clone(&preview);
    let reenter = Closure::<dyn FnMut()>::new(move || {
        inside.update(sections(&[("a", "sent from inside")]));
    });
    let window = web_sys::window().unwrap();
    Reflect::set(&window, &"__reenter".into(), reenter.as_ref()).unwrap();
    preview.update(sections(&[("a", "<x-reenter></x-reenter>")]));
    assert_eq!(live.query_selector_all("x-reenter").unwrap().length(), 1);
    sleep(400).await;
    assert_eq!(live.text_content().unwrap(), "sent from inside");
    Reflect::delete_property(&window.into(), &"__reenter".into()).unwrap();
    live.remove();
}

#[wasm_bindgen_test]
fn unchanged_sections_are_skipped_and_changed_keys_reported() {
    let live = mount("");
    let preview = Preview::new(live.clone(), None);
    preview.update(sections(&[("a", "1"), ("b", "1"), ("c", "1")]));
    let a = live.first_element_child().unwrap();
    let watch = observe(&a);
    preview.update(sections(&[("a", "1"), ("b", "2"), ("c", "1")]));
    assert_eq!(keys(preview.flush()), vec!["b".to_string()]);
    assert_eq!(
        watch.take_records().length(),
        0,
        "section a was not entered"
    );
    preview.update(sections(&[("b", "2"), ("c", "1")]));
    assert_eq!(
        keys(preview.flush()),
        vec!["a".to_string()],
        "a removed section changed"
    );
    assert_eq!(live.child_element_count(), 2);
    // Single sections: unchanged ones are skipped, changed ones morphed.
    preview.section("c".into(), sections(&[("c", "1")]));
    assert!(
        keys(preview.flush()).is_empty(),
        "the same html is shown already"
    );
    preview.section("c".into(), sections(&[("c", "3")]));
    preview.section("d".into(), sections(&[("d", "new")]));
    assert_eq!(
        keys(preview.flush()),
        vec!["c".to_string(), "d".to_string()]
    );
    assert_eq!(live.text_content().unwrap(), "23new");
    live.remove();
}

#[wasm_bindgen_test]
fn a_whole_document_shows_its_body() {
    let live = mount("");
    let preview = Preview::new(live.clone(), None);
    preview.update("<!doctype html><html><head><title>T</title></head><body><main data-section-id=\"m\">hi</main></body></html>".into());
    assert_eq!(live.inner_html(), r#"<main data-section-id="m">hi</main>"#);
    live.remove();
}

// ---- randomized: the morph equals a fresh render ----

/// xorshift64*: deterministic, seedable, enough for shuffling a page.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

#[derive(Clone)]
struct Component {
    id: u32,
    tag: &'static str,
    class: u32,
    text: u32,
    extra: bool,
}

fn render(page: &[Component]) -> String {
    page.iter()
        .map(|c| {
            let extra = if c.extra { "<em>more</em>" } else { "" };
            format!(
                r#"<{tag} data-component-id="c{id}" class="k{class}"><h3>title {id}</h3><p>text {text}</p>{extra}<input value="v{text}"></{tag}>"#,
                tag = c.tag,
                id = c.id,
                class = c.class,
                text = c.text,
            )
        })
        .collect()
}

#[wasm_bindgen_test]
fn random_edits_to_a_200_component_page_match_a_fresh_render_apart_from_typed_values() {
    let tags = ["div", "article", "section"];
    for seed in 1..=3u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut next_id = 200;
        let mut page: Vec<Component> = (0..200)
            .map(|id| Component {
                id,
                tag: "div",
                class: id % 3,
                text: id,
                extra: id % 2 == 0,
            })
            .collect();
        let live = mount("");
        morph(&live, &render(&page), JsValue::UNDEFINED);
        for step in 0..25 {
            for _ in 0..1 + rng.below(6) {
                let at = rng.below(page.len());
                match rng.below(7) {
                    0 => {
                        page.insert(
                            at,
                            Component {
                                id: next_id,
                                tag: "div",
                                class: 0,
                                text: 0,
                                extra: false,
                            },
                        );
                        next_id += 1;
                    }
                    1 if page.len() > 1 => drop(page.remove(at)),
                    2 => {
                        let c = page.remove(at);
                        let to = rng.below(page.len() + 1);
                        page.insert(to, c);
                    }
                    3 => page[at].text += 1,
                    4 => page[at].class = (page[at].class + 1) % 4,
                    5 => page[at].extra = !page[at].extra,
                    _ => page[at].tag = tags[rng.below(tags.len())],
                }
            }
            // The person types into a few inputs: (input, typed, default then).
            let inputs = live.query_selector_all("input").unwrap();
            let typed: Vec<(HtmlInputElement, String, String)> = (0..3)
                .filter_map(|_| inputs.item(rng.below(inputs.length() as usize) as u32))
                .map(|n| {
                    let input: HtmlInputElement = n.dyn_into().unwrap();
                    let text = format!("typed {step}");
                    input.set_value(&text);
                    let default = input.get_attribute("value").unwrap_or_default();
                    (input, text, default)
                })
                .collect();
            let html = render(&page);
            let before = keyed(&live);
            morph(&live, &html, JsValue::UNDEFINED);
            // Apart from that state, the DOM is a fresh render; the state
            // stays where the server's default did not change.
            for (input, text, default) in typed.iter().filter(|(i, _, _)| i.is_connected()) {
                let now = input.get_attribute("value").unwrap_or_default();
                let expected = if now == *default { text } else { &now };
                assert_eq!(input.value(), *expected, "seed {seed}, step {step}");
            }
            let fresh = mount(&html);
            assert_eq!(
                canonical(&live),
                canonical(&fresh),
                "seed {seed}, step {step}"
            );
            for (k, tag, el) in keyed(&live) {
                if let Some((_, _, old)) = before.iter().find(|(ok, ot, _)| *ok == k && *ot == tag)
                {
                    assert!(*old == el, "seed {seed}, step {step}: {k} was recreated");
                }
            }
            fresh.remove();
        }
        live.remove();
    }
}

fn keyed(root: &Element) -> Vec<(String, String, Element)> {
    let list = root.query_selector_all("[data-component-id]").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .map(|e| {
            (
                e.get_attribute("data-component-id").unwrap(),
                e.tag_name(),
                e,
            )
        })
        .collect()
}
