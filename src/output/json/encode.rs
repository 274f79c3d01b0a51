//! JSON's building blocks for the `--json` printer: escaped strings,
//! "arbitrary data" objects, base64, numbers and durations, written by hand
//! into the output buffer (no serde, no `fmt` on the hot path).

use std::time::Duration;

/// A duration in struct order: `{"secs":S,"nanos":N,"human":"…s"}`.
pub(super) fn write_duration(out: &mut Vec<u8>, d: Duration) {
    out.extend_from_slice(b"{\"secs\":");
    write_u64(out, d.as_secs());
    out.extend_from_slice(b",\"nanos\":");
    write_u64(out, u64::from(d.subsec_nanos()));
    out.extend_from_slice(b",\"human\":\"");
    out.extend_from_slice(human(d).as_bytes());
    out.extend_from_slice(b"\"}");
}

/// A duration with sorted keys: `{"human":"…s","nanos":N,"secs":S}`.
pub(super) fn write_duration_sorted(out: &mut Vec<u8>, d: Duration) {
    out.extend_from_slice(b"{\"human\":\"");
    out.extend_from_slice(human(d).as_bytes());
    out.extend_from_slice(b"\",\"nanos\":");
    write_u64(out, u64::from(d.subsec_nanos()));
    out.extend_from_slice(b",\"secs\":");
    write_u64(out, d.as_secs());
    out.push(b'}');
}

/// Seconds with six decimals, computed as ripgrep computes them.
pub(super) fn human(d: Duration) -> String {
    let fractional = f64::from(d.subsec_nanos()) / 1_000_000_000.0;
    format!("{:0.6}s", d.as_secs() as f64 + fractional)
}

/// An "arbitrary data" object: `{"text":"…"}` for UTF-8, else
/// `{"bytes":"<base64>"}`.
pub(super) fn write_data(out: &mut Vec<u8>, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            out.extend_from_slice(b"{\"text\":");
            write_str(out, text);
        }
        Err(_) => {
            out.extend_from_slice(b"{\"bytes\":\"");
            base64(out, bytes);
            out.push(b'"');
        }
    }
    out.push(b'}');
}

/// A JSON string, quoted and escaped as `serde_json` does.
pub(super) fn write_str(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0x00..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[from..i]);
        if esc.is_empty() {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
        } else {
            out.extend_from_slice(esc);
        }
        from = i + 1;
    }
    out.extend_from_slice(&bytes[from..]);
    out.push(b'"');
}

/// Standard base64 (RFC 4648, `+/`, padded).
pub(super) fn base64(out: &mut Vec<u8>, bytes: &[u8]) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sextet = |n: u32, shift: u32| ALPHABET[((n >> shift) & 0x3f) as usize];
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
        out.extend_from_slice(&[sextet(n, 18), sextet(n, 12), sextet(n, 6), sextet(n, 0)]);
    }
    match *chunks.remainder() {
        [] => {}
        [a] => {
            let n = u32::from(a) << 16;
            out.extend_from_slice(&[sextet(n, 18), sextet(n, 12), b'=', b'=']);
        }
        [a, b] => {
            let n = u32::from(a) << 16 | u32::from(b) << 8;
            out.extend_from_slice(&[sextet(n, 18), sextet(n, 12), sextet(n, 6), b'=']);
        }
        _ => unreachable!("chunks_exact(3) leaves fewer than 3"),
    }
}

/// A decimal number, without going through `fmt`.
pub(super) fn write_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(crate::output::decimal::Decimal::new(n).as_bytes());
}
