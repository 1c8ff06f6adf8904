//! Sorting for the short lists and small maps the model and the page keep: a stable insertion
//! sort for lists that arrive nearly sorted (belief spans, acknowledgement times, stops,
//! lane spans, paragraphs), and maps and sets kept as sorted vectors. It owns nothing else.
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

/// A map kept as a vector sorted by key: the few-entry maps of the model and the page (a
/// node's keys, a run's lanes, a language pack). Lookups are binary searches; inserting
/// moves the entries after the new one. It iterates in key order, as a `BTreeMap` does.
///
/// Why not `BTreeMap`: its code is instantiated per key and value type and weighs several
/// KB of wasm each; these maps hold a handful to a few hundred entries, where a sorted
/// vector is as fast and cheaper to clone (a frame per event clones every node's keys).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap { entries: Vec::new() }
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        SortedMap { entries: Vec::new() }
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`; returns the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The value at `key`, made by `make` first if there is none.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }
}

impl<K, V> SortedMap<K, V> {
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    /// The entries in key order.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// Later entries win over earlier ones with the same key, as with `BTreeMap`.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut map = SortedMap::new();
        for (key, value) in items {
            map.insert(key, value);
        }
        map
    }
}

/// A set kept as a sorted vector, for the same reasons as [`SortedMap`].
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct SortedSet<T> {
    items: SortedMap<T, ()>,
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        SortedSet { items: SortedMap::default() }
    }
}

impl<T: Ord> SortedSet<T> {
    pub const fn new() -> Self {
        SortedSet { items: SortedMap::new() }
    }

    /// Adds `item`; false when it was there already.
    pub fn insert(&mut self, item: T) -> bool {
        self.items.insert(item, ()).is_none()
    }

    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
    {
        self.items.contains_key(item)
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
    {
        self.items.remove(item).is_some()
    }
}

impl<T> SortedSet<T> {
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.keys()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl<T: Ord> FromIterator<T> for SortedSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        SortedSet { items: items.into_iter().map(|item| (item, ())).collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::{SortedMap, SortedSet, sort, sort_by_key};

    /// A small generator of its own, so this bottom-layer module names no other.
    struct Lcg(u64);

    impl Lcg {
        fn next_u64(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 11
        }
    }

    #[test]
    fn agrees_with_the_standard_sort_and_is_stable() {
        let mut prng = Lcg(7);
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

    #[test]
    fn the_sorted_map_behaves_like_a_btree_map() {
        let mut prng = Lcg(11);
        let mut mine: SortedMap<u64, u64> = SortedMap::new();
        let mut reference = std::collections::BTreeMap::new();
        for step in 0..2_000 {
            let key = prng.next_u64() % 64;
            match prng.next_u64() % 3 {
                0 => assert_eq!(mine.insert(key, step), reference.insert(key, step)),
                1 => assert_eq!(mine.remove(&key), reference.remove(&key)),
                _ => assert_eq!(mine.get(&key), reference.get(&key)),
            }
            assert_eq!(mine.len(), reference.len());
        }
        let pairs: Vec<(u64, u64)> = mine.iter().map(|(k, v)| (*k, *v)).collect();
        let expected: Vec<(u64, u64)> = reference.into_iter().collect();
        assert_eq!(pairs, expected, "key order");
        let set: SortedSet<&str> = ["b", "a", "b", "c"].into_iter().collect();
        assert_eq!(set.iter().copied().collect::<Vec<_>>(), ["a", "b", "c"]);
    }
}
