use super::*;
use serde_json::json;

fn surface(components: Value, data: Value) -> Value {
    json!({"id": "demo", "kind": "surface", "catalog": "blog@1", "components": components, "data": data})
}

fn render(components: Value, data: Value) -> String {
    render_surface(
        &surface(components, data),
        &Catalog::default_blog(),
        Options::default(),
    )
    .html
    .unwrap()
}

#[test]
fn data_is_escaped_as_text_and_for_the_script_element() {
    let html = render(
        json!([{"id": "root", "component": "Text", "props": {"text": {"path": "/evil"}}}]),
        json!({"evil": "<img src=x onerror=alert(1)></script><script>alert(2)</script>"}),
    );
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;"));
    assert!(!html.contains("<img"));
    assert_eq!(
        html.matches("</script>").count(),
        1,
        "only the state script closes: {html}"
    );
    assert!(html.contains(r#"\u003c/script\u003e"#));
}

#[test]
fn the_state_script_round_trips_through_json() {
    let data = json!({"a": "<&>\u{2028}\u{2029}'\"", "n": [1, 2.5, null, true]});
    let text = script_json(&data);
    assert!(!text.contains('<') && !text.contains('&') && !text.contains('\u{2028}'));
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), data);
}

#[test]
fn bindings_become_pointers_or_json() {
    let html = render(
        json!([
            {"id": "root", "component": "Stack", "children": ["a", "b"]},
            {"id": "a", "component": "Heading", "props": {"level": 3, "text": {"path": "/t"}}},
            {"id": "b", "component": "Text", "props": {"text": {"call": "formatCurrency", "args": {"value": {"path": "/p"}, "currency": "EUR"}}}}
        ]),
        json!({"t": "Title", "p": 9}),
    );
    assert!(
        html.contains(r#"<h3 data-ch-text="/t">Title</h3>"#),
        "{html}"
    );
    assert!(html.contains(
        r#"data-ch-text="{&quot;call&quot;:&quot;formatCurrency&quot;,&quot;args&quot;:{&quot;value&quot;:{&quot;path&quot;:&quot;/p&quot;},&quot;currency&quot;:&quot;EUR&quot;}}">€9.00</p>"#
    ), "{html}");
}

#[test]
fn a_disclosure_bound_to_state_opens_with_it() {
    let html = render(
        json!([
            {"id": "root", "component": "Stack", "children": ["d", "e"]},
            {"id": "d", "component": "Disclosure", "props": {"summary": "Q", "open": {"path": "/faq"}}, "children": []},
            {"id": "e", "component": "Disclosure", "props": {"summary": "R", "open": true}, "children": []}
        ]),
        json!({"faq": true}),
    );
    let bound = r#"<details class="ch-disclosure" data-ch-attr="{&quot;open&quot;:{&quot;path&quot;:&quot;/faq&quot;}}" open>"#;
    assert!(html.contains(bound), "{html}");
    assert!(
        html.contains(r#"<details class="ch-disclosure" open>"#),
        "a literal open is only the flag: {html}"
    );
}

#[test]
fn a_page_is_refused_with_what_to_render_instead() {
    let page = json!({"sections": [surface(json!([{"id": "root", "component": "Stack", "children": []}]), json!({}))]});
    let out = render_surface(&page, &Catalog::default_blog(), Options::default());
    assert_eq!(out.html, None);
    let codes: Vec<_> = out
        .issues
        .iter()
        .map(|i| (i.code, i.path.as_str()))
        .collect();
    assert_eq!(codes, [("invalid_surface", "")]);
    assert!(out.issues[0].message.contains("surface sections"));
}

#[test]
fn hidden_parts_are_rendered_hidden() {
    let html = render(
        json!([
            {"id": "root", "component": "Stack", "children": ["y", "m"]},
            {"id": "y", "component": "Text", "props": {"text": "yearly"}, "visible": {"eq": [{"path": "/billing"}, "yearly"]}},
            {"id": "m", "component": "Text", "props": {"text": "monthly"}, "visible": {"eq": [{"path": "/billing"}, "monthly"]}}
        ]),
        json!({"billing": "monthly"}),
    );
    assert!(html.contains(r#"yearly&quot;]}" hidden>"#), "{html}");
    assert!(html.contains(r#"monthly&quot;]}">"#), "{html}");
}

#[test]
fn form_fields_carry_models_checks_and_messages() {
    let html = render(
        json!([
            {"id": "root", "component": "Form", "children": ["email", "agree", "plan", "seats"], "props": {"submitLabel": "Send", "onSubmit": {"action": "set", "path": "/sent", "value": true}}},
            {"id": "email", "component": "TextField", "props": {"label": "Email", "type": "email", "value": {"path": "/email"},
              "checks": [{"call": "email", "args": {"value": {"path": "/email"}}, "message": "Enter an email address"}]}},
            {"id": "agree", "component": "Checkbox", "props": {"label": "I agree", "checked": {"path": "/agree"}}},
            {"id": "plan", "component": "Toggle", "props": {"options": ["monthly", "yearly"], "value": {"path": "/billing"}}},
            {"id": "seats", "component": "Slider", "props": {"label": "Seats", "min": 1, "max": 50, "value": {"path": "/seats"}}}
        ]),
        json!({"email": "", "agree": true, "billing": "yearly", "seats": 3, "sent": false}),
    );
    assert!(html.contains(r#"<input type="email" value="" data-ch-model="/email" aria-describedby="demo-email-msg" data-ch-checks="#), "{html}");
    assert!(
        html.contains(r#"<span id="demo-email-msg" class="ch-message" data-ch-message></span>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<input type="checkbox" checked data-ch-model="/agree">"#),
        "{html}"
    );
    assert!(
        html.contains(r#"name="demo-plan" value="yearly" data-ch-model="/billing" checked>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"name="demo-plan" value="monthly" data-ch-model="/billing">"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<input type="range" min="1" max="50" value="3" data-ch-model="/seats">"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<output data-ch-text="/seats">3</output>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"data-ch-action="{&quot;action&quot;:&quot;set&quot;"#),
        "{html}"
    );
}

#[test]
fn counters_increment_within_their_bounds() {
    let html = render(
        json!([{"id": "root", "component": "Counter", "props": {"label": "Seats", "value": {"path": "/n"}, "min": 1, "max": 5}}]),
        json!({"n": 2}),
    );
    assert!(html.contains(r#"{&quot;action&quot;:&quot;increment&quot;,&quot;path&quot;:&quot;/n&quot;,&quot;by&quot;:-1.0,&quot;min&quot;:1,&quot;max&quot;:5}"#), "{html}");
    assert!(
        html.contains(r#"<output data-ch-text="/n">2</output>"#),
        "{html}"
    );
}

#[test]
fn only_what_validation_flags_is_left_out() {
    let render_flagged = |components: Value| {
        let out = render_surface(
            &surface(components, json!({})),
            &Catalog::default_blog(),
            Options::default(),
        );
        assert!(
            out.issues.iter().all(|i| i.severity != Severity::Error),
            "{:?}",
            out.issues
        );
        assert!(!out.issues.is_empty(), "something is flagged");
        out.html.unwrap()
    };
    // An unknown component: left out, its children shown in its place.
    let html = render_flagged(json!([
        {"id": "root", "component": "Stack", "children": ["ok", "bad"]},
        {"id": "ok", "component": "Text", "props": {"text": "kept"}},
        {"id": "bad", "component": "Marquee", "props": {"text": "dropped"}, "children": ["inner"]},
        {"id": "inner", "component": "Text", "props": {"text": "inside"}}
    ]));
    assert!(html.contains("kept") && !html.contains("dropped"), "{html}");
    assert!(html.contains("inside"), "{html}");
    // On root: the surface is not blank.
    let html = render_flagged(json!([
        {"id": "root", "component": "Stak", "children": ["t"]},
        {"id": "t", "component": "Text", "props": {"text": "still here"}}
    ]));
    assert!(html.contains("still here"), "{html}");
    // A child not allowed where it is: that child alone, not its parent.
    let html = render_flagged(json!([
        {"id": "root", "component": "Stack", "children": ["form", "after"]},
        {"id": "form", "component": "Form", "props": {"submitLabel": "Send", "onSubmit": {"action": "reset"}},
         "children": ["name", "stray"]},
        {"id": "name", "component": "TextField", "props": {"label": "Your name", "value": {"path": "/name"}}},
        {"id": "stray", "component": "Text", "props": {"text": "not a field"}},
        {"id": "after", "component": "Text", "props": {"text": "after the form"}}
    ]));
    assert!(
        html.contains("Your name") && html.contains("Send"),
        "{html}"
    );
    assert!(!html.contains("not a field"), "{html}");
    assert!(html.contains("after the form"), "{html}");
    // Children on a component that takes none: the component, without them.
    let html = render_flagged(json!([
        {"id": "root", "component": "Stack", "children": ["t"]},
        {"id": "t", "component": "Text", "props": {"text": "the text"}, "children": ["x"]},
        {"id": "x", "component": "Text", "props": {"text": "a child it cannot have"}}
    ]));
    assert!(html.contains("the text"), "{html}");
    assert!(!html.contains("a child it cannot have"), "{html}");
    // An invalid prop: the component, without that prop.
    let html = render_flagged(json!([
        {"id": "root", "component": "Stack", "children": ["t"]},
        {"id": "t", "component": "Text", "props": {"text": "toned", "tone": "neon"}}
    ]));
    assert!(html.contains("toned") && !html.contains("neon"), "{html}");
}

#[test]
fn surfaces_with_errors_are_refused() {
    let doc = surface(
        json!([{"id": "root", "component": "Link", "props": {"text": "x", "href": "javascript:alert(1)"}}]),
        json!({}),
    );
    let out = render_surface(&doc, &Catalog::default_blog(), Options::default());
    assert_eq!(out.html, None);
    assert!(
        out.issues.iter().any(|i| i.code == "unsafe_href"),
        "{out:?}"
    );
}

#[test]
fn every_catalog_example_renders_as_its_golden_file() {
    let catalog = Catalog::default_blog();
    let mut named = Vec::new();
    for entry in catalog.entries() {
        let doc = surface(
            json!([{"id": "root", "component": entry.name, "props": entry.example}]),
            json!({
                "billing": "monthly", "seats": 3, "country": "France", "email": "", "open": false, "tab": "One"
            }),
        );
        let out = render_surface(&doc, &catalog, Options::default());
        let html = out
            .html
            .unwrap_or_else(|| panic!("{}: {:?}", entry.name, out.issues));
        assert!(html.lines().count() >= 3, "{}: {html}", entry.name);
        assert!(
            !html.contains("<script>") && !html.contains(" on"),
            "{}: {html}",
            entry.name
        );
        golden(&entry.name, &html);
        named.push([entry.name.as_str(), ".html"].concat());
    }
    // No golden file is left of an entry the catalog no longer has.
    let mut files: Vec<String> = std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    named.sort();
    assert_eq!(files, named);
}

/// `crates/render/tests/golden/`: the HTML of every catalog example,
/// reviewed once and then compared byte for byte.
fn golden_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// `html` equals the golden file of `name`; with `SURFACES_UPDATE_GOLDEN`
/// set, the file is written instead (then review the diff).
fn golden(name: &str, html: &str) {
    let file = golden_dir().join([name, ".html"].concat());
    if std::env::var_os("SURFACES_UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&file, html).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (SURFACES_UPDATE_GOLDEN=1 cargo test -p surfaces-render writes it)",
            file.display()
        )
    });
    assert_eq!(
        html,
        expected,
        "{name}: the HTML differs from {}",
        file.display()
    );
}

#[test]
fn tabs_are_a_radio_group_that_works_without_javascript() {
    let html = render(
        json!([
            {"id": "root", "component": "Tabs", "children": ["one", "two"], "props": {"value": {"path": "/tab"}}},
            {"id": "one", "component": "TabPanel", "props": {"label": "One"}, "children": ["t1"]},
            {"id": "two", "component": "TabPanel", "props": {"label": "Two"}, "children": ["t2"]},
            {"id": "t1", "component": "Text", "props": {"text": "first"}},
            {"id": "t2", "component": "Text", "props": {"text": "second"}}
        ]),
        json!({"tab": "Two"}),
    );
    assert!(
        html.contains(r#"id="demo-root-1" value="Two" data-ch-model="/tab" checked>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<label for="demo-root-0">One</label>"#),
        "{html}"
    );
    assert!(html.contains("first") && html.contains("second"));
}

#[test]
fn markdown_bodies_render_each_surface_and_refuse_errors() {
    let catalog = Catalog::default_blog();
    let body = "Intro\n\n```surface {\"id\":\"a\"}\n{\"id\":\"root\",\"component\":\"Text\",\"props\":{\"text\":\"one\"}}\n```\n\n~~~surface {\"id\":\"b\"}\n{\"id\":\"root\",\"component\":\"Text\",\"props\":{\"text\":\"two\"}}\n~~~\n";
    let html = render_markdown(body, &catalog, Options::default())
        .html
        .unwrap();
    let a = html.find(r#"data-ch-surface="a""#).unwrap();
    let b = html.find(r#"data-ch-surface="b""#).unwrap();
    assert!(a < b && html.contains("one") && html.contains("two") && !html.contains("Intro"));
    let broken = "```surface {\"id\":\"a\"}\nnot json\n```\n";
    let issues = render_markdown(broken, &catalog, Options::default()).issues;
    assert!(
        issues.iter().any(|i| i.code == "invalid_line"),
        "{issues:?}"
    );
}

/// SPEC.md section 8, one meaning per fence line: a leading byte order mark
/// is no text and a lone CR ends a line, for the validator and the renderer
/// alike (both read lines with core's `fence::lines`), so a body the
/// validator passes renders its surface, and a broken line is found at
/// the same line either way.
#[test]
fn byte_order_marks_and_every_line_ending_read_alike_for_validator_and_renderer() {
    let catalog = Catalog::default_blog();
    let lines = [
        "Intro",
        "```surface {\"id\":\"a\"}",
        "{\"data\":{\"n\":\"one\"}}",
        "{\"id\":\"root\",\"component\":\"Text\",\"props\":{\"text\":{\"path\":\"/n\"}}}",
        "```",
        "",
    ];
    for bom in ["", "\u{feff}"] {
        for ending in ["\n", "\r\n", "\r"] {
            let body = [bom, &lines.join(ending)].concat();
            let found = read_body(&body);
            assert_eq!(found.surfaces.len(), 1, "{body:?}");
            assert_eq!(found.surfaces[0].component_lines, [4], "{body:?}");
            let issues = validate_markdown(&body, &catalog);
            assert!(issues.is_empty(), "{body:?}: {issues:?}");
            let out = render_markdown(&body, &catalog, Options::default());
            assert_eq!(out.issues, issues);
            let html = out.html.unwrap_or_default();
            assert!(
                html.contains(r#"data-ch-surface="a""#) && html.contains(">one</p>"),
                "{body:?}: {html}"
            );
            let broken = body.replace("{\"data\"", "not json {\"data\"");
            let issues = validate_markdown(&broken, &catalog);
            let at: Vec<_> = issues.iter().map(|i| (i.code, i.line)).collect();
            assert_eq!(
                at,
                [("invalid_line", Some(3)), ("missing_data", Some(4))],
                "{broken:?}"
            );
            let out = render_markdown(&broken, &catalog, Options::default());
            assert_eq!((out.html, out.issues), (None, issues));
        }
    }
    // Mixed endings in one body.
    let body = [
        "\u{feff}", lines[0], "\r", lines[1], "\r\n", lines[2], "\n", lines[3], "\r", lines[4],
    ]
    .concat();
    assert_eq!(read_body(&body).surfaces.len(), 1);
    assert!(render_markdown(&body, &catalog, Options::default())
        .html
        .is_some_and(|h| h.contains(">one</p>")));
}

#[test]
fn asset_sources_are_written_as_the_validator_reads_them() {
    for (src, written) in [
        ("asset:team", "/assets/team"),
        (" ASSET:team\n", "/assets/team"),
        ("  /img/a.png\t", "/img/a.png"),
    ] {
        let html = render(
            json!([{"id": "root", "component": "Image", "props": {"src": src, "alt": "a"}}]),
            json!({}),
        );
        assert!(
            html.contains(&format!(r#"src="{written}""#)),
            "{src:?}: {html}"
        );
    }
}

#[test]
fn flags_come_back_beside_the_html() {
    let doc = surface(
        json!([
            {"id": "root", "component": "Stack", "children": ["t", "x"]},
            {"id": "t", "component": "Text", "props": {"text": "kept"}},
            {"id": "x", "component": "Nope"}
        ]),
        json!({}),
    );
    let out = render_surface(&doc, &Catalog::default_blog(), Options::default());
    assert!(out.html.unwrap().contains("kept"));
    let codes: Vec<_> = out.issues.iter().map(|i| (i.code, i.severity)).collect();
    assert_eq!(codes, [("unknown_component", Severity::Flag)]);
}

/// A host that formats numbers as the locale it was asked for, to see which.
struct Echo;
impl Host for Echo {
    fn number_to_string(&self, n: f64) -> String {
        PlainHost.number_to_string(n)
    }
    fn format_date(
        &self,
        _: function::DateInput<'_>,
        _: function::DateStyle,
        l: Option<&str>,
    ) -> String {
        l.unwrap_or("none").into()
    }
    fn format_number(&self, _: f64, _: function::NumberOptions, l: Option<&str>) -> String {
        l.unwrap_or("none").into()
    }
    fn format_currency(&self, _: f64, _: &str, l: Option<&str>) -> String {
        l.unwrap_or("none").into()
    }
    fn plural_is_one(&self, _: f64, _: Option<&str>) -> bool {
        false
    }
}

#[test]
fn the_locale_formats_calls_without_one_and_is_written_as_lang() {
    let price = |locale: Option<&str>| {
        let mut args = json!({"value": 9, "currency": "EUR"});
        if let Some(l) = locale {
            args["locale"] = json!(l);
        }
        json!({"call": "formatCurrency", "args": args})
    };
    let doc = surface(
        json!([
            {"id": "root", "component": "Stack", "children": ["a", "b"]},
            {"id": "a", "component": "Text", "props": {"text": price(None)}},
            {"id": "b", "component": "Text", "props": {"text": price(Some("fr-FR"))}}
        ]),
        json!({}),
    );
    let options = Options {
        host: &Echo,
        locale: Some("de-DE"),
        mode: Mode::Published,
    };
    let html = render_surface(&doc, &Catalog::default_blog(), options)
        .html
        .unwrap();
    assert!(
        html.starts_with(r#"<div data-ch-surface="demo" lang="de-DE">"#),
        "{html}"
    );
    assert!(
        html.contains(">de-DE</p>") && html.contains(">fr-FR</p>"),
        "{html}"
    );
    let plain = render_surface(&doc, &Catalog::default_blog(), Options::default())
        .html
        .unwrap();
    assert!(
        plain.contains(">€9.00</p>") && !plain.contains("lang="),
        "{plain}"
    );
}

#[test]
fn what_a_surface_leaves_unsaid_takes_the_catalogs_default() {
    // A plan's currency: blog@1's default is EUR.
    let html = render(
        json!([{"id": "root", "component": "pricing-table", "props": {"plans": [
            {"name": "Solo", "price": 9},
            {"name": "Team", "price": 29, "currency": "USD"}
        ]}}]),
        json!({}),
    );
    assert!(html.contains("€9.00"), "{html}");
    assert!(html.contains("$29.00"), "{html}");
}

#[test]
fn a_button_with_an_href_and_an_action_keeps_both() {
    let html = render(
        json!([{"id": "root", "component": "Button", "props": {
            "label": "Read on", "href": "#more",
            "onClick": {"action": "set", "path": "/open", "value": true}}}]),
        json!({"open": false}),
    );
    assert!(
        html.contains(r##"<a class="ch-button" href="#more" data-ch-action="{&quot;action&quot;:&quot;set&quot;,&quot;path&quot;:&quot;/open&quot;,&quot;value&quot;:true}">Read on</a>"##),
        "{html}"
    );
}

#[test]
fn a_tab_panels_visible_shows_or_hides_its_tab_and_panel() {
    let html = render(
        json!([
            {"id": "root", "component": "Tabs", "children": ["one", "two"]},
            {"id": "one", "component": "TabPanel", "props": {"label": "One"}, "children": ["t1"]},
            {"id": "two", "component": "TabPanel", "props": {"label": "Two"}, "children": ["t2"],
             "visible": {"path": "/pro"}},
            {"id": "t1", "component": "Text", "props": {"text": "first"}},
            {"id": "t2", "component": "Text", "props": {"text": "second"}}
        ]),
        json!({"pro": false}),
    );
    // Its radio, its label and its panel each carry the condition, hidden
    // (on the elements: a wrapper would break the tab styles' selectors).
    let condition = r#"data-ch-visible="{&quot;path&quot;:&quot;/pro&quot;}" hidden"#;
    assert_eq!(html.matches(condition).count(), 3, "{html}");
    assert!(
        html.contains(&[r#"id="demo-root-1" value="Two" "#, condition].concat()),
        "{html}"
    );
    assert!(
        html.contains(&[r#"<label for="demo-root-1" "#, condition, ">Two</label>"].concat()),
        "{html}"
    );
    assert!(
        html.contains(&[r#"<div class="ch-tabpanel" "#, condition, ">"].concat()),
        "{html}"
    );
    assert!(!html.contains("display:contents"), "{html}");
}

#[test]
fn a_video_is_a_player_only_for_a_media_file() {
    // The catalog's own example, a YouTube page: a link to it, no dead player.
    let html = render(
        json!([{"id": "root", "component": "Video", "props": {
            "src": "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "title": "Launch talk", "poster": "asset:talk.jpg"}}]),
        json!({}),
    );
    assert!(
        html.contains(r#"<a class="ch-video" href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"><img src="/assets/talk.jpg" alt="">Launch talk</a>"#),
        "{html}"
    );
    assert!(!html.contains("<video"), "{html}");
    for page in [
        "https://vimeo.com/76979871",
        "https://youtu.be/dQw4w9WgXcQ",
        "/talks/launch",
    ] {
        let html = render(
            json!([{"id": "root", "component": "Video", "props": {"src": page, "title": "T"}}]),
            json!({}),
        );
        assert!(
            !html.contains("<video") && html.contains("<a class=\"ch-video\""),
            "{page}: {html}"
        );
    }
    for file in [
        "/media/launch.mp4",
        "https://cdn.example.com/a.WEBM?v=2",
        "/v/clip.mov#t=3",
    ] {
        let html = render(
            json!([{"id": "root", "component": "Video", "props": {"src": file, "title": "T"}}]),
            json!({}),
        );
        assert!(html.contains("<video class=\"ch-video\""), "{file}: {html}");
    }
}

fn preview(doc: &Value, ghost: Option<Ghost>) -> String {
    let options = Options {
        mode: Mode::Preview { ghost },
        ..Options::default()
    };
    render_surface(doc, &Catalog::default_blog(), options)
        .html
        .expect("a valid surface")
}

#[test]
fn a_preview_names_the_section_and_every_component() {
    let doc = surface(
        json!([
            {"id": "root", "component": "Stack", "children": ["title", "tabs"]},
            {"id": "title", "component": "Heading", "props": {"text": "Hi"}},
            {"id": "tabs", "component": "Tabs", "children": ["one"]},
            {"id": "one", "component": "TabPanel", "props": {"label": "One"}, "children": ["body"]},
            {"id": "body", "component": "Text", "props": {"text": "x"}, "visible": {"eq": [1, 1]}}
        ]),
        json!({}),
    );
    let html = preview(&doc, None);
    assert!(
        html.starts_with(r#"<div data-ch-surface="demo" data-section-id="demo">"#),
        "{html}"
    );
    for id in ["root", "title", "tabs", "one", "body"] {
        let attr = format!(r#"data-component-id="{id}""#);
        assert_eq!(html.matches(&attr).count(), 1, "{id} in {html}");
    }
    // On the outer element itself, never on a display:contents wrapper
    // (which has no box to find by a point).
    assert!(html.contains(r#"<h2 data-component-id="title""#), "{html}");
    assert!(
        html.contains(
            r#"<div style="display:contents" data-ch-visible="{&quot;eq&quot;:[1,1]}">
<p data-component-id="body""#
        ),
        "{html}"
    );
    // A published page has none of it.
    let published = render_surface(&doc, &Catalog::default_blog(), Options::default());
    let published = published.html.unwrap();
    assert!(!published.contains("data-component-id") && !published.contains("data-section-id"));
}

#[test]
fn a_preview_draws_what_is_flagged_as_a_labelled_placeholder() {
    let doc = surface(
        json!([
            {"id": "root", "component": "Stack", "children": ["odd", "title"]},
            {"id": "odd", "component": "Nope", "children": ["inner"]},
            {"id": "inner", "component": "Text", "props": {"text": "still here"}},
            {"id": "title", "component": "Heading", "props": {"text": "Hi", "level": 9}, "children": ["kid"]},
            {"id": "kid", "component": "Text", "props": {"text": "not allowed"}}
        ]),
        json!({}),
    );
    let html = preview(&doc, None);
    // The unknown component: a placeholder with its children inside.
    let odd = html.find(r#"data-ch-placeholder="unknown_component" data-component-id="odd""#);
    let inner = html.find("still here");
    assert!(odd.is_some() && inner > odd, "{html}");
    assert!(
        html.contains(r#"<span class="ch-placeholder-label">Nope &quot;odd&quot;: "#),
        "{html}"
    );
    // The invalid prop: the heading without it, and a placeholder naming it.
    assert!(html.contains(r#"<h2 data-component-id="title""#), "{html}");
    // It names the heading without carrying its id: one element per id.
    assert!(
        html.contains(r#"data-ch-placeholder="invalid_prop" data-ch-placeholder-of="title""#),
        "{html}"
    );
    assert_eq!(
        html.matches(r#"data-component-id="title""#).count(),
        1,
        "{html}"
    );
    // The child not allowed: its placeholder, not its content.
    assert!(
        html.contains(r#"data-ch-placeholder="children_not_allowed" data-component-id="kid""#),
        "{html}"
    );
    assert!(!html.contains("not allowed</p>"), "{html}");
}

/// A ghost is drawn as far as it passes the rules: an unsafe href or src,
/// or a value the catalog refuses, never reaches the preview's markup.
#[test]
fn a_ghost_leaves_out_a_prop_the_rules_refuse() {
    let doc = surface(
        json!([{"id": "root", "component": "Stack", "children": []}]),
        json!({}),
    );
    for ghost in [
        json!({"id": "lk", "component": "Link", "props": {"text": "Go", "href": "javascript:alert(1)"}}),
        json!({"id": "im", "component": "Image", "props": {"src": "javascript:alert(1)", "alt": "A"}}),
        json!({"id": "bt", "component": "Button", "props": {"label": "Go", "variant": "bad", "onClick": {"action": "navigate", "href": "javascript:alert(1)"}}}),
    ] {
        let html = preview(
            &doc,
            Some(Ghost {
                op: "add",
                path: "/components/-",
                component: Some(&ghost),
            }),
        );
        assert!(html.contains("data-ch-ghost"), "{html}");
        assert!(
            !html.contains("javascript:") && !html.contains("ch-variant-bad"),
            "{html}"
        );
    }
    // A name the catalog lacks: its labelled placeholder, as the ghost.
    let typo = json!({"id": "go", "component": "Buton", "props": {"label": "Go"}});
    let ghost = Ghost {
        op: "add",
        path: "/components/-",
        component: Some(&typo),
    };
    let html = preview(&doc, Some(ghost));
    assert!(
        html.contains(r#"data-ch-placeholder="unknown_component""#)
            && html.contains("Buton &quot;go&quot;: "),
        "{html}"
    );
    assert!(
        html.contains(r#"data-component-id="go" data-ch-ghost"#),
        "{html}"
    );
}

#[test]
fn a_preview_draws_the_ghost_where_it_will_land() {
    let new = json!({"id": "cta", "component": "Button", "props": {"label": "Sta"}});
    let add = |path| Ghost {
        op: "add",
        path,
        component: Some(&new),
    };
    let alone = surface(
        json!([{"id": "root", "component": "Stack", "children": ["title"]},
        {"id": "title", "component": "Heading", "props": {"text": "Hi"}}]),
        json!({}),
    );
    // Added: drawn last in root, with what was read of it.
    let html = preview(&alone, Some(add("/components/-")));
    let ghost = html.find(r#"data-component-id="cta" data-ch-ghost"#);
    assert!(ghost.is_some() && ghost > html.find("Hi</h2>"), "{html}");
    assert!(html.contains(">Sta<"), "{html}");
    // Replacing a component: drawn in its place.
    let replace = Ghost {
        op: "replace",
        path: "/components/1",
        component: Some(&new),
    };
    let html = preview(&alone, Some(replace));
    assert!(
        !html.contains("Hi</h2>") && html.contains("data-ch-ghost"),
        "{html}"
    );
    // Changing one's prop: that component is marked.
    let prop = Ghost {
        op: "replace",
        path: "/components/1/props/text",
        component: None,
    };
    let html = preview(&alone, Some(prop));
    assert!(
        html.contains(r#"<h2 data-component-id="title" data-ch-ghost>"#),
        "{html}"
    );
    // A component named by id, as models write paths: the same places.
    let by_id = Ghost {
        op: "replace",
        path: "/components/title/props/text",
        component: None,
    };
    let html = preview(&alone, Some(by_id));
    assert!(
        html.contains(r#"<h2 data-component-id="title" data-ch-ghost>"#),
        "{html}"
    );
    let by_id = Ghost {
        op: "replace",
        path: "/components/title",
        component: Some(&new),
    };
    let html = preview(&alone, Some(by_id));
    assert!(
        !html.contains("Hi</h2>") && html.contains("data-ch-ghost"),
        "{html}"
    );
    // An added component with an id the surface has already (the pipeline
    // will refuse it): drawn, but the id stays on the component holding it.
    let twin = json!({"id": "title", "component": "Text", "props": {"text": "Twin"}});
    let html = preview(
        &alone,
        Some(Ghost {
            op: "add",
            path: "/components/-",
            component: Some(&twin),
        }),
    );
    assert!(
        html.contains("<p data-ch-ghost class=") && html.contains(">Twin</p>"),
        "{html}"
    );
    assert_eq!(
        html.matches(r#"data-component-id="title""#).count(),
        1,
        "{html}"
    );
    // A path that names nothing draws nothing.
    let nowhere = Ghost {
        op: "add",
        path: "/data/x",
        component: None,
    };
    assert!(!preview(&alone, Some(nowhere)).contains("data-ch-ghost"));
}

#[test]
fn a_published_page_marks_the_components_scroll_to_names() {
    let doc = surface(
        json!([
            {"id": "root", "component": "Stack", "children": ["go", "intro", "faq"]},
            {"id": "go", "component": "Button", "props": {"label": "FAQ", "onClick": [{"action": "scrollTo", "target": "#faq"}]}},
            {"id": "intro", "component": "Text", "props": {"text": "Hello"}},
            {"id": "faq", "component": "Heading", "props": {"text": "Questions"}}
        ]),
        json!({}),
    );
    let html = render_surface(&doc, &Catalog::default_blog(), Options::default())
        .html
        .unwrap();
    assert!(
        html.contains(r#"<h2 data-component-id="faq">Questions</h2>"#),
        "{html}"
    );
    assert_eq!(html.matches("data-component-id").count(), 1, "{html}");
}

#[test]
fn a_chart_is_an_inline_svg_of_its_series_with_its_table() {
    let chart = |kind: &str, series: Value| {
        render(
            json!([{"id": "root", "component": "Chart", "props": {"kind": kind, "title": "Sales", "labels": ["a", "b", "c"], "series": series}}]),
            json!({}),
        )
    };
    // Bars grouped per label, one class per series, negative values below zero.
    let html = chart(
        "bar",
        json!([{"label": "x", "values": [4, -2, 2]}, {"label": "y", "values": [1, 2]}]),
    );
    assert!(html.contains(r#"<figure class="ch-chart ch-kind-bar"><svg class="ch-chart-plot" viewBox="0 0 1000 500" aria-hidden="true" focusable="false">"#), "{html}");
    assert_eq!(
        html.matches("<rect ").count(),
        5,
        "a missing value draws no bar: {html}"
    );
    // Zero is at 4/6 of the height: 333; -2 reaches the bottom.
    assert!(
        html.contains(r#"<rect x="388" y="333" width="111" height="167">"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<g class="ch-series ch-series-1">"#),
        "{html}"
    );
    // Its table follows, the text alternative.
    assert!(
        html.contains("<caption>Sales</caption>")
            && html.ends_with("</table>\n</figure>\n</div>\n"),
        "{html}"
    );
    // A line per series; an area closed down to zero.
    let line = chart("line", json!([{"label": "x", "values": [0, 5, 10]}]));
    assert!(line.contains(r#"<polyline class="ch-series ch-series-0" points="166,500 499,250 832,0" fill="none" stroke="currentColor">"#), "{line}");
    let area = chart("area", json!([{"label": "x", "values": [0, 5, 10]}]));
    assert!(
        area.contains(r#"points="166,500 499,250 832,0 832,500 166,500""#),
        "{area}"
    );
    // A pie has no plot: its table alone.
    let pie = chart("pie", json!([{"label": "x", "values": [1, 2, 3]}]));
    assert!(!pie.contains("<svg") && pie.contains("<table"), "{pie}");
}

#[test]
fn escapes_replace_exactly_what_a_character_walk_replaces() {
    // The walk a character at a time that replace_runs stands in for.
    let walk = |text: &str, table: &[(char, &str)]| -> String {
        text.chars()
            .map(|c| {
                table
                    .iter()
                    .find(|(k, _)| *k == c)
                    .map_or(c.to_string(), |(_, w)| w.to_string())
            })
            .collect()
    };
    let html = [
        ('&', "&amp;"),
        ('<', "&lt;"),
        ('>', "&gt;"),
        ('"', "&quot;"),
        ('\'', "&#39;"),
    ];
    let script = [
        ('<', "\\u003c"),
        ('>', "\\u003e"),
        ('&', "\\u0026"),
        ('\u{2028}', "\\u2028"),
        ('\u{2029}', "\\u2029"),
    ];
    // Each piece alone and every pair, at the start, the end and between
    // text: ASCII, the specials, characters whose UTF-8 begins as U+2028's
    // does (U+2020, U+2027, U+202A), astral ones.
    let pieces = [
        "",
        "a",
        "plain text",
        "&",
        "<",
        ">",
        "\"",
        "'",
        "\u{2028}",
        "\u{2029}",
        "\u{2020}",
        "\u{2027}",
        "\u{202A}",
        "é",
        "🙂",
        "</script>",
    ];
    for a in pieces {
        for b in pieces {
            let text = [a, "x", b, a].concat();
            let mut out = String::new();
            escape_into(&mut out, &text);
            assert_eq!(out, walk(&text, &html), "{text:?}");
            let json = json!({ "s": text });
            assert_eq!(
                script_json(&json),
                walk(&validator_wasm::json_text(&json), &script),
                "{text:?}"
            );
        }
    }
}

#[test]
fn a_repeated_id_finds_its_first_component() {
    // Renderer::find answers the first component of an id, from the sorted ids.
    let components: Vec<Value> = [("b", 0), ("a", 1), ("b", 2), ("c", 3), ("a", 4)]
        .iter()
        .map(|(id, n)| json!({"id": id, "n": n}))
        .collect();
    let ids = ids_of(&components);
    for id in ["a", "b", "c", "d", ""] {
        let first = components.iter().position(|c| c["id"] == id);
        assert_eq!(first_with(&ids, id), first, "{id}");
    }
}

#[test]
fn bound_lists_past_the_catalog_s_limits_cost_no_product() {
    // A chart's labels and series bound to long lists in the data (each
    // within the data's limit): drawn at most as the catalog allows them
    // (100 labels, 8 series), so the work is linear, not their product.
    let n = 9_000;
    let html = render(
        json!([{"id": "root", "component": "Chart", "props": {"kind": "bar", "labels": {"path": "/l"}, "series": {"path": "/s"}}}]),
        json!({"l": vec![""; n], "s": vec![json!({}); n]}),
    );
    assert!(html.len() < 200_000, "{} bytes", html.len());
    // A concat nested four deep, 18 values a level, over 60 KB of text:
    // no answer (the text would be gigabytes), so the element is empty.
    let mut v = json!({"path": "/big"});
    for _ in 0..4 {
        v = json!({"call": "concat", "args": {"values": vec![v; 18]}});
    }
    let written = v.to_string().len();
    let html = render(
        json!([{"id": "root", "component": "Text", "props": {"text": v}}]),
        json!({"big": "z".repeat(60_000)}),
    );
    // The expression itself is written (escaped) for the runtime, and the
    // data once in the state: nothing grows past the input.
    assert!(
        html.len() < 3 * written + 200_000,
        "{} bytes for {written}",
        html.len()
    );
}
