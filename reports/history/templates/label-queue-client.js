/* global window */
// The grading page of `rgate label queue`: keyboard only, grades kept in the page and in
// localStorage, saved as a JSONL file through a Blob download. Nothing is sent anywhere.
(function () {
  'use strict';
  var main = document.getElementById('queue');
  var items = Array.prototype.slice.call(document.querySelectorAll('.item'));
  var progress = document.getElementById('progress');
  var saved = document.getElementById('saved');
  var help = document.getElementById('help');
  var queue = main.getAttribute('data-queue');
  var storeKey = 'rgate-label:' + main.getAttribute('data-fixture') + ':' + queue + ':' + main.getAttribute('data-k');
  var NAMES = ['0 not relevant', '1 marginal', '2 relevant', '3 highly relevant'];
  // "query\u0000doc" -> {grade, date}
  var grades = {};
  var current = 0;

  function keyOf(el) {
    return el.getAttribute('data-query') + '\u0000' + el.getAttribute('data-doc');
  }
  // the reviewer's own calendar day: the date the judgment was made
  function today() {
    var d = new Date();
    var p = function (n) { return (n < 10 ? '0' : '') + n; };
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate());
  }
  function load() {
    try {
      var raw = window.localStorage.getItem(storeKey);
      if (raw) grades = JSON.parse(raw) || {};
    } catch {
      grades = {};
    }
  }
  function persist() {
    try {
      window.localStorage.setItem(storeKey, JSON.stringify(grades));
    } catch {
      // storage off (private window, quota): grades stay in the page until it is closed
    }
  }
  function draw(el) {
    var g = grades[keyOf(el)];
    var label = el.querySelector('.grade');
    if (g) {
      el.setAttribute('data-grade', String(g.grade));
      label.textContent = 'grade ' + NAMES[g.grade];
    } else {
      el.removeAttribute('data-grade');
      label.textContent = 'ungraded';
    }
  }
  function count() {
    var n = 0;
    items.forEach(function (el) { if (grades[keyOf(el)]) n++; });
    progress.textContent = n + ' of ' + items.length + ' graded';
    return n;
  }
  function focusAt(i) {
    if (!items.length) return;
    current = Math.max(0, Math.min(items.length - 1, i));
    items.forEach(function (el, j) {
      if (j === current) el.setAttribute('aria-current', 'true');
      else el.removeAttribute('aria-current');
    });
    items[current].focus();
    items[current].scrollIntoView({ block: 'nearest' });
  }
  function nextUngraded() {
    for (var s = 1; s <= items.length; s++) {
      var i = (current + s) % items.length;
      if (!grades[keyOf(items[i])]) return focusAt(i);
    }
  }
  function grade(g) {
    var el = items[current];
    if (!el) return;
    if (g === null) delete grades[keyOf(el)];
    else grades[keyOf(el)] = { grade: g, date: today() };
    persist();
    draw(el);
    count();
    if (g !== null && current < items.length - 1) focusAt(current + 1);
  }
  function lines() {
    var out = [];
    items.forEach(function (el) {
      var g = grades[keyOf(el)];
      if (!g) return;
      out.push(JSON.stringify({
        query_id: el.getAttribute('data-query'),
        doc_id: el.getAttribute('data-doc'),
        grade: g.grade,
        date: g.date,
        queue: queue,
      }));
    });
    return out;
  }
  function save() {
    var out = lines();
    if (!out.length) {
      saved.textContent = 'nothing graded yet';
      return;
    }
    var blob = new window.Blob([out.join('\n') + '\n'], { type: 'application/x-ndjson' });
    var url = window.URL.createObjectURL(blob);
    var a = document.createElement('a');
    a.href = url;
    a.download = 'judgments-' + queue.replace(/[^A-Za-z0-9._-]/g, '_') + '.jsonl';
    document.body.appendChild(a);
    a.click();
    a.remove();
    window.setTimeout(function () { window.URL.revokeObjectURL(url); }, 1000);
    saved.textContent = 'saved ' + out.length + ' judgment(s) as ' + a.download;
  }

  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    // the save button keeps its own Enter / Space
    if (t && t.id === 'save' && (e.key === 'Enter' || e.key === ' ')) return;
    var k = e.key;
    if (k === 'j' || k === 'ArrowDown') focusAt(current + 1);
    else if (k === 'k' || k === 'ArrowUp') focusAt(current - 1);
    else if (k === '0' || k === '1' || k === '2' || k === '3') grade(Number(k));
    else if (k === 'x' || k === 'Delete' || k === 'Backspace') grade(null);
    else if (k === 'n') nextUngraded();
    else if (k === 's') save();
    else if (k === '?') help.hidden = !help.hidden;
    else if (k === 'Home') focusAt(0);
    else if (k === 'End') focusAt(items.length - 1);
    else return;
    e.preventDefault();
  });
  document.getElementById('save').addEventListener('click', save);
  items.forEach(function (el, i) {
    el.addEventListener('focus', function () { current = i; });
  });

  // a reload resumes at the first ungraded document, not where the browser restores the scroll
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  load();
  items.forEach(draw);
  count();
  focusAt(0);
  if (items.length && grades[keyOf(items[0])]) nextUngraded();
})();
