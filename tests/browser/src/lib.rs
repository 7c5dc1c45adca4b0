//! Nothing to build: the tests under `tests/` drive the page.
