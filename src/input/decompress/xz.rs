//! xz streams, one after another (`cat a.xz b.xz`).
//!
//! liblzma's multi-stream decoder runs on into the next stream within one
//! read, so when that stream is damaged the read fails and the text already
//! decoded from the streams before it is lost. Here each stream gets its own
//! decoder: a stream's text is handed out before the next stream is begun,
//! and grep prints the lines found before the damage, as `zgrep` does.

use liblzma::bufread::XzDecoder;
use std::io::{self, BufRead, Read};

/// The decompressed content of every xz stream in `R`, in order.
pub struct Streams<R: BufRead> {
    decoder: Option<XzDecoder<R>>,
}

impl<R: BufRead> Streams<R> {
    pub fn new(inner: R) -> Self {
        Streams {
            decoder: Some(XzDecoder::new(inner)),
        }
    }
}

impl<R: BufRead> Read for Streams<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(decoder) = self.decoder.as_mut() else {
                return Ok(0);
            };
            let n = decoder.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // A stream ended: another may follow, after stream padding
            // (NUL bytes).
            let Some(decoder) = self.decoder.take() else {
                return Ok(0);
            };
            let mut inner = decoder.into_inner();
            loop {
                let rest = inner.fill_buf()?;
                if rest.is_empty() {
                    return Ok(0);
                }
                let padding = rest.iter().take_while(|&&b| b == 0).count();
                if padding == 0 {
                    break;
                }
                inner.consume(padding);
            }
            self.decoder = Some(XzDecoder::new(inner));
        }
    }
}
