//! The markdown stream: blocks, their changes, healing, surfaces, directives.
//!
//! # How it works
//!
//! Text is cut into lines as `surfaces_core::fence::lines` cuts a body (a
//! leading U+FEFF is no text; `\n`, `\r\n` and a lone `\r` end a line), so
//! its lines and their numbers are the validator's. A complete line is applied once to the blocks
//! (prose, code fence, surface fence, directive) and never read again. The
//! unfinished last line is attached tentatively, as if it were complete: its
//! role is decided from its first few bytes (a fence opener, a directive, a
//! heading, prose, or a body line of the open fence) and, for prose, its
//! characters go straight into the open block's [`Inline`] healing state. So
//! a chunk costs its own length, plus the healed tail of the open block and,
//! in a surface, the ghost of the unfinished line (bounded by
//! [`GHOST_LIMIT`](crate::surface::GHOST_LIMIT)).
//!
//! A prose block is split off at a fence, a directive (unless a span of the
//! prose before it is open: to CommonMark its line is paragraph text), an ATX heading, or a
//! line after blank lines that neither is indented nor continues a list
//! (nor an indented code line a lone `\r` did not end: pulldown-cmark reads
//! a code line to its `\n`). Blank lines between blocks belong to no block. Block numbers are their
//! positions, so they do not depend on how the text was chunked.
//!
//! This module reads; `view` (a submodule) says what a reader sees: each
//! block as JSON, the document, and the change protocol.

use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cell::Cell;
use serde_json::{json, Value};
use surfaces_core::fence::{self, opening_fence, surface_info, FenceChar, OpeningFence};
use surfaces_core::sorted;

use crate::directive;
use crate::heal::Inline;
use crate::surface::{self, Refusal, Surface};
use crate::utf8::Decoder;
use crate::work;
use validator_wasm::markdown::{
    duplicate_surface_id, too_many_surfaces, unclosed_fence, MAX_SURFACES,
};
use validator_wasm::Catalog;

mod view;
use view::Seen;

/// Lines with an unfinished role longer than this are read as prose.
const UNDECIDED_LIMIT: usize = 32;
/// Line starts of the open prose block whose healing state is kept.
const LINE_STATES: usize = 256;
/// An unfinished opener or closing line is read only in its first this
/// many bytes until it ends (its role, language, name, id); a fence longer
/// than this gets no closer when healed (CommonMark ends an unclosed fence
/// at the end of the text).
const PROBE_LIMIT: usize = 256;

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
    /// What the reader is told of the block's opening line: `lang`, `id`
    /// and `catalog`, or `name` (shared with what the reader was told).
    head: Arc<Value>,
    surface: Option<Surface>,
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
            head: Arc::new(json!({})),
            surface: None,
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
    /// An opening fence of `len` markers after `indent` spaces (a backtick
    /// in the info after a backtick fence makes it prose).
    Fence {
        marker: FenceChar,
        indent: usize,
        len: usize,
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

/// Reads markdown chunk by chunk: lines applied once, the unfinished line
/// attached tentatively (see the crate docs).
#[derive(Debug, Clone)]
pub struct MarkdownStream {
    decoder: Decoder,
    blocks: Vec<Block>,
    /// Decoded bytes so far.
    offset: usize,
    /// The container directive a fence inside it interrupted (its depth
    /// and head): it goes on in a block of its own once the fence closes.
    outer: Option<(usize, Arc<Value>)>,
    /// The unfinished line, without its line ending.
    line: String,
    /// The last chunk ended in a `\r` not yet counted: it ends the line,
    /// with the `\n` after it if one comes.
    cr: bool,
    line_start: usize,
    line_no: usize,
    role: Role,
    pending_blank: String,
    inline: Inline,
    /// The healing state at the start of each line of the open prose
    /// block's last paragraphs (block offset, state), most recent last.
    lines: VecDeque<(usize, Inline)>,
    seen: Vec<Seen>,
    /// Where the healed view of the open block was last cut, and where its
    /// text last ended: `(block start, offset, UTF-16 units before it)`, so
    /// a reader's `drop` is counted from there, not from the block's start.
    units: [Cell<(usize, usize, usize)>; 2],
    /// Whether the visible part of a cut line read as another block, for
    /// `(line start, cut)` in the input: it stays so while the cut stays.
    reclassified: Cell<(usize, usize, bool)>,
    /// The input ended ([`MarkdownStream::end_input`]).
    finished: bool,
    /// [`MarkdownStream::finish`] ran: the last prose block is complete.
    completed: bool,
    catalog: Arc<Catalog>,
    /// The surface fences opened so far, and the ids their info named (for
    /// the body's codes: `too_many_surfaces`, `duplicate_surface_id`).
    fences: usize,
    surface_ids: sorted::Names,
}

impl Default for MarkdownStream {
    fn default() -> Self {
        MarkdownStream {
            decoder: Decoder::default(),
            blocks: Vec::new(),
            offset: 0,
            outer: None,
            line: String::new(),
            cr: false,
            line_start: 0,
            line_no: 1,
            role: Role::Undecided,
            pending_blank: String::new(),
            inline: Inline::default(),
            lines: VecDeque::new(),
            seen: Vec::new(),
            units: Default::default(),
            reclassified: Cell::new((usize::MAX, 0, false)),
            finished: false,
            completed: false,
            catalog: Catalog::builtin(),
            fences: 0,
            surface_ids: sorted::Names::default(),
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

    /// The input ended: a cut character becomes U+FFFD, an unfinished
    /// line too short to classify is read as if complete, and the last prose
    /// block is complete. Returns the last changes.
    pub fn finish(&mut self) -> Vec<Value> {
        let from = self.blocks.len().saturating_sub(1);
        self.end_input();
        // The end of the text completes what it does not leave open: prose,
        // but not an unclosed fence or container. A surface fence left open
        // is checked as the validator checks it, with `unclosed_fence`.
        self.completed = true;
        let catalog = Arc::clone(&self.catalog);
        let open = self.blocks.last_mut().filter(|b| !b.closed);
        let unchecked = open
            .and_then(|b| b.surface.as_mut())
            .filter(|s| s.issues.is_none());
        if let Some(s) = unchecked {
            let (line, id) = match &s.fence {
                Some(f) => (f.line, Some(f.id.as_str())),
                None => (s.refused.first().map_or(1, |r| r.line), None),
            };
            s.body.push(unclosed_fence(line, id));
            s.close(&catalog);
        }
        self.changes(from)
    }

    /// Reads what is left of the input as its end: the unfinished last
    /// line classified and read as complete. Blocks stay as the text left
    /// them (the last prose block keeps its healed view, for [`crate::heal`]).
    pub(crate) fn end_input(&mut self) {
        let rest = self.decoder.finish();
        self.read(&rest);
        if self.cr {
            self.cr = false;
            self.end_line("\r");
        }
        if !self.finished {
            self.finished = true;
            if self.role == Role::Undecided {
                if let Some(class) = classify(&self.line, true) {
                    self.take_class(class);
                }
            }
            // The text ended: an opener's line is complete, so its info is
            // checked as the validator checks it (fuzz finding fence_lines:
            // a surface fence's bad info on the last line went unrefused).
            if let Role::Candidate(candidate) = self.role {
                self.end_candidate(candidate, "");
                self.next_line();
            }
            // The text ended: its last body line is complete, as the
            // validator reads it (the stored text stays as it came).
            if self.role == Role::Body && !self.line.is_empty() {
                self.read_body_line();
            }
        }
    }

    /// Cuts `text` into lines as [`fence::lines`] does: a U+FEFF at the
    /// input's start is no text, and `\n`, `\r\n` and a lone `\r` each end a
    /// line. A chunk ending in `\r` holds it until the next byte says whether
    /// `\n` follows (or the input ends).
    fn read(&mut self, text: &str) {
        let mut rest = text;
        if self.offset == 0 {
            if let Some(after) = rest.strip_prefix('\u{feff}') {
                rest = after;
                self.offset = text.len() - after.len();
                self.line_start = self.offset;
            }
        }
        if self.cr && !rest.is_empty() {
            self.cr = false;
            let ending = if rest.starts_with('\n') { "\r\n" } else { "\r" };
            rest = rest.get(ending.len() - 1..).unwrap_or_default();
            self.end_line(ending);
        }
        while !rest.is_empty() {
            let Some(i) = rest.find(['\n', '\r']) else {
                self.extend_line(rest);
                self.offset += rest.len();
                return;
            };
            self.extend_line(rest.get(..i).unwrap_or_default());
            self.offset += i;
            let after = rest.get(i + 1..).unwrap_or_default();
            let ending = match (rest.as_bytes().get(i), after.as_bytes().first()) {
                (Some(b'\n'), _) => "\n",
                (_, Some(b'\n')) => "\r\n",
                (_, Some(_)) => "\r",
                (_, None) => {
                    self.cr = true;
                    return;
                }
            };
            rest = rest.get(i + ending.len()..).unwrap_or_default();
            self.end_line(ending);
        }
    }

    fn extend_line(&mut self, segment: &str) {
        let before = self.line.len();
        self.line.push_str(segment);
        match self.role {
            // A line still undecided past this length is blank so far (see
            // `classify`): more white space leaves it so.
            Role::Undecided if before > UNDECIDED_LIMIT + 3 && segment.trim().is_empty() => {
                work::read(segment.len());
            }
            Role::Undecided => {
                if let Some(class) = classify(&self.line, false) {
                    self.take_class(class);
                }
            }
            Role::Prose => self.inline.feed(segment),
            Role::Candidate(Candidate::Fence {
                marker,
                indent,
                mut len,
            }) => {
                work::read(segment.len());
                if before == indent + len {
                    // The fence run may still be growing.
                    len += segment.bytes().take_while(|b| *b == marker.byte()).count();
                    self.role = Role::Candidate(Candidate::Fence {
                        marker,
                        indent,
                        len,
                    });
                }
                let from = before.max(indent + len);
                let info = self.line.get(from..).unwrap_or_default();
                if marker == FenceChar::Backtick && info.contains('`') {
                    self.not_a_fence();
                }
            }
            // In a container directive a fence starts a block of its own
            // (only code blocks hide fences, SPEC.md section 8), known from
            // the line's first bytes.
            Role::Body if before < 7 && self.in_container() => {
                if let Some(Class::Candidate(c @ Candidate::Fence { .. })) =
                    classify(&self.line, false)
                {
                    self.role = Role::Candidate(c);
                }
            }
            Role::Candidate(_) | Role::Body => {}
        }
    }

    /// Whether the last block is an open container directive.
    fn in_container(&self) -> bool {
        self.blocks
            .last()
            .is_some_and(|b| b.has_body() && b.fence.is_none())
    }

    /// The unfinished line read as a fence opener is none: a body line of
    /// the open container, or prose.
    fn not_a_fence(&mut self) {
        if self.in_container() {
            self.role = Role::Body;
        } else {
            self.attach_prose(false);
        }
    }

    /// Acts on a class decided for the unfinished line.
    fn take_class(&mut self, class: Class) {
        match class {
            Class::Blank => {}
            Class::Prose => self.attach_prose(false),
            // In fenced code a list item holds, a heading's line is code.
            Class::Heading if self.in_inner_fence() => self.attach_prose(false),
            Class::Heading => self.attach_prose(true),
            // A directive's line is paragraph text to CommonMark: where the
            // prose before it (no blank line between) holds an open span (a
            // code span, emphasis, a link), the line goes on in it.
            Class::Candidate(Candidate::Leaf | Candidate::Container) if self.in_open_span() => {
                self.attach_prose(false)
            }
            Class::Candidate(candidate) => self.role = Role::Candidate(candidate),
        }
    }

    /// Whether the unfinished line follows the open prose block directly
    /// while a span in it is open.
    fn in_open_span(&self) -> bool {
        self.pending_blank.is_empty()
            && self
                .blocks
                .last()
                .is_some_and(|b| b.is_open_prose() && !b.heading)
            && self.inline.span_open()
    }

    /// Whether the unfinished line goes on in a fenced code block open in a
    /// list item of the open prose block.
    fn in_inner_fence(&self) -> bool {
        let spaces = self.line.bytes().take_while(|b| *b == b' ').count();
        self.blocks.last().is_some_and(|b| b.is_open_prose()) && self.inline.fence_holds(spaces)
    }

    /// The unfinished line is prose: continue the open prose block or start
    /// one, and feed the line to its healing state.
    fn attach_prose(&mut self, heading: bool) {
        let line = &self.line;
        let continues = match self.blocks.last() {
            Some(b) if b.is_open_prose() && !b.heading && !heading => {
                self.pending_blank.is_empty()
                    || self.inline.code_goes_on()
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
            // A leaf directive's line is paragraph text to CommonMark: the
            // list the prose before it is in goes on after it (its items
            // stay open, a line left of one may start a sibling with any
            // number), unless a blank line came between.
            let list = self.pending_blank.is_empty()
                && matches!(self.blocks.as_slice(), [.., p, d]
                    if d.kind == Kind::Directive && d.depth == 0 && p.kind == Kind::Prose && p.list);
            self.start_block(Kind::Prose);
            if let Some(b) = self.blocks.last_mut() {
                (b.heading, b.list) = (heading, list);
            }
            if list {
                self.inline.next_block();
            } else {
                self.inline = Inline::default();
            }
            self.lines.clear();
        }
        let start = self.blocks.last().map_or(0, |b| b.text.len());
        if self.lines.len() >= LINE_STATES {
            self.lines.pop_front();
        }
        self.lines.push_back((start, self.inline.clone()));
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

    /// Ends the unfinished line with `ending` (`\n`, `\r\n` or `\r`).
    fn end_line(&mut self, ending: &str) {
        self.offset += ending.len();
        if self.role == Role::Undecided {
            match classify(&self.line, true) {
                Some(Class::Blank) | None => {
                    if self.blocks.last().is_some_and(|b| b.is_open_prose()) {
                        self.pending_blank.push_str(&self.line);
                        self.pending_blank.push_str(ending);
                        self.inline.feed(&self.line);
                        self.inline.feed(ending);
                    }
                    self.next_line();
                    return;
                }
                Some(class) => self.take_class(class),
            }
        }
        match self.role {
            Role::Undecided => {}
            Role::Prose => self.end_prose_line(ending),
            Role::Candidate(candidate) => self.end_candidate(candidate, ending),
            Role::Body => self.end_body_line(ending),
        }
        self.next_line();
    }

    fn next_line(&mut self) {
        self.line.clear();
        self.line_start = self.offset;
        self.line_no += 1;
        if !self.blocks.last().is_some_and(Block::has_body) {
            if let Some((depth, head)) = self.outer.take() {
                let mut b = Block::new(Kind::Directive, self.line_start);
                (b.depth, b.head) = (depth, head);
                self.blocks.push(b);
            }
        }
        self.role = if self.blocks.last().is_some_and(Block::has_body) {
            Role::Body
        } else {
            Role::Undecided
        };
    }

    fn end_prose_line(&mut self, ending: &str) {
        self.inline.feed(ending);
        let line = &self.line;
        if let Some(b) = self.blocks.last_mut() {
            if b.text.is_empty() {
                b.list |= is_list_item(line);
            }
            b.text.push_str(line);
            b.text.push_str(ending);
            if b.heading {
                b.closed = true;
            }
        }
    }

    fn end_candidate(&mut self, candidate: Candidate, ending: &str) {
        let line = self.line.as_str();
        match candidate {
            Candidate::Fence { .. } => {
                let Some(open) = opening_fence(line) else {
                    self.not_a_fence();
                    return match self.role {
                        Role::Body => self.end_body_line(ending),
                        _ => self.end_prose_line(ending),
                    };
                };
                if self.in_container() {
                    if let Some(b) = self.blocks.last_mut() {
                        b.closed = true;
                        self.outer = Some((b.depth, Arc::clone(&b.head)));
                    }
                }
                let kind = if open.is_surface() {
                    Kind::Surface
                } else {
                    Kind::Code
                };
                let mut block = Block::new(kind, self.line_start);
                block.fence = Some((open.marker, open.len));
                block.head = Arc::new(json!({"lang": open.lang()}));
                if kind == Kind::Surface {
                    let mut refusal = None;
                    let (mut id, mut catalog) = (None, None);
                    match surface_info(&open) {
                        Some(Ok(info)) => {
                            id = Some(info.id);
                            catalog = info.catalog;
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
                    // The body's codes for this fence, as the validator
                    // reads the body.
                    let line = self.line_no;
                    self.fences += 1;
                    let mut codes = Vec::new();
                    if self.fences == MAX_SURFACES + 1 {
                        codes.push(too_many_surfaces(line, id.as_deref()));
                    }
                    if let Some(id) = id
                        .as_ref()
                        .filter(|id| !self.surface_ids.insert(id.to_string()))
                    {
                        codes.push(duplicate_surface_id(id, line));
                    }
                    block.head = Arc::new(json!({"id": id, "catalog": catalog}));
                    let mut body = Surface::new(id, catalog, line);
                    body.refused.extend(refusal);
                    body.body = codes;
                    block.surface = Some(body);
                }
                self.push_block(block, ending);
            }
            Candidate::Leaf => {
                let Some(name) = directive::leaf(line) else {
                    self.attach_prose(false);
                    return self.end_prose_line(ending);
                };
                let mut block = Block::new(Kind::Directive, self.line_start);
                block.head = Arc::new(json!({ "name": name }));
                block.closed = true;
                self.push_block(block, ending);
            }
            Candidate::Container => {
                let Some(name) = directive::container_open(line) else {
                    self.attach_prose(false);
                    return self.end_prose_line(ending);
                };
                let mut block = Block::new(Kind::Directive, self.line_start);
                block.head = Arc::new(json!({ "name": name }));
                block.depth = 1;
                self.push_block(block, ending);
            }
        }
    }

    fn push_block(&mut self, mut block: Block, ending: &str) {
        block.text.push_str(&self.line);
        block.text.push_str(ending);
        self.start_block(block.kind);
        if let Some(last) = self.blocks.last_mut() {
            *last = block;
        }
    }

    fn end_body_line(&mut self, ending: &str) {
        self.read_body_line();
        if let Some(b) = self.blocks.last_mut() {
            b.text.push_str(&self.line);
            b.text.push_str(ending);
        }
    }

    /// Reads the body line `self.line` as complete: it closes the fence or
    /// directive, or is the surface's next line. The block's text is the
    /// caller's to extend.
    fn read_body_line(&mut self) {
        let line_no = self.line_no;
        let line = self.line.as_str();
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
        if self.role != Role::Body || self.line.len() > PROBE_LIMIT {
            return false;
        }
        let line = self.line.as_str();
        match b.fence {
            Some((marker, len)) => closes_fence(marker, len, line),
            None => b.depth == 1 && directive::is_container_close(line),
        }
    }
}

/// What heals an open fence of `len` markers: a closing fence on a line of
/// its own (after a line break when `after_line`), or nothing for a fence
/// longer than [`PROBE_LIMIT`].
fn fence_closer(marker: FenceChar, len: usize, after_line: bool) -> String {
    let mut out = String::new();
    if len <= PROBE_LIMIT {
        if after_line {
            out.push('\n');
        }
        for _ in 0..len {
            out.push(char::from(marker.byte()));
        }
    }
    out
}

fn closes_fence(marker: FenceChar, len: usize, line: &str) -> bool {
    work::read(line.len());
    let open = OpeningFence {
        marker,
        len,
        indent: 0,
        info: "",
    };
    open.is_closed_by(line)
}

/// The first `limit` bytes of `text` (fewer, to end on a character).
fn probe(text: &str, limit: usize) -> &str {
    let mut end = limit.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    work::read(end);
    text.get(..end).unwrap_or_default()
}

/// Whether a prose line cut short for display would read as another kind
/// of block than the prose block `b` it belongs to.
fn reclassifies(visible: &str, b: &Block) -> bool {
    let line = fence::strip_line_ending(visible);
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
    work::read(line.len());
    if line.trim().is_empty() {
        return complete.then_some(Class::Blank);
    }
    let spaces = line.bytes().take_while(|b| *b == b' ').count();
    if spaces >= 4 || line.as_bytes().get(spaces) == Some(&b'\t') {
        return Some(Class::Prose);
    }
    let s = line.get(spaces..).unwrap_or_default();
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
                if opening_fence(line).is_none() {
                    return Some(Class::Prose);
                }
                let marker = if first == b'`' {
                    FenceChar::Backtick
                } else {
                    FenceChar::Tilde
                };
                Some(Class::Candidate(Candidate::Fence {
                    marker,
                    indent: spaces,
                    len: run,
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
    use serde_json::json;

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
                marker: FenceChar::Tilde,
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
    fn a_heading_line_in_fenced_code_a_list_item_holds_is_code() {
        // `  # x` is a comment in the item's fence, not a heading block;
        // once the item ends, `# y` heads again.
        let text = "- ```sh\n  # x **a\n";
        let d = doc(text);
        assert_eq!(kinds(&d), [("prose".into(), true)]);
        assert_eq!(crate::heal(text), text);
        let d = doc("- ```sh\n  # x\n# y **a");
        assert_eq!(kinds(&d).len(), 2);
        assert_eq!(
            crate::heal("- ```sh\n  # x\n# y **a"),
            "- ```sh\n  # x\n# y **a**"
        );
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
                ("prose".into(), true)
            ]
        );
        let s = &d["blocks"][1];
        assert_eq!(s["id"], "pricing");
        assert_eq!(s["catalog"], "blog@1");
        assert_eq!(s["components"].as_array().unwrap().len(), 2);
        assert_eq!(s["data"], json!({"billing":"monthly"}));
        assert_eq!(s["refused"], json!([]));
        assert_eq!(s["ghost"], Value::Null);
        assert_eq!(d["blocks"][2]["text"], "Questions? Ask in the comments.\n");
        assert_eq!(d["blocks"][2].get("healed"), None);
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
    fn an_opener_the_text_ends_on_is_read_as_its_last_line() {
        // The end of the text completes the opener's line: its info is
        // checked as the validator checks it (fuzz finding fence_lines).
        let d = doc("hi\n\n```surface {\"id\":\"a\"");
        let s = &d["blocks"][1];
        assert_eq!(
            (s["kind"].as_str(), s["complete"].as_bool()),
            (Some("surface"), Some(false))
        );
        assert_eq!(s["refused"][0]["code"], "invalid_fence_info");
        assert_eq!(s["refused"][0]["line"], 3);
        assert_eq!(s["healed"], "```surface {\"id\":\"a\"\n```");
        let d = doc("```surface {\"id\":\"a\"}");
        assert_eq!(d["blocks"][0]["id"], "a");
        assert_eq!(d["blocks"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn bad_surface_info_is_refused_on_its_line() {
        let d = doc("hi\n\n```surface {\"id\":\"Bad\"}\n```\n");
        let s = &d["blocks"][1];
        assert_eq!(s["id"], Value::Null);
        assert_eq!(s["refused"][0]["line"], 3);
        assert_eq!(s["refused"][0]["code"], "invalid_id");
        // Its body is not read (as the validator does not read it): no
        // components, no ghost of the line being written.
        let mut stream = MarkdownStream::new();
        stream.push("```surface {\"id\":\"Bad\"}\n{\"id\":\"root\",\"component\":\"Stack\"}\n{\"id\":\"t\",");
        let d = stream.document();
        assert_eq!(d["blocks"][0]["components"], json!([]));
        assert_eq!(d["blocks"][0]["ghost"], Value::Null);
    }

    #[test]
    fn the_bodys_own_codes_come_with_the_checks_of_their_fence() {
        // A second fence with the same id, and a last fence the text leaves
        // open: the codes validate_markdown gives, in any chunking, with the
        // checks of the fence they concern (the open one's once the text ends).
        let text = "```surface {\"id\":\"a\"}\n{\"id\":\"root\",\"component\":\"Stack\"}\n```\n\n```surface {\"id\":\"a\"}\n{\"id\":\"root\",\"component\":\"Stack\"}\n```\n\n```surface {\"id\":\"b\"}\n{\"id\":\"root\",\"component\":\"Nope\"}\n";
        let whole = validator_wasm::markdown::validate_markdown(text, &Catalog::default_blog());
        let body: Vec<_> = whole
            .iter()
            .filter(|i| i.path.is_empty())
            .map(|i| (i.code, i.line))
            .collect();
        assert_eq!(
            body,
            [
                ("duplicate_surface_id", Some(5)),
                ("unclosed_fence", Some(9))
            ]
        );
        for size in [1, 7, text.len()] {
            let mut stream = MarkdownStream::new();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
            }
            let before = stream.document();
            assert_eq!(
                before["blocks"][2]["issues"],
                Value::Null,
                "open, not yet checked"
            );
            stream.finish();
            let d = stream.document();
            let codes = |i: usize| -> Vec<(String, u64)> {
                let issues = d["blocks"][i]["issues"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                issues
                    .iter()
                    .map(|x| {
                        (
                            x["code"].as_str().unwrap().into(),
                            x["line"].as_u64().unwrap(),
                        )
                    })
                    .collect()
            };
            assert_eq!(codes(0), []);
            assert_eq!(codes(1), [("duplicate_surface_id".into(), 5)]);
            assert_eq!(
                codes(2),
                [
                    ("unknown_component".into(), 10),
                    ("unclosed_fence".into(), 9)
                ]
            );
            assert_eq!(d["blocks"][2]["complete"], false, "still open");
        }
    }

    #[test]
    fn a_list_goes_on_after_a_leaf_directive() {
        // To CommonMark `::e` is paragraph text: `3) ` after it may start
        // an item of a new list (the prose is in one), whose content would
        // end the code span, so none is added on its line
        // (fuzz/regressions/markdown_stream/a-list-going-on-after-a-leaf-directive).
        assert_eq!(crate::heal("- ]\n::e\n`\n3) "), "- ]\n::e\n`\n3) ");
    }

    #[test]
    fn a_leaf_directive_is_complete_once_its_line_ends() {
        let mut stream = MarkdownStream::new();
        stream.push("::no");
        let d = stream.document();
        assert_eq!(
            (&d["blocks"][0]["complete"], &d["blocks"][0]["name"]),
            (&json!(false), &json!("no"))
        );
        stream.push("te\n");
        let d = stream.document();
        assert_eq!(
            (&d["blocks"][0]["complete"], &d["blocks"][0]["name"]),
            (&json!(true), &json!("note"))
        );
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
        assert_eq!(kinds(&d), [("prose".into(), true)]);
    }

    #[test]
    fn prose_blocks_split_at_blank_lines_and_headings() {
        let d = doc("# Title\npara\n\nnext **b\n");
        assert_eq!(
            kinds(&d),
            [
                ("prose".into(), true),
                ("prose".into(), true),
                ("prose".into(), true)
            ]
        );
        // The end of the text completes the last prose block: no healed
        // view any more (heal() still gives it), and finish() says so.
        assert_eq!(d["blocks"][2].get("healed"), None);
        let mut s = MarkdownStream::new();
        s.push("next **b");
        assert_eq!(
            s.finish(),
            [json!({"op": "update", "block": 0, "complete": true, "heal": null})]
        );
        assert_eq!(crate::heal("next **b"), "next **b**");
        let d = doc("- a\n\n- b\n\n  more\n");
        assert_eq!(kinds(&d), [("prose".into(), true)]);
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
            s.end_input();
            s.healed_text(t)
        };
        assert_eq!(heal("a\n\nb **c"), "a\n\nb **c**");
        assert_eq!(heal("a **b\n\n"), "a **b\n\n");
        assert_eq!(heal("x ![i"), "x ");
        assert_eq!(heal("```\ncode"), "```\ncode\n```");
        assert_eq!(heal(""), "");
        // A lone `\r` after a code line's first character is code
        // (pulldown-cmark), and so are the lines after it, blank ones too:
        // the block goes on (fuzz/regressions/markdown_stream/
        // a-lone-cr-in-an-indented-code-line).
        assert_eq!(heal("    `\r\r`\n"), "    `\r\r`\n");
        assert_eq!(heal("    `\r \r`"), "    `\r \r`");
        // A container directive's closer is a line of its own, after an
        // opener the end of the text completed too (fuzz/regressions/
        // markdown_stream/a-directive-closer-glued-to-its-opener: healed as
        // `:::t:::`, the line read as prose and healed the code span).
        // (After an open code span the directive's line is the span's
        // text, as CommonMark reads it: fuzz/regressions/markdown_stream/
        // a-directive-line-inside-an-open-span.)
        assert_eq!(heal("`\n:::t"), "`\n:::t`");
        assert_eq!(heal("\u{fffd}```\n::e\nt```"), "\u{fffd}```\n::e\nt```");
        assert_eq!(heal("**a\n::e\nb**"), "**a\n::e\nb**");
        assert_eq!(heal("a\n:::t"), "a\n:::t\n:::");
        assert_eq!(heal(":::t\n"), ":::t\n:::");
        assert_eq!(heal(":::t\na"), ":::t\na\n:::");
        // A `\r\n` ends it.
        assert_eq!(heal("    `\r\n\r\n`b"), "    `\r\n\r\n`b`");
        // After a lone `\r` (half a `\r\n`, maybe), a closer goes on a line
        // of its own through a `\n` (fuzz/regressions/markdown_stream/
        // a-fence-opener-ending-in-a-lone-cr).
        assert_eq!(heal("a\n\n```js\r"), "a\n\n```js\r\n```");
        assert_eq!(heal(":::t\r"), ":::t\r\n:::");
    }
}

/// The work per chunk is proportional to the chunk (SPEC.md section 11):
/// every line shape the reader knows, written long and fed in 16-byte
/// chunks, costs (in bytes scanned) about twice as much for twice the text.
#[cfg(test)]
mod linear {
    use super::*;

    /// `(prefix, unit)`: the text is the prefix, then the unit repeated.
    const SHAPES: &[(&str, &str)] = &[
        ("", "word "),
        ("```js ", "a"),
        ("```", "a"),
        ("~~~ ", "a"),
        ("```surface ", "{\"id\":"),
        ("", "`"),
        ("", "~"),
        ("", "*"),
        ("", "_"),
        ("", "* "),
        ("", "-"),
        ("", "- "),
        ("", "#"),
        ("# ", "a"),
        ("", "|"),
        ("", ">"),
        ("", "["),
        ("", "]"),
        ("", ":"),
        ("::x", "a"),
        ("::x[", "a"),
        ("::x{", "a"),
        (":::x ", "a"),
        (":::x{", "a"),
        ("", "$"),
        ("$$", "a"),
        ("", "="),
        ("", "+"),
        ("", "<"),
        ("<div ", "a"),
        ("", "<a*"),
        ("", "<a b='x"),
        ("", "<a@b.c"),
        ("a `", "a"),
        ("a ", "`"),
        ("a `b", "`"),
        ("[", "a"),
        ("[a](", "a"),
        ("[a](", "("),
        ("*", "a"),
        ("", "*a"),
        ("a ", "*"),
        ("**", "a "),
        ("![", "a"),
        ("![", "é"),
        ("<", "é"),
        ("", " "),
        ("", "\t"),
        ("   ", "\t"),
        ("", "\\"),
        ("", "!"),
        ("```a`b ", "![x"),
        ("```a`b ", "x *"),
        ("::x{a} ", " *"),
        ("[a]: ", "x"),
        ("    ", "a"),
        ("1", "0"),
        ("- ", "a"),
        ("| a ", "| b "),
        ("> ", "> a"),
        ("", "a\n"),
        ("", "a\n\n"),
        ("", "**a\n"),
        ("a\n", "-"),
        ("![", "a\n"),
        ("```\n", "a"),
        ("```\n", "a\n"),
        ("```\n", "`"),
        ("```\n", " "),
        ("", "`````\n"),
        (":::x\n", "a"),
        (":::x\n", ":"),
        (":::x\n", "::x\n"),
        (":::x\n", "`"),
        (":::x\n```", "a"),
        (":::x\n```\n", "a"),
        (
            "```surface {\"id\":\"s\"}\n",
            "{\"id\":\"a\",\"component\":\"Text\"}\n",
        ),
        (
            "```surface {\"id\":\"s\"}\n{\"id\":\"t\",\"props\":{\"text\":\"",
            "a",
        ),
        (
            "```surface {\"id\":\"s\"}\n{\"id\":\"t\",\"props\":{\"text\":",
            "[",
        ),
        ("```surface {\"id\":\"s\"}\n", " "),
        ("$$\n", "a"),
        ("<!--", "a"),
        ("```", "`"),
        ("~~~~", "~"),
        ("| a |\n|-|\n", "| `x "),
        ("| a |\n", "|-"),
        ("", "> `a\n"),
        ("", ">"),
        ("- ", "* "),
        ("", "- a\n\n      `b\n"),
        ("", "a `b\n-\n"),
    ];

    fn cost(prefix: &str, unit: &str, n: usize) -> usize {
        let mut text = String::from(prefix);
        while text.len() < n {
            text.push_str(unit);
        }
        work::take();
        let mut stream = MarkdownStream::new();
        for chunk in text.as_bytes().chunks(16) {
            stream.push_bytes(chunk);
        }
        stream.finish();
        work::take()
    }

    #[test]
    fn every_line_shape_costs_its_length() {
        const N: usize = 32 * 1024;
        let mut slow = Vec::new();
        for (prefix, unit) in SHAPES {
            let (once, twice) = (cost(prefix, unit, N), cost(prefix, unit, 2 * N));
            if twice > once * 5 / 2 {
                slow.push((prefix, unit, once, twice));
            }
        }
        assert!(
            slow.is_empty(),
            "(prefix, unit, work for N, for 2N): {slow:?}"
        );
    }
}
