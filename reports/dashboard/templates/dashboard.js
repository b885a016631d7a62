/* rgate dashboard client (served as /assets/dashboard.js; the server allows script-src 'self' only,
   so no page has inline script). Draws the charts whose chart.js configs the page carries in its
   JSON data block; uploaded text only ever reaches chart.js as canvas text, never as HTML. */
(function () {
  'use strict';
  var block = document.getElementById('rgate-charts');
  if (!block || typeof Chart === 'undefined') return;
  var charts = JSON.parse(block.textContent);
  Chart.defaults.animation = false;
  Chart.defaults.font.family = 'system-ui, sans-serif';
  charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    if (!el) return;
    var cfg = c.config;
    cfg.options = cfg.options || {};
    cfg.options.animation = false;
    cfg.options.maintainAspectRatio = false;
    cfg.options.responsive = true;
    new Chart(el.getContext('2d'), cfg);
    el.setAttribute('data-drawn', '1');
  });
})();
