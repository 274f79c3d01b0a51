//! The corpus: many files laid out in one buffer, for engines that search
//! everything in one pass (the GPU).
//!
//! Files are concatenated with one separator byte after each (the line
//! terminator, so line-confined patterns cannot reach across), and a table
//! of spans maps a global offset back to (file, offset, line). A match is
//! accepted only when it lies inside one file's span, so no match spans two
//! files whatever bytes the pattern holds.

/// Where one file lies in the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: u64,
    pub len: u64,
}

/// A position inside one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// Index of the file, in the order files were added.
    pub file: usize,
    /// Byte offset inside the file.
    pub offset: u64,
}

/// Files laid out in one address space.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    data: Vec<u8>,
    spans: Vec<Span>,
    separator: u8,
}

impl Corpus {
    /// An empty corpus whose files will be separated by `separator`.
    pub fn new(separator: u8) -> Corpus {
        Corpus {
            data: Vec::new(),
            spans: Vec::new(),
            separator,
        }
    }

    /// Lays out `files` in order, copying them with up to `threads` threads
    /// (page faults on the fresh buffer and the copy both scale with cores).
    pub fn from_files(separator: u8, files: &[&[u8]], threads: usize) -> Corpus {
        let mut spans = Vec::with_capacity(files.len());
        let mut at = 0u64;
        for f in files {
            spans.push(Span {
                start: at,
                len: f.len() as u64,
            });
            at += f.len() as u64 + 1;
        }
        // Zeroed memory comes from the kernel untouched (calloc): the pages
        // are faulted in by the copying threads, not by one memset.
        let mut data = vec![0u8; at as usize];
        // Cut the buffer into one run of whole files per thread.
        let per_thread = (at as usize).div_ceil(threads.max(1)).max(1);
        let mut jobs: Vec<(&mut [u8], &[&[u8]])> = Vec::new();
        let (mut rest, mut first) = (data.as_mut_slice(), 0);
        while first < files.len() {
            let mut last = first;
            let mut size = 0;
            while last < files.len() && (size < per_thread || last == first) {
                size += files[last].len() + 1;
                last += 1;
            }
            let (head, tail) = rest.split_at_mut(size);
            jobs.push((head, &files[first..last]));
            rest = tail;
            first = last;
        }
        std::thread::scope(|scope| {
            for (buf, group) in jobs {
                scope.spawn(move || {
                    let mut at = 0;
                    for f in group {
                        buf[at..at + f.len()].copy_from_slice(f);
                        buf[at + f.len()] = separator;
                        at += f.len() + 1;
                    }
                });
            }
        });
        Corpus {
            data,
            spans,
            separator,
        }
    }

    /// Appends a file; returns its index.
    pub fn push(&mut self, bytes: &[u8]) -> usize {
        let start = self.data.len() as u64;
        self.data.extend_from_slice(bytes);
        self.data.push(self.separator);
        self.spans.push(Span {
            start,
            len: bytes.len() as u64,
        });
        self.spans.len() - 1
    }

    /// The whole buffer, separators included.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when no file was added.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Where file `i` lies.
    pub fn span(&self, i: usize) -> Span {
        self.spans[i]
    }

    /// The bytes of file `i`.
    pub fn file(&self, i: usize) -> &[u8] {
        let s = self.spans[i];
        &self.data[s.start as usize..(s.start + s.len) as usize]
    }

    /// The file and offset of a global offset; `None` on a separator or
    /// past the end.
    pub fn locate(&self, global: u64) -> Option<Location> {
        let i = self
            .spans
            .partition_point(|s| s.start <= global)
            .checked_sub(1)?;
        let s = self.spans[i];
        (global < s.start + s.len).then_some(Location {
            file: i,
            offset: global - s.start,
        })
    }

    /// The file and offset of a match `[start, start + len)`, when it lies
    /// inside one file (an empty match may sit at the file's end).
    pub fn locate_match(&self, start: u64, len: u64) -> Option<Location> {
        let i = self
            .spans
            .partition_point(|s| s.start <= start)
            .checked_sub(1)?;
        let s = self.spans[i];
        let end = start.checked_add(len)?;
        (end <= s.start + s.len && (len > 0 || start <= s.start + s.len)).then_some(Location {
            file: i,
            offset: start - s.start,
        })
    }

    /// The 1-based line number of a location, counting `terminator` bytes.
    pub fn line_number(&self, loc: Location, terminator: u8) -> u64 {
        let file = self.file(loc.file);
        1 + crate::search::count_byte(&file[..loc.offset as usize], terminator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_lookup() {
        let mut c = Corpus::new(b'\n');
        c.push(b"ab");
        c.push(b"");
        c.push(b"c\nd");
        assert_eq!(c.bytes(), b"ab\n\nc\nd\n");
        assert_eq!(c.locate(1), Some(Location { file: 0, offset: 1 }));
        assert_eq!(c.locate(2), None);
        assert_eq!(c.locate(3), None);
        assert_eq!(c.locate(6), Some(Location { file: 2, offset: 2 }));
        assert_eq!(c.line_number(Location { file: 2, offset: 2 }, b'\n'), 2);
        assert_eq!(c.locate_match(1, 2), None);
        assert_eq!(c.locate_match(4, 3), Some(Location { file: 2, offset: 0 }));
        assert_eq!(c.locate_match(3, 0), Some(Location { file: 1, offset: 0 }));
        for threads in 1..5 {
            let p = Corpus::from_files(b'\n', &[b"ab", b"", b"c\nd"], threads);
            assert_eq!(p.bytes(), c.bytes());
            assert_eq!(
                (0..3).map(|i| p.span(i)).collect::<Vec<_>>(),
                (0..3).map(|i| c.span(i)).collect::<Vec<_>>()
            );
        }
    }
}
