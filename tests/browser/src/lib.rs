//! Browser suites live in `tests/`; this crate only hosts them.
