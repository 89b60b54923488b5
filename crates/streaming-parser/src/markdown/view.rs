//! What a reader sees, and what it is told: each block of the current view
//! as JSON (SPEC.md section 11), the document, and the changes since the
//! reader was last told (a block added, or the fields of a block that
//! changed), computed from a small [`Seen`] summary per block so no block's
//! text is copied to compare it.

use alloc::string::String;
use alloc::vec::Vec;
use serde_json::Map;

use super::*;

/// What a reader was last told about a block.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Seen {
    /// Where the block starts in the input: another start, another block.
    start: usize,
    kind: Kind,
    text_len: usize,
    complete: bool,
    /// UTF-16 code units hidden at the end (what the reader's `drop`
    /// counts, so an unchanged heal needs no resending), and the suffix added.
    heal: Option<(usize, String)>,
    components: usize,
    held: usize,
    refused: usize,
    flags: usize,
    checked: bool,
    data_revision: usize,
    ghost: Option<Value>,
    head: Arc<Value>,
}

impl MarkdownStream {
    fn view_len(&self) -> usize {
        self.blocks.len() + usize::from(matches!(self.role, Role::Candidate(_)))
    }

    /// The block as a reader sees it now: `(stored text, unfinished line)`.
    fn parts(&self, i: usize) -> Option<(&str, &str)> {
        let last = self.blocks.len().checked_sub(1);
        match (self.blocks.get(i), self.role) {
            (Some(b), Role::Prose | Role::Body) if Some(i) == last => Some((&b.text, &self.line)),
            (Some(b), _) => Some((&b.text, "")),
            (None, Role::Candidate(_)) if i == self.blocks.len() => Some(("", &self.line)),
            _ => None,
        }
    }

    /// The block `i` of the current view as JSON, and what a reader needs
    /// to follow it.
    fn view(&self, i: usize) -> Option<(Value, Seen)> {
        let seen = self.seen(i)?;
        Some((self.block_json(i, &seen)?, seen))
    }

    /// What a reader needs to follow block `i`, without copying its text.
    fn seen(&self, i: usize) -> Option<Seen> {
        let (stored, line) = self.parts(i)?;
        let text_len = stored.len() + line.len();
        let last = i + 1 == self.view_len();
        let (kind, complete, mut heal, mut ghost, head) = match self.blocks.get(i) {
            Some(b) => {
                let complete = match b.kind {
                    Kind::Prose => b.closed || !last || self.completed,
                    _ => b.closed || (last && self.line_closes(b)),
                };
                // Only the last block is healed (an open container directive
                // before a tentative fence block is not).
                let heal = (!complete && last).then(|| self.heal_block(b, stored, line));
                // No ghost once the text ended, nor in a fence whose info was
                // refused (its body is not read).
                let read = b.surface.as_ref().is_some_and(|s| s.fence.is_some());
                let ghost = if read && last && !complete && !self.finished {
                    surface::ghost(line)
                } else {
                    None
                };
                (b.kind, complete, heal, ghost, Arc::clone(&b.head))
            }
            None => {
                let (kind, complete, heal, head) = self.candidate_view(line);
                (kind, complete, heal, None, Arc::new(head))
            }
        };
        if complete {
            heal = None;
        }
        if kind != Kind::Surface {
            ghost = None;
        }
        let body = self.blocks.get(i).and_then(|b| b.surface.as_ref());
        let seen = Seen {
            start: self.blocks.get(i).map_or(self.line_start, |b| b.start),
            kind,
            text_len,
            complete,
            heal: heal.map(|(cut, suffix)| {
                let cut = self.units_at(i, text_len.min(cut), &self.units[0]);
                (self.units_at(i, text_len, &self.units[1]) - cut, suffix)
            }),
            components: body.map_or(0, |s| s.components.len()),
            held: body.map_or(0, |s| s.held.len()),
            refused: body.map_or(0, |s| s.refused.len()),
            flags: body.map_or(0, |s| s.flags.len()),
            checked: body.is_some_and(|s| s.issues.is_some()),
            data_revision: body.map_or(0, |s| s.data_revision),
            ghost,
            head,
        };
        Some(seen)
    }

    /// Block `i` as JSON (SPEC.md section 11).
    fn block_json(&self, i: usize, seen: &Seen) -> Option<Value> {
        let (stored, line) = self.parts(i)?;
        let kind = seen.kind;
        let mut out = Map::new();
        out.insert("block".into(), json!(i));
        out.insert("kind".into(), json!(kind.name()));
        out.insert("complete".into(), json!(seen.complete));
        work::read(seen.text_len);
        let mut text = String::with_capacity(seen.text_len);
        text.push_str(stored);
        text.push_str(line);
        if let Some((units, suffix)) = &seen.heal {
            let cut = before_last_units(&text, *units);
            let mut healed = String::from(text.get(..cut).unwrap_or(&text));
            healed.push_str(suffix);
            out.insert("healed".into(), json!(healed));
        }
        out.insert("text".into(), json!(text));
        if let Value::Object(head) = &*seen.head {
            out.extend(head.clone());
        }
        let body = self.blocks.get(i).and_then(|b| b.surface.as_ref());
        let ghost = seen.ghost.clone();
        if kind == Kind::Surface {
            let empty = Surface::default();
            let s = body.unwrap_or(&empty);
            out.insert("components".into(), json!(s.components));
            out.insert("data".into(), Value::Object(s.data()));
            out.insert(
                "refused".into(),
                Value::Array(s.refused.iter().map(Refusal::to_json).collect()),
            );
            out.insert("ghost".into(), ghost.unwrap_or(Value::Null));
            out.insert("held".into(), held_ids(s));
            out.insert("flags".into(), Value::Array(s.flags.clone()));
            out.insert(
                "issues".into(),
                match &s.issues {
                    Some(issues) => validator_wasm::issues_json(issues),
                    None => Value::Null,
                },
            );
        }
        Some(Value::Object(out))
    }

    /// The tentative block of an opener line that has not ended, read in
    /// its first [`PROBE_LIMIT`] bytes (a name, language or id not whole
    /// there shows once the line ends): kind, complete, heal and head.
    fn candidate_view(&self, line: &str) -> (Kind, bool, Option<(usize, String)>, Value) {
        let whole = line.len() <= PROBE_LIMIT;
        match self.role {
            Role::Candidate(Candidate::Fence {
                marker,
                indent,
                len,
            }) => {
                let after = line.get(indent + len..).unwrap_or_default();
                let info = probe(after, PROBE_LIMIT);
                let whole = info.len() == after.len();
                let open = OpeningFence {
                    marker,
                    len,
                    indent,
                    info: info.trim_matches([' ', '\t']),
                };
                // The first word is the language once white space follows.
                let lang = open.lang().filter(|l| whole || open.info.len() > l.len());
                let heal = Some((line.len(), fence_closer(marker, len, true)));
                if lang == Some("surface") {
                    let info = surface_info(&open).and_then(Result::ok).filter(|_| whole);
                    let catalog = info.as_ref().and_then(|i| i.catalog.as_ref());
                    let head = json!({"id": info.as_ref().map(|i| &i.id), "catalog": catalog});
                    (Kind::Surface, false, heal, head)
                } else {
                    (Kind::Code, false, heal, json!({ "lang": lang }))
                }
            }
            _ => {
                let head = probe(line, PROBE_LIMIT);
                let name = directive::leaf(head)
                    .or_else(|| directive::container_open(head))
                    .filter(|_| whole);
                let leaf = self.role == Role::Candidate(Candidate::Leaf);
                let suffix = if leaf || name.is_none() {
                    String::new()
                } else {
                    String::from("\n:::")
                };
                let heal = Some((line.len(), suffix));
                // A leaf directive is complete once its line ends: until
                // then its name may still grow (`::no` becomes `::note`).
                (Kind::Directive, false, heal, json!({ "name": name }))
            }
        }
    }

    fn heal_block(&self, b: &Block, stored: &str, line: &str) -> (usize, String) {
        let len = stored.len() + line.len();
        match b.kind {
            Kind::Prose => {
                let (mut cut, mut suffix) = self.inline.heal();
                cut = cut.min(len);
                while cut < len {
                    // What stays of a cut line must not read as another
                    // block (a fence, a directive, a heading): if it would,
                    // hide the line and heal from its start.
                    let found = self.lines.partition_point(|(at, _)| *at <= cut);
                    let Some((start, state)) = found.checked_sub(1).and_then(|i| self.lines.get(i))
                    else {
                        break;
                    };
                    let key = (b.start + start, b.start + cut);
                    let again = match self.reclassified.get() {
                        (at, to, again) if (at, to) == key => again,
                        _ => {
                            let visible = if *start >= stored.len() {
                                line.get(start - stored.len()..cut - stored.len())
                            } else {
                                stored.get(*start..cut)
                            };
                            // Past its first bytes a line is not read again: if
                            // those would read as another block, it is hidden.
                            let visible = visible.map(|v| probe(v, PROBE_LIMIT));
                            let again = visible.is_some_and(|v| reclassifies(v, b));
                            self.reclassified.set((key.0, key.1, again));
                            again
                        }
                    };
                    if !again {
                        break;
                    }
                    let (c, s) = state.heal();
                    cut = c.min(*start);
                    suffix = s;
                }
                (cut, suffix)
            }
            Kind::Code | Kind::Surface => {
                // A line of its own: after the unfinished line, or after the
                // opener the end of the text completed without a line end
                // (or with a lone `\r`, which may be half a `\r\n`: a closer
                // right after it is the same line to pulldown-cmark).
                let ended = b.text.is_empty() || b.text.ends_with('\n');
                let suffix = b.fence.map_or_else(String::new, |(marker, n)| {
                    fence_closer(marker, n, !line.is_empty() || !ended)
                });
                (len, suffix)
            }
            Kind::Directive => {
                let mut suffix = String::new();
                // A line of its own, as for a fence: after the unfinished
                // line, or after the opener the end of the text completed
                // without a line end (`:::t` healed as `:::t:::` is prose),
                // or with a lone `\r`, as for a fence.
                let ended = b.text.is_empty() || b.text.ends_with('\n');
                if !line.is_empty() || !ended {
                    suffix.push('\n');
                }
                for _ in 0..b.depth {
                    suffix.push_str(":::\n");
                }
                suffix.pop();
                (len, suffix)
            }
        }
    }

    pub(super) fn changes(&mut self, from: usize) -> Vec<Value> {
        let mut changes = Vec::new();
        let view_len = self.view_len();
        let from = from.min(self.seen.len());
        for i in from..view_len {
            let Some(seen) = self.seen(i) else {
                continue;
            };
            match self.seen.get(i) {
                Some(old)
                    if old.start == seen.start
                        && old.kind == seen.kind
                        && old.text_len <= seen.text_len =>
                {
                    if *old != seen {
                        changes.push(self.update(i, old, &seen));
                    }
                }
                Some(_) => {
                    changes.push(json!({"op": "remove", "block": i}));
                    changes.extend(self.added(i, &seen));
                }
                None => changes.extend(self.added(i, &seen)),
            }
            if i < self.seen.len() {
                self.seen[i] = seen;
            } else {
                self.seen.push(seen);
            }
        }
        for i in view_len..self.seen.len() {
            changes.push(json!({"op": "remove", "block": i}));
        }
        self.seen.truncate(view_len);
        changes
    }

    /// An `add` change: the block as in the document, and how it is healed.
    fn added(&self, i: usize, seen: &Seen) -> Option<Value> {
        let block = self.block_json(i, seen)?;
        let mut change = json!({"op": "add", "block": i});
        if seen.heal.is_some() {
            change["heal"] = self.heal_json(&seen.heal);
        }
        change["value"] = block;
        Some(change)
    }

    /// The last `n` bytes of block `i`'s text.
    fn tail(&self, i: usize, n: usize) -> String {
        let (stored, line) = self.tail_parts(i, n);
        [stored, line].concat()
    }

    /// The last `n` bytes of block `i`'s text, as the part stored and the
    /// part on the unfinished line.
    fn tail_parts(&self, i: usize, n: usize) -> (&str, &str) {
        let Some((stored, line)) = self.parts(i) else {
            return ("", "");
        };
        if n > line.len() {
            let from = stored.len().saturating_sub(n - line.len());
            (stored.get(from..).unwrap_or_default(), line)
        } else {
            ("", line.get(line.len() - n..).unwrap_or_default())
        }
    }

    /// `{"drop": n, "add": suffix}`: the healed view hides the last `n`
    /// UTF-16 code units of the text (what JavaScript's `slice` counts) and
    /// appends `suffix`; `null` when the block is not healed.
    fn heal_json(&self, heal: &Option<(usize, String)>) -> Value {
        match heal {
            Some((units, suffix)) => json!({"drop": units, "add": suffix}),
            None => Value::Null,
        }
    }

    /// The UTF-16 code units of block `i`'s text before byte `at`,
    /// counted on from where `cache` last was in that block: a cut that stays
    /// costs nothing, one that moves costs the distance.
    fn units_at(&self, i: usize, at: usize, cache: &Cell<(usize, usize, usize)>) -> usize {
        let Some((stored, line)) = self.parts(i) else {
            return 0;
        };
        let start = self.blocks.get(i).map_or(self.line_start, |b| b.start);
        let (from, units) = match cache.get() {
            (s, from, units) if s == start && from <= stored.len() + line.len() => (from, units),
            _ => (0, 0),
        };
        let count = |a: usize, b: usize| {
            work::read(b - a);
            let (n, l) = (stored.len(), line.len());
            let part = |t: &str, a: usize, b: usize| {
                t.get(a.min(t.len())..b.min(t.len()))
                    .map_or(0, |p| p.encode_utf16().count())
            };
            part(stored, a, b) + part(line, a.saturating_sub(n), b.saturating_sub(n).min(l))
        };
        let units = if at >= from {
            units + count(from, at)
        } else {
            units - count(at, from)
        };
        cache.set((start, at, units));
        units
    }

    fn update(&self, i: usize, old: &Seen, new: &Seen) -> Value {
        let mut change = Map::new();
        change.insert("op".into(), json!("update"));
        change.insert("block".into(), json!(i));
        if new.text_len > old.text_len {
            change.insert(
                "append".into(),
                json!(self.tail(i, new.text_len - old.text_len)),
            );
        }
        change.insert("complete".into(), json!(new.complete));
        if old.heal != new.heal {
            change.insert("heal".into(), self.heal_json(&new.heal));
        }
        if old.head != new.head {
            if let Value::Object(head) = &*new.head {
                change.extend(head.clone());
            }
        }
        let body = self.blocks.get(i).and_then(|b| b.surface.as_ref());
        if let (Kind::Surface, Some(s)) = (new.kind, body) {
            if new.components != old.components {
                let fresh = s.components.get(old.components..).unwrap_or_default();
                change.insert("components".into(), json!(fresh));
            }
            if new.components != old.components || new.held != old.held {
                change.insert("held".into(), held_ids(s));
            }
            if new.refused != old.refused {
                let fresh = s.refused.get(old.refused..).unwrap_or_default();
                change.insert(
                    "refused".into(),
                    Value::Array(fresh.iter().map(Refusal::to_json).collect()),
                );
            }
            if new.flags != old.flags {
                change.insert(
                    "flags".into(),
                    json!(s.flags.get(old.flags..).unwrap_or_default()),
                );
            }
            if new.checked != old.checked {
                let issues = s
                    .issues
                    .as_deref()
                    .map_or(Value::Null, validator_wasm::issues_json);
                change.insert("issues".into(), issues);
            }
            if new.data_revision != old.data_revision {
                change.insert("data".into(), Value::Object(s.data()));
            }
        }
        if new.kind == Kind::Surface && new.ghost != old.ghost {
            change.insert("ghost".into(), new.ghost.clone().unwrap_or(Value::Null));
        }
        Value::Object(change)
    }

    /// The document now: `{"blocks": [...]}` (SPEC.md section 11).
    pub fn document(&self) -> Value {
        let blocks: Vec<Value> = (0..self.view_len())
            .filter_map(|i| self.view(i).map(|v| v.0))
            .collect();
        json!({ "blocks": blocks })
    }

    /// The whole text read so far, healed for display: everything before
    /// the open last block as written, that block healed.
    pub fn healed_text(&self, input: &str) -> String {
        let view_len = self.view_len();
        let Some(i) = view_len.checked_sub(1) else {
            return String::from(input);
        };
        let Some((Value::Object(block), _)) = self.view(i) else {
            return String::from(input);
        };
        let Some(healed) = block.get("healed").and_then(Value::as_str) else {
            return String::from(input);
        };
        let start = self.blocks.get(i).map_or(self.line_start, |b| b.start);
        let text = block
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if healed.len() >= text.len()
            && healed.starts_with(text)
            && start + text.len() <= input.len()
        {
            // Only additions: keep whatever follows the block (blank lines).
            let mut out = String::from(input.get(..start + text.len()).unwrap_or(input));
            out.push_str(healed.get(text.len()..).unwrap_or_default());
            if healed.len() == text.len() {
                return String::from(input);
            }
            return out;
        }
        let mut out = String::from(input.get(..start).unwrap_or_default());
        out.push_str(healed);
        out
    }
}

fn held_ids(s: &Surface) -> Value {
    Value::Array(s.held.iter().filter_map(|c| c.get("id").cloned()).collect())
}

/// Where the last `units` UTF-16 code units of `text` start (a byte index).
fn before_last_units(text: &str, units: usize) -> usize {
    let mut left = units;
    let mut cut = text.len();
    for (at, c) in text.char_indices().rev() {
        if left == 0 {
            break;
        }
        left = left.saturating_sub(c.len_utf16());
        cut = at;
    }
    cut
}
