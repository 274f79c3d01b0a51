//! CPU engine
