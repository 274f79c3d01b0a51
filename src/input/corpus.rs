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

    /// An empty corpus with room for `bytes` of file data and `files` files.
    pub fn with_capacity(separator: u8, bytes: usize, files: usize) -> Corpus {
        Corpus {
            data: Vec::with_capacity(bytes + files),
            spans: Vec::with_capacity(files),
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
    }
}
