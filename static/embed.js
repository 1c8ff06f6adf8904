// Fencing Token Playground, embedded with one script tag:
//
//   <script src="https://example.org/playground/embed.js" defer></script>
//   <div data-fencing-playground="gc-pause-fenced" data-t="31500"></div>
//
// Each such element becomes an iframe of the playground (the one this script came from),
// created when it comes near the viewport (or on a click, with data-load="click"), sized
// to its content as the player grows and shrinks. Options, all optional, as data-*
// attributes: t, from, to (ms), lang (en, id, vi), controls (full, compact, none), theme
// (auto, light, dark), autoplay ("1"), reveal ("1"), steps ("milestones"), tools ("1":
// show "Copy link", "Export and embed" and "Edit a copy", hidden in embeds otherwise), the
// what-if settings (ttl, pause, wd, acq, guard, key, persist, lag, wait, as in a link),
// base (the address xAPI activity ids are made from), frame (an id, which also keeps an embedded quiz's progress apart; one is made up
// otherwise), title, height (px before the first resize; 480). The value "quiz" opens
// the quiz instead of a scenario.
//
// Every message of the playground's protocol is also dispatched on the element as a DOM
// event "fencing-playground" (event.detail is the message), e.g. to grade on
// "quiz-completed". The playground talks only to this page's origin.
(function () {
  'use strict';
  var script = document.currentScript;
  var base = new URL('.', script ? script.src : location.href);
  var frames = [];
  var counter = 0;
  // The link's parameters an element may set (route.rs's Link::embed_attributes writes
  // them; a native test checks this list holds every one): the moment and the stretch,
  // the player's options, and the what-if settings.
  var OPTIONS = ['t', 'from', 'to', 'lang', 'controls', 'theme', 'autoplay', 'reveal', 'steps', 'tools', 'base',
    'ttl', 'pause', 'wd', 'acq', 'guard', 'key', 'persist', 'lag', 'wait'];

  function address(el, frame) {
    var id = el.getAttribute('data-fencing-playground');
    var view = id === 'quiz' ? 'lab.html#/quiz' : '#/s/' + encodeURIComponent(id);
    var query = ['v=1', 'embed=1', 'frame=' + encodeURIComponent(frame), 'origins=' + encodeURIComponent(location.origin)];
    OPTIONS.forEach(function (name) {
      var value = el.getAttribute('data-' + name);
      if (value !== null && value !== '') query.push(name + '=' + encodeURIComponent(value));
    });
    return new URL(view + '?' + query.join('&'), base).href;
  }

  function load(el) {
    if (el.querySelector('iframe')) return;
    var frame = el.getAttribute('data-frame') || 'fp-' + ++counter;
    var iframe = document.createElement('iframe');
    iframe.src = address(el, frame);
    iframe.title = el.getAttribute('data-title') || 'Fencing Token Playground: ' + el.getAttribute('data-fencing-playground');
    iframe.setAttribute('allow', 'clipboard-write');
    iframe.style.cssText = 'border:0;width:100%;max-width:100%;display:block;height:' + (parseInt(el.getAttribute('data-height'), 10) || 480) + 'px';
    el.textContent = '';
    el.appendChild(iframe);
    frames.push({ el: el, iframe: iframe, frame: frame });
  }

  function clickToLoad(el) {
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = el.getAttribute('data-label') || 'Load the interactive lesson (about 250 KB)';
    button.addEventListener('click', function () { load(el); });
    el.appendChild(button);
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== base.origin || typeof event.data !== 'string') return;
    var entry = frames.filter(function (f) { return f.iframe.contentWindow === event.source; })[0];
    if (!entry) return;
    var message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (!message || message.protocol !== 'fencing-playground' || message.version !== 1) return;
    if (message.type === 'resize' && message.height > 0) entry.iframe.style.height = message.height + 'px';
    entry.el.dispatchEvent(new CustomEvent('fencing-playground', { detail: message }));
  });

  function start() {
    var elements = document.querySelectorAll('[data-fencing-playground]');
    var lazy = 'IntersectionObserver' in window && new IntersectionObserver(function (entries, observer) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        observer.unobserve(entry.target);
        load(entry.target);
      });
    }, { rootMargin: '200px' });
    Array.prototype.forEach.call(elements, function (el) {
      if (el.getAttribute('data-load') === 'click') clickToLoad(el);
      else if (lazy) lazy.observe(el);
      else load(el);
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
