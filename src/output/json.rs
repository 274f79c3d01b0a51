//! ripgrep-compatible JSON Lines output (see `JsonSink`).
