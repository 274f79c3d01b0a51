//! Results the search threads found ahead of the printer, kept in the
//! batches they came in until the printer reaches them.
//!
//! A large directory is searched while it is still being read, and the
//! printer can print none of it until the listing ends (name order needs
//! every name): on 16 cores all 20,512 files of one directory were searched
//! by then (listing 21-28 ms of a 40 ms run), so every result waited at
//! once. Each used to be moved into a box of its own on arrival, a second
//! copy beside its batch at the peak (2 MB of 27.5 MB there).

use crate::run::one::FileResult;
use std::collections::VecDeque;
use std::io;

/// Results as a search thread sends them: (file id, result).
pub(super) type Batch = Vec<(usize, io::Result<FileResult>)>;

/// `results` as a batch to send, in a vector of its length (a batch's
/// vector was made for the whole batch, and threads that take the later
/// half of others' batches leave it half empty while it waits for the
/// printer); `results` is left empty.
pub(super) fn exact(results: &mut Batch) -> Batch {
    let mut exact = Vec::with_capacity(results.len());
    exact.append(results);
    exact
}

#[derive(Default)]
pub(super) struct Found {
    /// Where each waiting result is, by id: (batch slot, place in the
    /// batch). A table over the ids waiting (a directory's files have
    /// ids close together): a `HashMap` of 20,512 results held 0.8 MB.
    at: Places,
    /// Batches with results not taken yet, and how many.
    batches: Vec<Option<(usize, Batch)>>,
    /// Slots of `batches` emptied.
    free: Vec<u32>,
}

impl Found {
    /// Keeps `batch`'s results until taken.
    pub(super) fn add(&mut self, batch: Batch) {
        if batch.is_empty() {
            return;
        }
        let slot = self.free.pop().unwrap_or_else(|| {
            self.batches.push(None);
            u32::try_from(self.batches.len() - 1).unwrap_or(u32::MAX)
        });
        for (place, (id, _)) in batch.iter().enumerate() {
            let place = u32::try_from(place).unwrap_or(u32::MAX);
            self.at.insert(*id, (slot, place));
        }
        if let Some(s) = self.batches.get_mut(slot as usize) {
            *s = Some((batch.len(), batch));
        }
    }

    /// File `id`'s result, if it came; its batch is freed with its last.
    pub(super) fn take(&mut self, id: usize) -> Option<io::Result<FileResult>> {
        let (slot, place) = self.at.remove(id)?;
        let s = self.batches.get_mut(slot as usize)?;
        let (left, batch) = s.as_mut()?;
        let taken = &mut batch.get_mut(place as usize)?.1;
        let result = std::mem::replace(taken, Ok(FileResult::default()));
        *left -= 1;
        if *left == 0 {
            *s = None;
            self.free.push(slot);
        }
        Some(result)
    }
}

/// (batch slot, place) by id, over the range of ids held.
#[derive(Default)]
struct Places {
    /// The id of `by_id[0]`.
    first: usize,
    by_id: VecDeque<(u32, u32)>,
}

/// An id with no result waiting.
const NONE: (u32, u32) = (u32::MAX, u32::MAX);

impl Places {
    fn insert(&mut self, id: usize, place: (u32, u32)) {
        if self.by_id.is_empty() {
            self.first = id;
        }
        while id < self.first {
            self.by_id.push_front(NONE);
            self.first -= 1;
        }
        let at = id - self.first;
        if at >= self.by_id.len() {
            self.by_id.resize(at + 1, NONE);
        }
        self.by_id[at] = place;
    }

    fn remove(&mut self, id: usize) -> Option<(u32, u32)> {
        let at = id.checked_sub(self.first)?;
        let place = std::mem::replace(self.by_id.get_mut(at)?, NONE);
        while self.by_id.front() == Some(&NONE) {
            self.by_id.pop_front();
            self.first += 1;
        }
        (place != NONE).then_some(place)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(lines: u64) -> io::Result<FileResult> {
        Ok(FileResult {
            lines,
            ..FileResult::default()
        })
    }

    fn lines(r: Option<io::Result<FileResult>>) -> Option<u64> {
        r.map(|r| r.map_or(u64::MAX, |r| r.lines))
    }

    #[test]
    fn results_are_taken_by_id_in_any_order_and_batches_reused() {
        let mut found = Found::default();
        found.add(vec![(3, result(30)), (1, result(10))]);
        found.add(vec![(2, result(20))]);
        assert_eq!(lines(found.take(1)), Some(10));
        assert_eq!(lines(found.take(1)), None, "taken once");
        assert_eq!(lines(found.take(2)), Some(20));
        assert_eq!(found.free, vec![1]);
        found.add(vec![(4, result(40))]);
        assert!(found.free.is_empty(), "the emptied slot is reused");
        assert_eq!(lines(found.take(3)), Some(30));
        assert_eq!(lines(found.take(4)), Some(40));
        assert_eq!(lines(found.take(5)), None);
        assert!(found.batches.iter().all(Option::is_none));
        assert!(found.at.by_id.is_empty(), "the table shrinks as results go");
    }

    #[test]
    fn a_batch_is_sent_in_a_vector_of_its_length() {
        let mut results = Vec::with_capacity(128);
        results.push((1, result(1)));
        let sent = exact(&mut results);
        assert_eq!((sent.len(), sent.capacity()), (1, 1));
        assert!(
            results.is_empty() && results.capacity() == 128,
            "kept for the rest"
        );
    }

    #[test]
    fn places_cover_ids_arriving_below_and_above() {
        let mut p = Places::default();
        p.insert(10, (0, 0));
        p.insert(7, (0, 1));
        p.insert(12, (1, 0));
        assert_eq!(p.remove(11), None);
        assert_eq!(p.remove(10), Some((0, 0)));
        assert_eq!(p.remove(10), None);
        assert_eq!(p.remove(7), Some((0, 1)));
        assert_eq!(p.first, 12, "emptied ids in front are dropped");
        assert_eq!(p.remove(3), None);
        assert_eq!(p.remove(12), Some((1, 0)));
        assert!(p.by_id.is_empty());
    }
}
