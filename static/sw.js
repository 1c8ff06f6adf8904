// The service worker: after one visit the site works with no network. scripts/build
// writes the list of files (both pages' hashed bundles, the lessons, the language packs)
// and a version made from their contents into the copy in dist/.
//
// Each deploy has its own cache, filled whole before this worker takes over; pages opened
// under the previous worker keep it until they close or the learner accepts the page's
// "a new version is ready" offer (the page then posts 'skip-waiting' and reloads), so a
// page never mixes the files of two deploys. Old caches go when the new worker activates.
// An install that fails (a file in the list is missing or the network drops) deletes the
// half-filled cache it opened, so a broken deploy leaves nothing behind on any visit.
'use strict';
const VERSION = '%VERSION%';
const FILES = %FILES%;
const PREFIX = 'fencing-playground-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES))
      // Rethrown: the install must still fail, so the previous worker keeps serving.
      .catch((error) => caches.delete(CACHE).then(() => { throw error; })),
  );
});

// Only the learner's click in a page (see the pages' inline script) activates a waiting
// worker early; any other message is ignored.
self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
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
