//! Sorting the short, nearly sorted lists the model and the player keep (belief spans,
//! acknowledgement times, stops, lane spans, paragraphs): a stable insertion sort, one small
//! function per element type. It owns nothing else.
//!
//! Why not the standard library's sorts: each of them weighs several KB of wasm per element
//! type (about 19 KB raw on the first page for nine lists). Every list sorted here arrives
//! in time order or close to it and holds at most a few thousand items, where an insertion
//! sort does about one comparison per item. A list in reverse order would cost n²/2 moves:
//! none of these is built that way.

/// Sorts `items` by `key`, keeping equal items in their order.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && key(&items[j - 1]) > key(&items[j]) {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `items` by `compare`, keeping equal items in their order.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> std::cmp::Ordering) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && compare(&items[j - 1], &items[j]).is_gt() {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `items` in ascending order, keeping equal items in their order.
pub fn sort<T: Ord>(items: &mut [T]) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && items[j - 1] > items[j] {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{sort, sort_by_key};
    use crate::sim::prng::Prng;

    #[test]
    fn agrees_with_the_standard_sort_and_is_stable() {
        let mut prng = Prng::new(7);
        for len in [0, 1, 2, 3, 10, 100, 500] {
            let items: Vec<(u64, usize)> = (0..len).map(|i| (prng.next_u64() % 20, i)).collect();
            let mut mine = items.clone();
            sort_by_key(&mut mine, |&(k, _)| k);
            let mut std = items.clone();
            std.sort_by_key(|&(k, _)| k);
            assert_eq!(mine, std, "stable by key, length {len}");
            let mut mine = items.clone();
            sort(&mut mine);
            let mut std = items;
            std.sort();
            assert_eq!(mine, std, "ascending, length {len}");
        }
    }
}
