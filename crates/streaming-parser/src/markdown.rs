//! The markdown stream: blocks, their changes, healing, surfaces, directives.
//!
//! # How it works
//!
//! Text is cut into lines. A complete line is applied once to the blocks
//! (prose, code fence, surface fence, directive) and never read again. The
//! unfinished last line is attached tentatively, as if it were complete: its
//! role is decided from its first few bytes (a fence opener, a directive, a
//! heading, prose, or a body line of the open fence) and, for prose, its
//! characters go straight into the open block's [`Inline`] healing state. So
//! a chunk costs its own length, plus the healed tail of the open block and,
//! in a surface, the ghost of the unfinished line (bounded by
//! [`GHOST_LIMIT`](crate::surface::GHOST_LIMIT)).
//!
//! A prose block is split off at a fence, a directive, an ATX heading, or a
//! line after blank lines that neither is indented nor continues a list.
//! Blank lines between blocks belong to no block. Block numbers are their
//! positions, so they do not depend on how the text was chunked.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use serde_json::{json, Map, Value};
use surfaces_core::fence::{opening_fence, strip_line_ending, surface_info, FenceChar};

use crate::directive;
use crate::heal::Inline;
use crate::surface::{self, Refusal, Surface};
use crate::utf8::Decoder;
use validator_wasm::Catalog;

/// Lines with an unfinished role longer than this are read as prose.
const UNDECIDED_LIMIT: usize = 32;
/// Line starts of the open prose block whose healing state is kept.
const LINE_STATES: usize = 256;
/// A tentative closing fence longer than this is not checked before its end.
const CLOSER_PROBE_LIMIT: usize = 256;

/// The kind of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Markdown text.
    Prose,
    /// A fenced code block.
    Code,
    /// A ```` ```surface ```` fence.
    Surface,
    /// A `::leaf` or `:::container` directive.
    Directive,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Prose => "prose",
            Kind::Code => "code",
            Kind::Surface => "surface",
            Kind::Directive => "directive",
        }
    }
}

#[derive(Debug, Clone)]
struct Block {
    kind: Kind,
    text: String,
    /// Offset of the block's first byte in the input.
    start: usize,
    closed: bool,
    heading: bool,
    list: bool,
    fence: Option<(FenceChar, usize)>,
    lang: Option<String>,
    surface_id: Option<String>,
    catalog: Option<String>,
    surface: Option<Surface>,
    name: Option<String>,
    /// Open containers inside a container directive (1 while it is open).
    depth: usize,
}

impl Block {
    fn new(kind: Kind, start: usize) -> Block {
        Block {
            kind,
            text: String::new(),
            start,
            closed: false,
            heading: false,
            list: false,
            fence: None,
            lang: None,
            surface_id: None,
            catalog: None,
            surface: None,
            name: None,
            depth: 0,
        }
    }

    fn is_open_prose(&self) -> bool {
        self.kind == Kind::Prose && !self.closed
    }

    fn has_body(&self) -> bool {
        !self.closed && self.kind != Kind::Prose && (self.fence.is_some() || self.depth > 0)
    }
}

/// What the unfinished line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Too short to tell (spaces, one or two fence characters, colons, `#`).
    Undecided,
    /// Prose of the last block, fed to its healing state.
    Prose,
    /// A fence or directive opener, shown as a tentative block.
    Candidate(Candidate),
    /// A body line of the open code, surface or container block.
    Body,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Candidate {
    /// An opening fence; a backtick after `info_from` makes it prose.
    Fence {
        backtick: bool,
        info_from: usize,
    },
    Leaf,
    Container,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Blank,
    Prose,
    Heading,
    Candidate(Candidate),
}

/// What a reader was last told about a block.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    /// Where the block starts in the input: another start, another block.
    start: usize,
    kind: Kind,
    text_len: usize,
    complete: bool,
    /// Bytes hidden at the end, and the suffix added.
    heal: Option<(usize, String)>,
    components: usize,
    refused: usize,
    flags: usize,
    checked: bool,
    data_revision: usize,
    ghost: Option<Value>,
    head: Value,
}

/// Reads markdown chunk by chunk: lines applied once, the unfinished line
/// attached tentatively (see the crate docs).
#[derive(Debug, Clone)]
pub struct MarkdownStream {
    decoder: Decoder,
    blocks: Vec<Block>,
    /// Decoded bytes so far.
    offset: usize,
    line: String,
    line_start: usize,
    line_no: usize,
    role: Role,
    pending_blank: String,
    inline: Inline,
    /// The healing state at the start of each line of the open prose
    /// block's last paragraphs (block offset, state), most recent last.
    lines: Vec<(usize, Inline)>,
    seen: Vec<Seen>,
    finished: bool,
    catalog: Arc<Catalog>,
}

impl Default for MarkdownStream {
    fn default() -> Self {
        MarkdownStream {
            decoder: Decoder::default(),
            blocks: Vec::new(),
            offset: 0,
            line: String::new(),
            line_start: 0,
            line_no: 1,
            role: Role::Undecided,
            pending_blank: String::new(),
            inline: Inline::default(),
            lines: Vec::new(),
            seen: Vec::new(),
            finished: false,
            catalog: Catalog::builtin(),
        }
    }
}

impl MarkdownStream {
    /// A stream with nothing read yet, checking surfaces with the built-in
    /// `blog@1` catalog.
    pub fn new() -> MarkdownStream {
        MarkdownStream::default()
    }

    /// A stream checking surfaces with `catalog`.
    pub fn with_catalog(catalog: Arc<Catalog>) -> MarkdownStream {
        MarkdownStream {
            catalog,
            ..MarkdownStream::default()
        }
    }

    /// Reads the next chunk of bytes (split anywhere) and returns the changes.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<Value> {
        let text = self.decoder.push(bytes);
        let from = self.blocks.len().saturating_sub(1);
        self.read(&text);
        self.changes(from)
    }

    /// Reads the next chunk of text and returns the changes.
    pub fn push(&mut self, text: &str) -> Vec<Value> {
        let decoded;
        let text = if self.decoder.is_empty() {
            text
        } else {
            decoded = self.decoder.push(text.as_bytes());
            &decoded
        };
        let from = self.blocks.len().saturating_sub(1);
        self.read(text);
        self.changes(from)
    }

    /// The input ended: a cut character becomes U+FFFD and an unfinished
    /// line too short to classify is read as if complete. Returns the last
    /// changes.
    pub fn finish(&mut self) -> Vec<Value> {
        let from = self.blocks.len().saturating_sub(1);
        let rest = self.decoder.finish();
        self.read(&rest);
        if !self.finished {
            self.finished = true;
            if self.role == Role::Undecided {
                if let Some(class) = classify(&self.line, true) {
                    self.take_class(class);
                }
            }
            // The text ended: its last body line is complete, as the
            // validator reads it (the stored text stays as it came).
            if self.role == Role::Body && !self.line.is_empty() {
                self.read_body_line();
            }
        }
        self.changes(from)
    }

    fn read(&mut self, text: &str) {
        let mut rest = text;
        while !rest.is_empty() {
            let (segment, newline) = match rest.find('\n') {
                Some(i) => (rest.get(..=i).unwrap_or(rest), true),
                None => (rest, false),
            };
            rest = rest.get(segment.len()..).unwrap_or_default();
            let body = if newline {
                segment.get(..segment.len() - 1).unwrap_or_default()
            } else {
                segment
            };
            self.extend_line(body);
            self.offset += segment.len();
            if newline {
                self.end_line();
            }
        }
    }

    fn extend_line(&mut self, segment: &str) {
        let before = self.line.len();
        self.line.push_str(segment);
        match self.role {
            Role::Undecided => {
                if let Some(class) = classify(&self.line, false) {
                    self.take_class(class);
                }
            }
            Role::Prose => self.inline.feed(segment),
            Role::Candidate(Candidate::Fence {
                backtick: true,
                mut info_from,
            }) => {
                if before == info_from {
                    // The fence run may still be growing.
                    info_from += segment.bytes().take_while(|b| *b == b'`').count();
                    self.role = Role::Candidate(Candidate::Fence {
                        backtick: true,
                        info_from,
                    });
                }
                let from = before.max(info_from);
                if self.line.get(from..).is_some_and(|info| info.contains('`')) {
                    self.attach_prose(false);
                }
            }
            Role::Candidate(_) | Role::Body => {}
        }
    }

    /// Acts on a class decided for the unfinished line.
    fn take_class(&mut self, class: Class) {
        match class {
            Class::Blank => {}
            Class::Prose => self.attach_prose(false),
            Class::Heading => self.attach_prose(true),
            Class::Candidate(candidate) => self.role = Role::Candidate(candidate),
        }
    }

    /// The unfinished line is prose: continue the open prose block or start
    /// one, and feed the line to its healing state.
    fn attach_prose(&mut self, heading: bool) {
        let line = &self.line;
        let continues = match self.blocks.last() {
            Some(b) if b.is_open_prose() && !b.heading && !heading => {
                self.pending_blank.is_empty()
                    || line.starts_with([' ', '\t'])
                    || (b.list && line.trim_start().starts_with(is_list_char))
            }
            _ => false,
        };
        if continues {
            if let Some(b) = self.blocks.last_mut() {
                b.text.push_str(&self.pending_blank);
            }
            self.pending_blank.clear();
        } else {
            self.start_block(Kind::Prose);
            if let Some(b) = self.blocks.last_mut() {
                b.heading = heading;
            }
            self.inline = Inline::default();
            self.lines.clear();
        }
        let start = self.blocks.last().map_or(0, |b| b.text.len());
        if self.lines.len() >= LINE_STATES {
            self.lines.remove(0);
        }
        self.lines.push((start, self.inline.clone()));
        self.inline.feed(&self.line);
        self.role = Role::Prose;
    }

    /// Starts a block at the unfinished line, completing an open prose block.
    fn start_block(&mut self, kind: Kind) {
        if let Some(b) = self.blocks.last_mut() {
            if b.kind == Kind::Prose {
                b.closed = true;
            }
        }
        self.pending_blank.clear();
        self.blocks.push(Block::new(kind, self.line_start));
    }

    fn end_line(&mut self) {
        if self.role == Role::Undecided {
            match classify(&self.line, true) {
                Some(Class::Blank) | None => {
                    if self.blocks.last().is_some_and(|b| b.is_open_prose()) {
                        self.pending_blank.push_str(&self.line);
                        self.pending_blank.push('\n');
                        self.inline.feed(&self.line);
                        self.inline.feed("\n");
                    }
                    self.next_line();
                    return;
                }
                Some(class) => self.take_class(class),
            }
        }
        match self.role {
            Role::Undecided => {}
            Role::Prose => self.end_prose_line(),
            Role::Candidate(candidate) => self.end_candidate(candidate),
            Role::Body => self.end_body_line(),
        }
        self.next_line();
    }

    fn next_line(&mut self) {
        self.line.clear();
        self.line_start = self.offset;
        self.line_no += 1;
        self.role = if self.blocks.last().is_some_and(Block::has_body) {
            Role::Body
        } else {
            Role::Undecided
        };
    }

    fn end_prose_line(&mut self) {
        self.inline.feed("\n");
        let line = &self.line;
        if let Some(b) = self.blocks.last_mut() {
            if b.text.is_empty() {
                b.list = is_list_item(line);
            }
            b.text.push_str(line);
            b.text.push('\n');
            if b.heading {
                b.closed = true;
            }
        }
    }

    fn end_candidate(&mut self, candidate: Candidate) {
        let line = strip_line_ending(&self.line);
        match candidate {
            Candidate::Fence { .. } => {
                let Some(open) = opening_fence(line) else {
                    self.attach_prose(false);
                    return self.end_prose_line();
                };
                let kind = if open.is_surface() {
                    Kind::Surface
                } else {
                    Kind::Code
                };
                let mut block = Block::new(kind, self.line_start);
                block.fence = Some((open.marker, open.len));
                block.lang = open.lang().map(String::from);
                if kind == Kind::Surface {
                    let mut refusal = None;
                    match surface_info(&open) {
                        Some(Ok(info)) => {
                            block.surface_id = Some(info.id);
                            block.catalog = info.catalog;
                        }
                        Some(Err(e)) => {
                            refusal = Some(Refusal {
                                line: self.line_no,
                                code: e.code(),
                                message: String::from(e.message()),
                                path: String::new(),
                            })
                        }
                        None => {}
                    }
                    let mut body = Surface::new(
                        block.surface_id.clone(),
                        block.catalog.clone(),
                        self.line_no,
                    );
                    body.refused.extend(refusal);
                    block.surface = Some(body);
                }
                self.push_block(block);
            }
            Candidate::Leaf => {
                let Some(name) = directive::leaf(line).map(String::from) else {
                    self.attach_prose(false);
                    return self.end_prose_line();
                };
                let mut block = Block::new(Kind::Directive, self.line_start);
                block.name = Some(name);
                block.closed = true;
                self.push_block(block);
            }
            Candidate::Container => {
                let Some(name) = directive::container_open(line).map(String::from) else {
                    self.attach_prose(false);
                    return self.end_prose_line();
                };
                let mut block = Block::new(Kind::Directive, self.line_start);
                block.name = Some(name);
                block.depth = 1;
                self.push_block(block);
            }
        }
    }

    fn push_block(&mut self, mut block: Block) {
        block.text.push_str(&self.line);
        block.text.push('\n');
        self.start_block(block.kind);
        if let Some(last) = self.blocks.last_mut() {
            *last = block;
        }
    }

    fn end_body_line(&mut self) {
        self.read_body_line();
        if let Some(b) = self.blocks.last_mut() {
            b.text.push_str(&self.line);
            b.text.push('\n');
        }
    }

    /// Reads the body line `self.line` as complete: it closes the fence or
    /// directive, or is the surface's next line. The block's text is the
    /// caller's to extend.
    fn read_body_line(&mut self) {
        let line_no = self.line_no;
        let line = strip_line_ending(&self.line);
        let catalog = Arc::clone(&self.catalog);
        let Some(b) = self.blocks.last_mut() else {
            return;
        };
        if let Some((marker, len)) = b.fence {
            if closes_fence(marker, len, line) {
                b.closed = true;
                if let Some(s) = b.surface.as_mut() {
                    s.close(&catalog);
                }
            } else if let Some(s) = b.surface.as_mut() {
                s.commit_line(line_no, line, &catalog);
            }
        } else if directive::is_container_close(line) {
            b.depth -= 1;
            b.closed = b.depth == 0;
        } else if directive::container_open(line).is_some() {
            b.depth += 1;
        }
    }

    /// Whether the unfinished body line would close the open block.
    fn line_closes(&self, b: &Block) -> bool {
        if self.role != Role::Body || self.line.len() > CLOSER_PROBE_LIMIT {
            return false;
        }
        let line = strip_line_ending(&self.line);
        match b.fence {
            Some((marker, len)) => closes_fence(marker, len, line),
            None => b.depth == 1 && directive::is_container_close(line),
        }
    }

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
        let mut head = Map::new();
        let (kind, complete, mut heal, mut ghost) = match self.blocks.get(i) {
            Some(b) => {
                let complete = match b.kind {
                    Kind::Prose => b.closed || !last,
                    _ => b.closed || (last && self.line_closes(b)),
                };
                let heal = (!complete).then(|| self.heal_block(b, stored, line));
                match b.kind {
                    Kind::Code => {
                        head.insert("lang".into(), json!(b.lang));
                    }
                    Kind::Surface => {
                        head.insert("id".into(), json!(b.surface_id));
                        head.insert("catalog".into(), json!(b.catalog));
                    }
                    Kind::Directive => {
                        head.insert("name".into(), json!(b.name));
                    }
                    Kind::Prose => {}
                }
                let ghost = if b.kind == Kind::Surface && last && !complete && !self.finished {
                    surface::ghost(line)
                } else {
                    None
                };
                (b.kind, complete, heal, ghost)
            }
            None => {
                let (kind, complete, heal) = self.candidate_view(line, &mut head);
                (kind, complete, heal, None)
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
            heal: heal
                .as_ref()
                .map(|(cut, suffix)| (text_len.saturating_sub(*cut), suffix.clone())),
            components: body.map_or(0, |s| s.components.len()),
            refused: body.map_or(0, |s| s.refused.len()),
            flags: body.map_or(0, |s| s.flags.len()),
            checked: body.is_some_and(|s| s.issues.is_some()),
            data_revision: body.map_or(0, |s| s.data_revision),
            ghost,
            head: Value::Object(head),
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
        let mut text = String::with_capacity(seen.text_len);
        text.push_str(stored);
        text.push_str(line);
        if let Some((hidden, suffix)) = &seen.heal {
            let cut = text.len().saturating_sub(*hidden);
            let mut healed = String::from(text.get(..cut).unwrap_or(&text));
            healed.push_str(suffix);
            out.insert("healed".into(), json!(healed));
        }
        out.insert("text".into(), json!(text));
        if let Value::Object(head) = &seen.head {
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

    /// The tentative block of an opener line that has not ended.
    fn candidate_view(
        &self,
        line: &str,
        head: &mut Map<String, Value>,
    ) -> (Kind, bool, Option<(usize, String)>) {
        let line_body = strip_line_ending(line);
        match self.role {
            Role::Candidate(Candidate::Fence { .. }) => {
                let open = opening_fence(line_body);
                let surface = open.is_some_and(|o| o.is_surface());
                let kind = if surface { Kind::Surface } else { Kind::Code };
                let info = open.as_ref().and_then(surface_info).and_then(Result::ok);
                if surface {
                    head.insert("id".into(), json!(info.as_ref().map(|i| &i.id)));
                    head.insert(
                        "catalog".into(),
                        json!(info.as_ref().and_then(|i| i.catalog.as_ref())),
                    );
                } else {
                    head.insert("lang".into(), json!(open.and_then(|o| o.lang())));
                }
                let mut suffix = String::from("\n");
                if let Some(o) = open {
                    push_fence(&mut suffix, o.marker, o.len);
                }
                (kind, false, Some((line.len(), suffix)))
            }
            _ => {
                let name =
                    directive::leaf(line_body).or_else(|| directive::container_open(line_body));
                let leaf = self.role == Role::Candidate(Candidate::Leaf);
                head.insert("name".into(), json!(name));
                let complete = leaf && name.is_some();
                let suffix = if leaf || name.is_none() {
                    String::new()
                } else {
                    String::from("\n:::")
                };
                (Kind::Directive, complete, Some((line.len(), suffix)))
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
                    let visible = if *start >= stored.len() {
                        line.get(start - stored.len()..cut - stored.len())
                    } else {
                        stored.get(*start..cut)
                    };
                    if !visible.is_some_and(|v| reclassifies(v, b)) {
                        break;
                    }
                    let (c, s) = state.heal();
                    cut = c.min(*start);
                    suffix = s;
                }
                (cut, suffix)
            }
            Kind::Code | Kind::Surface => {
                let mut suffix = String::new();
                if !line.is_empty() {
                    suffix.push('\n');
                }
                if let Some((marker, n)) = b.fence {
                    push_fence(&mut suffix, marker, n);
                }
                (len, suffix)
            }
            Kind::Directive => {
                let mut suffix = String::new();
                if !line.is_empty() {
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

    fn changes(&mut self, from: usize) -> Vec<Value> {
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
            change["heal"] = self.heal_json(i, &seen.heal);
        }
        change["value"] = block;
        Some(change)
    }

    /// The last `n` bytes of block `i`'s text.
    fn tail(&self, i: usize, n: usize) -> String {
        let Some((stored, line)) = self.parts(i) else {
            return String::new();
        };
        let mut out = String::new();
        if n > line.len() {
            let from = stored.len().saturating_sub(n - line.len());
            out.push_str(stored.get(from..).unwrap_or_default());
            out.push_str(line);
        } else {
            out.push_str(line.get(line.len() - n..).unwrap_or_default());
        }
        out
    }

    /// `{"drop": n, "add": suffix}`: the healed view hides the last `n`
    /// UTF-16 code units of the text (what JavaScript's `slice` counts) and
    /// appends `suffix`; `null` when the block is not healed.
    fn heal_json(&self, i: usize, heal: &Option<(usize, String)>) -> Value {
        match heal {
            Some((hidden, suffix)) => {
                let units = self.tail(i, *hidden).encode_utf16().count();
                json!({"drop": units, "add": suffix})
            }
            None => Value::Null,
        }
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
            change.insert("heal".into(), self.heal_json(i, &new.heal));
        }
        if old.head != new.head {
            if let Value::Object(head) = &new.head {
                change.extend(head.clone());
            }
        }
        let body = self.blocks.get(i).and_then(|b| b.surface.as_ref());
        if let (Kind::Surface, Some(s)) = (new.kind, body) {
            if new.components != old.components {
                let fresh = s.components.get(old.components..).unwrap_or_default();
                change.insert("components".into(), json!(fresh));
                change.insert("held".into(), held_ids(s));
            } else if !s.held.is_empty() {
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

fn push_fence(out: &mut String, marker: FenceChar, len: usize) {
    for _ in 0..len {
        out.push(char::from(marker.byte()));
    }
}

fn closes_fence(marker: FenceChar, len: usize, line: &str) -> bool {
    let mut opener = String::new();
    push_fence(&mut opener, marker, len);
    opening_fence(&opener).is_some_and(|open| open.is_closed_by(line))
}

/// Whether a prose line cut short for display would read as another kind
/// of block than the prose block `b` it belongs to.
fn reclassifies(visible: &str, b: &Block) -> bool {
    let line = strip_line_ending(visible);
    match classify(line, true) {
        Some(Class::Candidate(Candidate::Fence { .. })) => true,
        Some(Class::Candidate(Candidate::Leaf)) => directive::leaf(line).is_some(),
        Some(Class::Candidate(Candidate::Container)) => directive::container_open(line).is_some(),
        Some(Class::Heading) => !b.heading,
        Some(Class::Prose | Class::Blank) | None => false,
    }
}

fn is_list_char(c: char) -> bool {
    matches!(c, '-' | '*' | '+') || c.is_ascii_digit()
}

fn is_list_item(line: &str) -> bool {
    let s = line.trim_start_matches(' ');
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 && digits <= 9 {
        match s.get(digits..) {
            Some(r) if r.starts_with(['.', ')']) => r.get(1..).unwrap_or_default(),
            _ => return false,
        }
    } else if s.starts_with(['-', '*', '+']) {
        s.get(1..).unwrap_or_default()
    } else {
        return false;
    };
    rest.is_empty() || rest.starts_with([' ', '\t'])
}

/// The role of a line in prose context from what has arrived of it;
/// `None` while too short to tell. `complete`: the line has ended.
fn classify(line: &str, complete: bool) -> Option<Class> {
    let body = strip_line_ending(line);
    if body.trim().is_empty() {
        return complete.then_some(Class::Blank);
    }
    let spaces = body.bytes().take_while(|b| *b == b' ').count();
    if spaces >= 4 || body.as_bytes().get(spaces) == Some(&b'\t') {
        return Some(Class::Prose);
    }
    let s = body.get(spaces..).unwrap_or_default();
    let first = s.as_bytes().first().copied().unwrap_or(b' ');
    let run = s.bytes().take_while(|b| *b == first).count();
    let rest = s.get(run..).unwrap_or_default();
    let undecided = || {
        if complete || s.len() > UNDECIDED_LIMIT {
            None
        } else {
            Some(())
        }
    };
    match first {
        b'`' | b'~' => {
            if run >= 3 {
                if opening_fence(body).is_none() {
                    return Some(Class::Prose);
                }
                Some(Class::Candidate(Candidate::Fence {
                    backtick: first == b'`',
                    info_from: spaces + run,
                }))
            } else if rest.is_empty() && undecided().is_some() {
                None
            } else {
                Some(Class::Prose)
            }
        }
        b':' => {
            let after = rest.trim_start_matches([' ', '\t']);
            if after.is_empty() {
                return match undecided() {
                    Some(()) => None,
                    None => Some(Class::Prose),
                };
            }
            let letter = after.starts_with(|c: char| c.is_ascii_alphabetic());
            if run == 2 && letter && rest.len() == after.len() {
                Some(Class::Candidate(Candidate::Leaf))
            } else if run >= 3 && letter {
                Some(Class::Candidate(Candidate::Container))
            } else {
                Some(Class::Prose)
            }
        }
        b'#' => {
            if run > 6 {
                Some(Class::Prose)
            } else if rest.is_empty() {
                if complete {
                    Some(Class::Heading)
                } else {
                    None
                }
            } else if rest.starts_with([' ', '\t']) {
                Some(Class::Heading)
            } else {
                Some(Class::Prose)
            }
        }
        _ => Some(Class::Prose),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Value {
        let mut s = MarkdownStream::new();
        s.push(text);
        s.finish();
        s.document()
    }

    fn kinds(v: &Value) -> Vec<(String, bool)> {
        v["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["kind"].as_str().unwrap().to_string(),
                    b["complete"].as_bool().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn classify_prefixes() {
        assert_eq!(classify("  ", false), None);
        assert_eq!(classify("  ", true), Some(Class::Blank));
        assert_eq!(classify("``", false), None);
        assert_eq!(classify("``", true), Some(Class::Prose));
        assert_eq!(classify("``x", false), Some(Class::Prose));
        assert!(matches!(
            classify("~~~", false),
            Some(Class::Candidate(Candidate::Fence {
                backtick: false,
                ..
            }))
        ));
        assert_eq!(classify("```a`", true), Some(Class::Prose));
        assert_eq!(classify("::", false), None);
        assert_eq!(classify("::", true), Some(Class::Prose));
        assert_eq!(
            classify("::x", false),
            Some(Class::Candidate(Candidate::Leaf))
        );
        assert_eq!(classify(":: x", false), Some(Class::Prose));
        assert_eq!(
            classify("::: x", false),
            Some(Class::Candidate(Candidate::Container))
        );
        assert_eq!(classify("#", false), None);
        assert_eq!(classify("#", true), Some(Class::Heading));
        assert_eq!(classify("# a", false), Some(Class::Heading));
        assert_eq!(classify("#a", false), Some(Class::Prose));
        assert_eq!(classify("#######", false), Some(Class::Prose));
        assert_eq!(classify("    ```", false), Some(Class::Prose));
        assert_eq!(classify("\t::x", false), Some(Class::Prose));
        assert_eq!(classify(&":".repeat(40), false), Some(Class::Prose));
        assert_eq!(classify("hello", false), Some(Class::Prose));
    }

    #[test]
    fn spec_example() {
        let text = "Our plans changed this year.\n\n```surface {\"id\":\"pricing\",\"catalog\":\"blog@1\"}\n{\"data\":{\"billing\":\"monthly\"}}\n{\"id\":\"root\",\"component\":\"Stack\",\"children\":[\"switch\"]}\n{\"id\":\"switch\",\"component\":\"Toggle\",\"props\":{\"options\":[\"monthly\",\"yearly\"],\"value\":{\"path\":\"/billing\"}}}\n```\n\nQuestions? Ask in the comments.\n";
        let d = doc(text);
        assert_eq!(
            kinds(&d),
            [
                ("prose".into(), true),
                ("surface".into(), true),
                ("prose".into(), false)
            ]
        );
        let s = &d["blocks"][1];
        assert_eq!(s["id"], "pricing");
        assert_eq!(s["catalog"], "blog@1");
        assert_eq!(s["components"].as_array().unwrap().len(), 2);
        assert_eq!(s["data"], json!({"billing":"monthly"}));
        assert_eq!(s["refused"], json!([]));
        assert_eq!(s["ghost"], Value::Null);
        assert_eq!(
            d["blocks"][2]["healed"],
            "Questions? Ask in the comments.\n"
        );
    }

    #[test]
    fn code_fences_with_lang_and_open_flag() {
        let d = doc("~~~python\nx = 1\n");
        assert_eq!(kinds(&d), [("code".into(), false)]);
        assert_eq!(d["blocks"][0]["lang"], "python");
        assert_eq!(d["blocks"][0]["healed"], "~~~python\nx = 1\n~~~");
        let d = doc("```js\nlet a = 2 ** 3\n```");
        assert_eq!(kinds(&d), [("code".into(), true)]);
        let d = doc("```js\nlet a = 2 ** 3");
        assert_eq!(d["blocks"][0]["healed"], "```js\nlet a = 2 ** 3\n```");
    }

    #[test]
    fn bold_closer_never_follows_a_fence_marker() {
        let d = doc("Some **bold** text\n```py");
        assert_eq!(kinds(&d), [("prose".into(), true), ("code".into(), false)]);
        assert_eq!(d["blocks"][1]["healed"], "```py\n```");
        let d = doc("Some **bold\n```py\n");
        assert_eq!(d["blocks"][1]["healed"], "```py\n```");
    }

    #[test]
    fn surface_ghost_and_refusals() {
        let text = "```surface {\"id\":\"s\"}\n{\"id\":\"root\",\"component\":\"Stack\"}\nbroken\n{\"id\":\"t\",\"component\":\"Text\",\"props\":{\"text\":\"Hel";
        let mut stream = MarkdownStream::new();
        stream.push(text);
        let d = stream.document();
        let s = &d["blocks"][0];
        assert_eq!(s["complete"], false);
        assert_eq!(
            s["refused"],
            json!([{"line": 3, "code": "invalid_line", "message": s["refused"][0]["message"], "path": ""}])
        );
        assert_eq!(
            s["ghost"],
            json!({"id":"t","component":"Text","props":{"text":"Hel"},"partial":true})
        );
        // The text ended: its last line is read like any other (here a
        // line that is not JSON), and nothing is being written any more.
        let d = doc(text);
        let s = &d["blocks"][0];
        let refused: Vec<_> = s["refused"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["line"].clone(), r["code"].clone()))
            .collect();
        assert_eq!(
            refused,
            [
                (json!(3), json!("invalid_line")),
                (json!(4), json!("invalid_line"))
            ]
        );
        assert_eq!(s["ghost"], Value::Null);
        assert_eq!(s["text"], text, "the stored text is the input");
    }

    #[test]
    fn bad_surface_info_is_refused_on_its_line() {
        let d = doc("hi\n\n```surface {\"id\":\"Bad\"}\n```\n");
        let s = &d["blocks"][1];
        assert_eq!(s["id"], Value::Null);
        assert_eq!(s["refused"][0]["line"], 3);
        assert_eq!(s["refused"][0]["code"], "invalid_id");
    }

    #[test]
    fn directives() {
        let d = doc("::youtube{#x}\n:::note\ninside **b**\n:::\n:::tip\nopen");
        assert_eq!(
            kinds(&d),
            [
                ("directive".into(), true),
                ("directive".into(), true),
                ("directive".into(), false)
            ]
        );
        assert_eq!(d["blocks"][2]["name"], "tip");
        assert_eq!(d["blocks"][2]["healed"], ":::tip\nopen\n:::");
        let d = doc(":::outer\n:::inner\n:::\nstill\n:::\n");
        assert_eq!(kinds(&d), [("directive".into(), true)]);
        let d = doc("::x{bad\n");
        assert_eq!(kinds(&d), [("prose".into(), false)]);
    }

    #[test]
    fn prose_blocks_split_at_blank_lines_and_headings() {
        let d = doc("# Title\npara\n\nnext **b\n");
        assert_eq!(
            kinds(&d),
            [
                ("prose".into(), true),
                ("prose".into(), true),
                ("prose".into(), false)
            ]
        );
        assert_eq!(d["blocks"][2]["healed"], "next **b**");
        let d = doc("- a\n\n- b\n\n  more\n");
        assert_eq!(kinds(&d), [("prose".into(), false)]);
        assert_eq!(d["blocks"][0]["text"], "- a\n\n- b\n\n  more\n");
    }

    #[test]
    fn changes_append_and_complete() {
        let mut s = MarkdownStream::new();
        let c = s.push("Hel");
        assert_eq!(
            c,
            [
                json!({"op":"add","block":0,"heal":{"drop":0,"add":""},"value":{"block":0,"kind":"prose","complete":false,"text":"Hel","healed":"Hel"}})
            ]
        );
        let c = s.push("lo **wo");
        assert_eq!(
            c,
            [
                json!({"op":"update","block":0,"append":"lo **wo","complete":false,"heal":{"drop":0,"add":"**"}})
            ]
        );
        let c = s.push("\n\n```");
        assert_eq!(c.len(), 2);
        assert_eq!(c[0]["complete"], true);
        assert_eq!(c[1]["op"], "add");
        let c = s.push("`a`");
        assert_eq!(
            c,
            [
                json!({"op":"remove","block":1}),
                json!({"op":"add","block":1,"heal":{"drop":0,"add":"```"},"value":{"block":1,"kind":"prose","complete":false,"text":"````a`","healed":"````a````"}})
            ]
        );
    }

    #[test]
    fn healed_text_of_the_whole_input() {
        let heal = |t: &str| {
            let mut s = MarkdownStream::new();
            s.push(t);
            s.finish();
            s.healed_text(t)
        };
        assert_eq!(heal("a\n\nb **c"), "a\n\nb **c**");
        assert_eq!(heal("a **b\n\n"), "a **b\n\n");
        assert_eq!(heal("x ![i"), "x ");
        assert_eq!(heal("```\ncode"), "```\ncode\n```");
        assert_eq!(heal(""), "");
    }
}
