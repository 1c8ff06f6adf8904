// The service worker: after one visit the site works with no network. scripts/build
// writes the list of files (both pages' hashed bundles, the lessons, the language packs)
// and a version made from their contents into the copy in dist/.
//
// Each deploy has its own cache, filled whole before this worker takes over; pages opened
// under the previous worker keep it (no skipWaiting) until they close, so a page never
// mixes the files of two deploys. Old caches go when the new worker activates.
'use strict';
const VERSION = '%VERSION%';
const FILES = %FILES%;
const PREFIX = 'fencing-playground-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// Cache first (every file is named by its content or belongs to this deploy), then the
// network for anything else (a host page, a course package's files).
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((hit) => hit || fetch(request)),
  );
});
