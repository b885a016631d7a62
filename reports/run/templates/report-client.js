/* rgate report client: charts from the JSON data block, and the query table's search and filters.
   Inlined verbatim (not a template); the CSP allows exactly this script and chart.js by hash.
   Data only ever reaches the page as canvas drawing or textContent, never as HTML. */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('rgate-data').textContent);
  // Okabe-Ito: blue, orange, vermillion, bluish green, sky blue; never the only cue (marks, words, shapes)
  var COLORS = { pass: '#0072B2', watch: '#E69F00', fail: '#D55E00', info: '#57606a', accent: '#0072B2', soft: '#8c959f', ink: '#000000', green: '#009E73', sky: '#56B4E9' };
  Chart.defaults.animation = false;
  Chart.defaults.font.family = 'system-ui, sans-serif';

  function chart(id, config) {
    var canvas = document.getElementById(id);
    if (!canvas) return null;
    config.options = Object.assign({ responsive: true, maintainAspectRatio: false }, config.options || {});
    return new Chart(canvas, config);
  }

  if (data.metrics) {
    // horizontal bars, one per metric, the status word and mark in the label; the threshold a black tick
    chart('chart-metrics', {
      type: 'bar',
      data: {
        labels: data.metrics.labels.map(function (l, i) { return [l, data.metrics.marks[i]]; }),
        datasets: [
          { label: 'observed', data: data.metrics.observed, backgroundColor: data.metrics.status.map(function (s) { return COLORS[s] || COLORS.info; }), borderColor: COLORS.ink, borderWidth: 1 },
          { label: 'threshold', data: data.metrics.threshold, type: 'line', borderColor: COLORS.ink, backgroundColor: COLORS.ink, showLine: false, pointStyle: 'line', rotation: 90, pointRadius: 12, pointBorderWidth: 3 }
        ]
      },
      options: {
        indexAxis: 'y',
        scales: { x: { min: 0, max: 1, ticks: { callback: function (v) { return Math.round(v * 100) + '%'; } } } },
        plugins: { legend: { labels: { generateLabels: function () {
          return [
            { text: 'observed (colour = status)', fillStyle: '#ffffff', strokeStyle: COLORS.ink, lineWidth: 1 },
            { text: 'threshold', fillStyle: COLORS.ink, strokeStyle: COLORS.ink, lineWidth: 1 }
          ];
        } } } }
      }
    });
  }
  if (data.modes) {
    chart('chart-modes', {
      type: 'bar',
      data: {
        labels: data.modes.labels,
        datasets: [
          { label: 'top-1 useful', data: data.modes.useful, backgroundColor: COLORS.pass },
          { label: 'not useful', data: data.modes.not_useful, backgroundColor: COLORS.fail, borderColor: COLORS.ink, borderWidth: 1 }
        ]
      },
      options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } }
    });
  }
  if (data.latency) {
    var sets = [
      { label: 'p50', data: data.latency.p50, backgroundColor: COLORS.soft },
      { label: 'p95', data: data.latency.p95, backgroundColor: COLORS.sky },
      { label: 'p99', data: data.latency.p99, backgroundColor: COLORS.accent }
    ];
    if (data.latency.limit !== null) {
      sets.push({ label: data.latency.limit_label, data: data.latency.labels.map(function () { return data.latency.limit; }), type: 'line', borderColor: COLORS.ink, borderDash: [6, 4], pointRadius: 0, fill: false });
    }
    chart('chart-latency', { type: 'bar', data: { labels: data.latency.labels, datasets: sets }, options: { scales: { y: { beginAtZero: true } } } });
  }

  // history trends: one line per gate metric; runs on another snapshot drawn as hollow grey diamonds
  // joined by a dashed grey segment, this run's point larger, the threshold a dashed red line
  (data.trend || []).forEach(function (t) {
    var other = t.other_snapshot;
    var last = t.values.length - 1;
    var sets = [{
      label: t.metric,
      data: t.values,
      borderColor: COLORS.accent,
      backgroundColor: COLORS.accent,
      tension: 0,
      spanGaps: false,
      clip: 8,
      pointStyle: other.map(function (o) { return o ? 'rectRot' : 'circle'; }),
      pointRadius: t.values.map(function (_, i) { return i === last ? 6 : other[i] ? 5 : 3; }),
      pointBackgroundColor: other.map(function (o) { return o ? '#ffffff' : COLORS.accent; }),
      pointBorderColor: other.map(function (o) { return o ? COLORS.soft : COLORS.accent; }),
      segment: {
        borderColor: function (ctx) { return other[ctx.p0DataIndex] ? COLORS.soft : undefined; },
        borderDash: function (ctx) { return other[ctx.p0DataIndex] ? [3, 3] : undefined; }
      }
    }];
    if (t.threshold !== null) {
      sets.push({ label: t.threshold_label, data: t.values.map(function () { return t.threshold; }), borderColor: COLORS.ink, backgroundColor: COLORS.ink, borderDash: [6, 4], pointRadius: 0, fill: false });
    }
    // rates zoom to a tenth below the lowest point or threshold: 98% vs 100% must be visible
    var lows = t.values.filter(function (v) { return v !== null; });
    if (t.threshold !== null) lows.push(t.threshold);
    var lo = lows.length ? Math.max(0, Math.floor(Math.min.apply(null, lows) * 10) / 10 - 0.1) : 0;
    var y = t.kind === 'rate'
      ? { min: lo, max: 1, ticks: { callback: function (v) { return Math.round(v * 100) + '%'; } } }
      : { beginAtZero: true, suggestedMax: 1 };
    // long run ids would squeeze the plot: shortened on the axis, whole in the tooltip
    var tick = function (v, i) {
      var l = t.labels[i];
      return l ? [l[0], l[1].length > 22 ? l[1].slice(0, 21) + '\u2026' : l[1]] : '';
    };
    chart(t.id, {
      type: 'line',
      data: { labels: t.labels, datasets: sets },
      options: {
        scales: { y: y, x: { ticks: { autoSkip: true, maxRotation: 0, callback: tick } } },
        plugins: { tooltip: { callbacks: { afterLabel: function (ctx) { return ctx.datasetIndex === 0 && other[ctx.dataIndex] ? 'different snapshot or config' : ''; } } } }
      }
    });
  });

  var search = document.getElementById('q-search');
  var fStatus = document.getElementById('f-status');
  var fMode = document.getElementById('f-mode');
  var fProfile = document.getElementById('f-profile');
  var count = document.getElementById('q-count');
  var rows = Array.prototype.slice.call(document.querySelectorAll('#queries tbody tr'));
  var haystack = rows.map(function (r) { return r.textContent.toLowerCase(); });
  // a row's status, mode and profile are read from its cells (not repeated as attributes on each row:
  // 10,000 rows carried 0.6 MB of them): the status badge, the mode cell (where the table has one),
  // the profile cell (the fourth)
  var modeCell = Number(document.getElementById('queries').getAttribute('data-mode-cell') || -1);
  var facets = rows.map(function (r) {
    var badge = r.querySelector('.status');
    return {
      status: badge ? badge.textContent : '',
      mode: modeCell >= 0 && r.cells[modeCell] ? r.cells[modeCell].firstChild.textContent : '',
      profile: r.cells[3] ? r.cells[3].textContent : ''
    };
  });
  function apply() {
    var t = search.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (r, i) {
      var f = facets[i];
      var ok = (!t || haystack[i].indexOf(t) !== -1) &&
        (!fStatus.value || f.status === fStatus.value) &&
        (!fMode.value || f.mode === fMode.value) &&
        (!fProfile.value || f.profile === fProfile.value);
      r.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + rows.length;
  }
  [search, fStatus, fMode, fProfile].forEach(function (el) { el.addEventListener('input', apply); el.addEventListener('change', apply); });
  apply();
})();
