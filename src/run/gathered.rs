//! Files' outputs written to stdout together by one vectored write.
//!
//! The printer of files searched by many threads writes every file's
//! output itself, in order, and with dense output it is the run's one
//! serial step; copying each output into the 64 KiB stdout buffer was much
//! of its work (`-n -w the` over 20,516 prose files, 62 MB, into
//! /dev/null, dev VM: 6.5-7 ms of copying against 0.2-0.25 ms written
//! from the outputs themselves; H200 host, 16 threads, `-n -i e` over the
//! Linux tree 0.088 → 0.080 s, rg 0.094). So the printer keeps whole
//! outputs here, owned, and writes them in one `writev` once
//! [`GATHER_BYTES`] or [`GATHER_BUFFERS`] are held, before it waits for a
//! result, before any other write (a part of a file's output, a packed
//! output, a message) and at its end. Outputs shorter than [`COPY_BELOW`] (a count, a name) are
//! copied into a buffer of the gather's own, as the stdout buffer would.
//!
//! Not for a terminal nor `--line-buffered`, which want each file's lines
//! at once: there the outputs are written as they come ([`Gathered::off`]).

use std::io::{self, IoSlice, IsTerminal, Write};

/// Bytes held before they are written.
const GATHER_BYTES: usize = 256 << 10;

/// Buffers held before they are written (Linux takes 1,024 at most in one
/// `writev`).
const GATHER_BUFFERS: usize = 512;

/// Outputs shorter than this are copied.
const COPY_BELOW: usize = 1024;

/// Room of a buffer that short outputs are copied into.
const COPY_ROOM: usize = 16 << 10;

/// Outputs taken whole and not yet written.
#[derive(Default)]
pub(crate) struct Gathered {
    on: bool,
    bufs: Vec<Vec<u8>>,
    /// The last of `bufs` is one of ours that short outputs are copied into.
    copying: bool,
    bytes: usize,
}

impl Gathered {
    /// Outputs are gathered from now on.
    pub(crate) fn on() -> Gathered {
        Gathered {
            on: true,
            ..Gathered::default()
        }
    }

    /// Gathered into a pipe or a file; written as they come to a terminal
    /// or with `--line-buffered`.
    pub(crate) fn for_stdout(line_buffered: bool) -> Gathered {
        match line_buffered || io::stdout().is_terminal() {
            true => Gathered::off(),
            false => Gathered::on(),
        }
    }

    /// Outputs are written as they come.
    pub(crate) fn off() -> Gathered {
        Gathered::default()
    }

    /// Takes `buf` to be written after what is held; writes all once
    /// enough is held. Off, writes `buf` now.
    pub(crate) fn push(&mut self, buf: Vec<u8>, out: &mut dyn Write) -> io::Result<()> {
        if !self.on {
            out.write_all(&buf)?;
            crate::output::spare::give(buf);
            return Ok(());
        }
        if buf.is_empty() {
            return Ok(());
        }
        self.bytes += buf.len();
        if buf.len() < COPY_BELOW {
            match self.bufs.last_mut() {
                Some(last) if self.copying && last.len() + buf.len() <= last.capacity() => {
                    last.extend_from_slice(&buf);
                }
                _ => {
                    let mut copy = Vec::with_capacity(COPY_ROOM);
                    copy.extend_from_slice(&buf);
                    self.bufs.push(copy);
                    self.copying = true;
                }
            }
        } else {
            self.bufs.push(buf);
            self.copying = false;
        }
        if self.bytes >= GATHER_BYTES || self.bufs.len() >= GATHER_BUFFERS {
            self.write(out)?;
        }
        Ok(())
    }

    /// Writes what is held, in order, and hands the files' buffers back
    /// (`output::spare`).
    pub(crate) fn write(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.bufs.is_empty() {
            return Ok(());
        }
        let mut slices: Vec<IoSlice> = self.bufs.iter().map(|b| IoSlice::new(b)).collect();
        write_all_vectored(out, &mut slices)?;
        for buf in self.bufs.drain(..) {
            crate::output::spare::give(buf);
        }
        self.copying = false;
        self.bytes = 0;
        Ok(())
    }
}

/// `Write::write_all_vectored`, which is not stable: writes every slice,
/// however many calls it takes.
fn write_all_vectored(out: &mut dyn Write, mut slices: &mut [IoSlice]) -> io::Result<()> {
    IoSlice::advance_slices(&mut slices, 0);
    while !slices.is_empty() {
        match out.write_vectored(slices) {
            Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero)),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes at most `most` bytes a call, one slice's worth or less, as a
    /// pipe may.
    struct Trickle {
        got: Vec<u8>,
        most: usize,
        calls: usize,
    }

    impl Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let n = buf.len().min(self.most);
            self.got.extend_from_slice(&buf[..n]);
            self.calls += 1;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn outputs_are_written_whole_and_in_order_however_the_writes_are_cut() {
        let outputs: Vec<Vec<u8>> = (0..2000usize)
            .map(|i| {
                let len = [0, 3, 700, 1023, 1024, 5000, 70_000][i % 7];
                (0..len).map(|j| (i * 31 + j) as u8).collect()
            })
            .collect();
        for most in [1, 4096, usize::MAX] {
            let mut out = Trickle {
                got: Vec::new(),
                most,
                calls: 0,
            };
            let mut g = Gathered::on();
            for o in &outputs {
                g.push(o.clone(), &mut out).unwrap();
            }
            g.write(&mut out).unwrap();
            assert_eq!(out.got, outputs.concat(), "at most {most} bytes a call");
        }
    }

    #[test]
    fn nothing_is_written_until_enough_is_held() {
        let mut out = Vec::new();
        let mut g = Gathered::on();
        g.push(vec![b'a'; 2000], &mut out).unwrap();
        g.push(b"b:1\n".to_vec(), &mut out).unwrap();
        assert!(out.is_empty());
        g.push(vec![b'c'; GATHER_BYTES], &mut out).unwrap();
        assert_eq!(out.len(), 2004 + GATHER_BYTES);
        g.push(b"d\n".to_vec(), &mut out).unwrap();
        g.write(&mut out).unwrap();
        assert!(out.ends_with(b"cd\n"));
    }

    #[test]
    fn off_writes_each_output_as_it_comes() {
        let mut out = Vec::new();
        let mut g = Gathered::off();
        g.push(b"a:1\n".to_vec(), &mut out).unwrap();
        assert_eq!(out, b"a:1\n");
    }

    #[test]
    fn a_failed_write_is_an_error() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Ok(0)
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut g = Gathered::on();
        g.push(b"x\n".to_vec(), &mut Full).unwrap();
        let err = g.write(&mut Full).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WriteZero);
    }
}
