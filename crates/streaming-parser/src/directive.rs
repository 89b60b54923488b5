//! Directive lines (generic directives, as remark-directive writes them):
//! a one-line block `::name[label]{attrs}` and a container
//! `:::name[label]{attrs}` ... `:::`.

/// The name of a leaf directive line `::name[label]{attrs}`, if it is one.
pub fn leaf(line: &str) -> Option<&str> {
    let rest = line.trim_end().strip_prefix("::")?;
    if rest.starts_with(':') {
        return None;
    }
    after_name(rest)
}

/// The name of a container opening line `:::name[label]{attrs}`.
pub fn container_open(line: &str) -> Option<&str> {
    let line = line.trim_end();
    let colons = line.bytes().take_while(|b| *b == b':').count();
    if colons < 3 {
        return None;
    }
    after_name(line.get(colons..)?.trim_start_matches([' ', '\t']))
}

/// Whether `line` closes a container: three or more colons, then nothing.
pub fn is_container_close(line: &str) -> bool {
    let line = line.trim_end();
    line.len() >= 3 && line.bytes().all(|b| b == b':')
}

/// Reads `name[label]{attrs}` and returns the name when nothing follows.
fn after_name(rest: &str) -> Option<&str> {
    let name_len = rest
        .bytes()
        .enumerate()
        .take_while(|(i, b)| {
            if *i == 0 {
                b.is_ascii_alphabetic()
            } else {
                b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_'
            }
        })
        .count();
    if name_len == 0 {
        return None;
    }
    let name = rest.get(..name_len)?;
    let mut tail = rest.get(name_len..)?;
    if let Some(after) = tail.strip_prefix('[') {
        tail = after.get(after.find(']')? + 1..)?;
    }
    if let Some(after) = tail.strip_prefix('{') {
        tail = after.get(after.find('}')? + 1..)?;
    }
    tail.trim().is_empty().then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaf_directives() {
        assert_eq!(leaf("::youtube{#abc}"), Some("youtube"));
        assert_eq!(leaf("::note[Read this]"), Some("note"));
        assert_eq!(leaf("::br  "), Some("br"));
        assert_eq!(leaf("::x{a} more"), None);
        assert_eq!(leaf(":::x"), None);
        assert_eq!(leaf("::1x"), None);
        assert_eq!(leaf("::x{a"), None);
        assert_eq!(leaf("::x[a"), None);
        assert_eq!(leaf("text"), None);
    }

    #[test]
    fn containers() {
        assert_eq!(container_open(":::note{.warn}"), Some("note"));
        assert_eq!(container_open("::::: tip"), Some("tip"));
        assert_eq!(container_open("::note"), None);
        assert_eq!(container_open(":::"), None);
        assert!(is_container_close(":::"));
        assert!(is_container_close("::::  "));
        assert!(!is_container_close("::"));
        assert!(!is_container_close("::: x"));
    }
}
