//! `surfaces render [--catalog FILE] [--locale TAG] [--interactive] FILE`: a
//! surface (`.json`), or the surfaces of a markdown body (`.md` or
//! `.markdown`), as the published-page HTML of SPEC.md section 10 (text on
//! standard output). What a function formats is formatted from CLDR
//! ([`surfaces_intl::Cldr`]) in `--locale` (a BCP 47 tag, written on each
//! surface as `lang`, so the runtime formats updates in it too) where a
//! call names no locale of its own, else in en-US;
//! with `--interactive`, instead, `{"file", "interactive"}`: whether a page
//! showing it needs the interaction runtime (a field that writes state or
//! a button that runs an action), so a site adds the runtime's script only
//! where it does. A file is read as
//! `surfaces validate` reads it; a surface with errors (text that is not
//! JSON or is larger than 2 MiB included) is not rendered: its issues are
//! printed as JSON (`{"ok": false, "file", "issues"}`) and the exit code
//! is 1.

use crate::input::{
    fail, is_markdown, load_catalog, option, options, read, write_out, Failure, Usage,
};
use std::process::ExitCode;
use validator_wasm::issues_json;

/// What the command ends with.
#[derive(Debug)]
enum Outcome {
    /// The HTML (exit 0).
    Html(String),
    /// The issues that refused the surface, as JSON (exit 1).
    Refused(String),
    /// Bad usage or unreadable input (exit 2).
    Failed(String),
}

/// Runs the command on its arguments (after `render`).
pub fn run(args: &[String]) -> ExitCode {
    match execute(args) {
        Outcome::Html(html) => write_out(&html, ExitCode::SUCCESS),
        Outcome::Refused(json) => write_out(&[&json, "\n"].concat(), ExitCode::from(1)),
        Outcome::Failed(problem) => fail("render", Usage(problem)),
    }
}

fn execute(args: &[String]) -> Outcome {
    match render(args) {
        Ok(outcome) => outcome,
        Err(Usage(problem)) => Outcome::Failed(problem),
    }
}

fn render(args: &[String]) -> Result<Outcome, Usage> {
    const USAGE: &str =
        " (usage: surfaces render [--catalog FILE] [--locale TAG] [--interactive] FILE)";
    let (opts, files) = options(args, &["catalog", "locale"], &["interactive"])
        .map_err(|Usage(m)| Usage(m + USAGE))?;
    let [file] = files.as_slice() else {
        return Err(Usage(["render takes one FILE", USAGE].concat()));
    };
    let locale = option(&opts, "locale");
    if let Some(tag) = locale.filter(|t| !surfaces_core::function::is_locale(t)) {
        return Err(Usage(format!(
            concat!(
                "--locale {:?} is no language tag (",
                surfaces_core::locale_rule!(),
                "){}"
            ),
            tag, USAGE
        )));
    }
    let catalog = load_catalog(option(&opts, "catalog"))?;
    let refused = |issues| {
        let out = serde_json::json!({"ok": false, "file": file, "issues": issues});
        Outcome::Refused(out.to_string())
    };
    let text = match read(file) {
        Ok(text) => text,
        Err(Failure::Refused(_, issue)) => return Ok(refused(issues_json(&[*issue]))),
        Err(Failure::Usage(usage)) => return Err(usage),
    };
    let options = surfaces_render::Options {
        host: &surfaces_intl::Cldr,
        locale,
        ..Default::default()
    };
    let rendered = if is_markdown(file) {
        surfaces_render::render_markdown(&text, &catalog, options)
    } else {
        // Read as `surfaces validate` reads it: too large or not JSON is an issue.
        surfaces_render::render_surface_text(&text, &catalog, options)
    };
    let interactive = rendered.interactive();
    Ok(match rendered.html {
        Some(_) if option(&opts, "interactive").is_some() => Outcome::Html(
            serde_json::json!({"file": file, "interactive": interactive}).to_string() + "\n",
        ),
        Some(html) => Outcome::Html(html),
        None => refused(issues_json(&rendered.issues)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// A scratch file in the workspace's `target/tmp/` (where Cargo keeps
    /// integration tests' scratch files), so nothing is left in `/tmp`.
    fn temp(name: &str, text: &str) -> String {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/tmp/cli-render");
        std::fs::create_dir_all(dir).unwrap();
        let path = std::path::Path::new(dir).join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    }

    #[test]
    fn renders_a_surface_file() {
        let f = temp(
            "ok.json",
            r#"{"id":"s","components":[{"id":"root","component":"Text","props":{"text":{"path":"/t"}}}],"data":{"t":"<hi>"}}"#,
        );
        let Outcome::Html(html) = execute(&args(&[&f])) else {
            panic!()
        };
        assert!(
            html.contains(r#"<p class="ch-text ch-tone-default" data-ch-text="/t">&lt;hi&gt;</p>"#),
            "{html}"
        );
    }

    #[test]
    fn a_surface_with_errors_prints_its_issues() {
        let f = temp(
            "bad.json",
            r#"{"components":[{"id":"root","component":"Stack","children":["x"]}]}"#,
        );
        let Outcome::Refused(json) = execute(&args(&[&f])) else {
            panic!()
        };
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["issues"][0]["code"], "unresolved_child");
    }

    #[test]
    fn bad_usage_and_unreadable_input_fail() {
        for a in [
            &[][..],
            &["--catalog"],
            &["a.json", "b.json"],
            &["--nope", "a.json"],
            &["/no/such/file.json"],
            &["x.md"],
        ] {
            assert!(matches!(execute(&args(a)), Outcome::Failed(_)), "{a:?}");
        }
        let f = temp("s.json", r#"{"components":[]}"#);
        let c = temp(
            "cat.json",
            r#"{"catalog":"x","components":{"A":{"children":"none","props":{"type":"object","pattern":"x"},"example":{}}}}"#,
        );
        assert!(matches!(
            execute(&args(&["--catalog", &c, &f])),
            Outcome::Failed(_)
        ));
    }

    #[test]
    fn a_file_that_validate_refuses_is_refused_with_the_same_code() {
        let big = format!(
            r#"{{"components":[{{"id":"root","component":"Text","props":{{"text":"{}"}}}}]}}"#,
            "x".repeat(2 * 1024 * 1024)
        );
        for (name, text, code) in [
            ("notjson.json", "{not json".to_string(), "invalid_json"),
            ("big.json", big, "document_too_large"),
        ] {
            let f = temp(name, &text);
            let Outcome::Refused(json) = execute(&args(&[&f])) else {
                panic!("{name}")
            };
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["issues"][0]["code"], code, "{name}");
        }
        let f = temp("body.markdown", "```surface {\"id\":\"m\"}\n{\"id\":\"root\",\"component\":\"Badge\",\"props\":{\"text\":\"new\"}}\n```\n");
        assert!(
            matches!(execute(&args(&[&f])), Outcome::Html(_)),
            ".markdown is a body"
        );
    }

    #[test]
    fn renders_a_markdown_body() {
        let f = temp("body.md", "Text\n\n```surface {\"id\":\"m\"}\n{\"id\":\"root\",\"component\":\"Badge\",\"props\":{\"text\":\"new\"}}\n```\n");
        let Outcome::Html(html) = execute(&args(&[&f])) else {
            panic!()
        };
        assert!(html.contains(r#"<div data-ch-surface="m">"#), "{html}");
        let bad = temp("bad.md", "```surface {\"id\":\"m\"}\n{\"id\":\"root\"\n");
        assert!(matches!(execute(&args(&[&bad])), Outcome::Refused(_)));
    }

    #[test]
    fn interactive_says_whether_a_page_needs_the_runtime() {
        let answer = |name: &str, text: &str| {
            let f = temp(name, text);
            let Outcome::Html(json) = execute(&args(&["--interactive", &f])) else {
                panic!("{name}")
            };
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["file"], f.as_str());
            v["interactive"].as_bool().unwrap()
        };
        // Bound text alone is final as rendered; a field or an action is not.
        assert!(!answer(
            "static.json",
            r#"{"components":[{"id":"root","component":"Text","props":{"text":{"path":"/t"}}}],"data":{"t":"hi"}}"#
        ));
        assert!(answer(
            "field.json",
            r#"{"components":[{"id":"root","component":"Slider","props":{"label":"n","min":0,"max":9,"value":{"path":"/n"}}}],"data":{"n":1}}"#
        ));
        assert!(answer(
            "action.json",
            r#"{"components":[{"id":"root","component":"Button","props":{"label":"go","onClick":{"action":"toggle","path":"/x"}}}],"data":{"x":false}}"#
        ));
        assert!(answer("interactive.md", "```surface {\"id\":\"m\"}\n{\"id\":\"root\",\"component\":\"Button\",\"props\":{\"label\":\"go\",\"onClick\":{\"action\":\"toggle\",\"path\":\"/x\"}}}\n```\n"));
        // Text that spells the attribute is no attribute.
        assert!(!answer(
            "spelled.json",
            r#"{"components":[{"id":"root","component":"Text","props":{"text":"<i data-ch-model=\"/x\">"}}]}"#
        ));
        let bad = temp(
            "bad2.json",
            r#"{"components":[{"id":"root","component":"Stack","children":["x"]}]}"#,
        );
        assert!(matches!(
            execute(&args(&["--interactive", &bad])),
            Outcome::Refused(_)
        ));
    }

    #[test]
    fn formats_in_the_locale_given() {
        let f = temp(
            "price.json",
            r#"{"components":[{"id":"root","component":"Text","props":{"text":{"call":"formatCurrency","args":{"value":{"path":"/p"},"currency":"EUR"}}}}],"data":{"p":1234.5}}"#,
        );
        let html = |extra: &[&str]| {
            let Outcome::Html(html) = execute(&args(&[extra, &[f.as_str()]].concat())) else {
                panic!("{extra:?}")
            };
            html
        };
        let de = html(&["--locale", "de-DE"]);
        assert!(de.contains(">1.234,50\u{a0}€</p>"), "{de}");
        assert!(de.contains(r#"lang="de-DE""#), "{de}");
        assert!(html(&[]).contains(">€1,234.50</p>"));
        for bad in ["de_DE", "", "toolongpart-x"] {
            assert!(
                matches!(execute(&args(&["--locale", bad, &f])), Outcome::Failed(_)),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_user_catalog_is_used() {
        let c = temp(
            "cat2.json",
            r#"{"catalog":"mine@1","components":{"Shout":{"children":"none","props":{"type":"object","properties":{"text":{"type":"string"}}},"example":{"text":"x"}}}}"#,
        );
        let f = temp(
            "s2.json",
            r#"{"components":[{"id":"root","component":"Shout","props":{"text":"hey"}}]}"#,
        );
        let Outcome::Html(html) = execute(&args(&["--catalog", &c, &f])) else {
            panic!()
        };
        assert!(html.contains(r#"data-component="Shout""#), "{html}");
    }
}
