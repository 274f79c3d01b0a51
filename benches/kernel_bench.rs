//! Kernel benchmark (filled in by the GPU engine work).
fn main() {}
