//! Coalescing: at most one morph per interval, and the latest update wins.
//!
//! The pure half of the preview scheduler. The browser half only reads the
//! clock, sets one timer when told to, and runs the morph.

use alloc::string::String;
use alloc::vec::Vec;

/// The shortest time between two morphs: 250 ms, so at most 4 a second.
pub const MIN_INTERVAL_MS: f64 = 250.0;

/// What to do with an update that just arrived.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decision {
    /// The last morph is long enough ago: morph now.
    RunNow,
    /// Too soon: set a timer for this time (same clock as `now`).
    RunAt(f64),
    /// A timer is already set; it will take this update with it.
    Wait,
}

/// Decides when the next morph may run.
///
/// ```
/// use morph::gate::{Decision, Gate};
/// let mut gate = Gate::default();
/// assert_eq!(gate.offer(1000.0), Decision::RunNow);
/// gate.ran(1000.0);
/// assert_eq!(gate.offer(1100.0), Decision::RunAt(1250.0));
/// assert_eq!(gate.offer(1200.0), Decision::Wait);
/// ```
#[derive(Debug, Default)]
pub struct Gate {
    last_run: Option<f64>,
    timer_set: bool,
}

impl Gate {
    /// An update arrived at `now` (milliseconds).
    pub fn offer(&mut self, now: f64) -> Decision {
        if self.timer_set {
            return Decision::Wait;
        }
        match self.last_run {
            Some(last) if now - last < MIN_INTERVAL_MS && now >= last => {
                self.timer_set = true;
                Decision::RunAt(last + MIN_INTERVAL_MS)
            }
            _ => Decision::RunNow,
        }
    }

    /// A morph ran at `now` (whether started by the timer or at once).
    pub fn ran(&mut self, now: f64) {
        self.last_run = Some(now);
        self.timer_set = false;
    }
}

/// Updates waiting for the next morph. A whole document replaces everything
/// pending; a section replaces the pending version of the same section and is
/// applied after a pending document (it arrived later).
///
/// Generic over how the HTML is held (a JS string in the browser).
#[derive(Debug, PartialEq)]
pub struct Pending<H = String> {
    /// The latest whole document (or fragment for the whole target).
    pub document: Option<H>,
    /// The latest HTML of each section, in order of first arrival.
    pub sections: Vec<(String, H)>,
}

impl<H> Default for Pending<H> {
    fn default() -> Self {
        Pending {
            document: None,
            sections: Vec::new(),
        }
    }
}

impl<H> Pending<H> {
    /// A whole document arrived: it supersedes everything pending.
    pub fn document(&mut self, html: H) {
        self.document = Some(html);
        self.sections.clear();
    }

    /// A section arrived: the latest HTML for a key wins.
    pub fn section(&mut self, key: String, html: H) {
        match self.sections.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = html,
            None => self.sections.push((key, html)),
        }
    }

    /// Whether there is anything to morph.
    pub fn is_empty(&self) -> bool {
        self.document.is_none() && self.sections.is_empty()
    }

    /// Takes everything pending, leaving nothing.
    pub fn take(&mut self) -> Pending<H> {
        core::mem::take(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn the_first_update_runs_at_once() {
        assert_eq!(Gate::default().offer(0.0), Decision::RunNow);
    }

    #[test]
    fn updates_within_the_interval_share_one_timer() {
        let mut gate = Gate::default();
        gate.ran(0.0);
        assert_eq!(gate.offer(10.0), Decision::RunAt(250.0));
        for t in [20.0, 100.0, 249.0] {
            assert_eq!(gate.offer(t), Decision::Wait);
        }
        gate.ran(250.0);
        assert_eq!(gate.offer(400.0), Decision::RunAt(500.0));
    }

    #[test]
    fn an_update_after_the_interval_runs_at_once() {
        let mut gate = Gate::default();
        gate.ran(0.0);
        assert_eq!(gate.offer(250.0), Decision::RunNow);
    }

    #[test]
    fn a_clock_that_went_back_does_not_stall_the_preview() {
        let mut gate = Gate::default();
        gate.ran(1000.0);
        assert_eq!(gate.offer(10.0), Decision::RunNow);
    }

    #[test]
    fn a_steady_stream_yields_at_most_four_morphs_a_second() {
        let mut gate = Gate::default();
        let mut timer: Option<f64> = None;
        let mut runs = 0;
        // An update every 10 ms for 2 seconds; timers fire on time.
        for step in 0..200 {
            let now = f64::from(step) * 10.0;
            if timer.is_some_and(|t| t <= now) {
                gate.ran(now);
                runs += 1;
                timer = None;
            }
            match gate.offer(now) {
                Decision::RunNow => {
                    gate.ran(now);
                    runs += 1;
                }
                Decision::RunAt(t) => timer = Some(t),
                Decision::Wait => {}
            }
        }
        assert!((8..=9).contains(&runs), "{runs} morphs in 2 s");
    }

    #[test]
    fn the_latest_update_wins() {
        let mut pending: Pending = Pending::default();
        pending.section("a".into(), "1".into());
        pending.section("b".into(), "1".into());
        pending.section("a".into(), "2".into());
        assert_eq!(
            pending.sections,
            vec![("a".into(), "2".into()), ("b".into(), "1".into())]
        );
        pending.document("doc".into());
        assert!(pending.sections.is_empty());
        pending.section("c".into(), "3".into());
        let taken = pending.take();
        assert_eq!(taken.document.as_deref(), Some("doc"));
        assert_eq!(taken.sections.len(), 1);
        assert!(pending.is_empty());
    }
}
