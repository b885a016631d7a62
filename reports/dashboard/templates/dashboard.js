/* rgate dashboard client (served as /assets/dashboard.js; the server allows script-src 'self' only,
   so no page has inline script). Draws the charts whose chart.js configs the page carries in its
   JSON data block; uploaded text only ever reaches chart.js as canvas text, never as HTML. */
(function () {
  'use strict';
  // every <time datetime> in the reader's own time zone; the UTC it was stored in stays in its title
  var pad = function (n) {
    return (n < 10 ? '0' : '') + n;
  };
  Array.prototype.forEach.call(document.querySelectorAll('time[datetime]'), function (el) {
    var d = new Date(el.getAttribute('datetime'));
    if (isNaN(d.getTime())) return;
    var off = -d.getTimezoneOffset();
    var zone = 'UTC' + (off === 0 ? '' : (off > 0 ? '+' : '-') + pad(Math.floor(Math.abs(off) / 60)) + ':' + pad(Math.abs(off) % 60));
    el.textContent =
      d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' +
      pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds()) + ' ' + zone;
    el.setAttribute('data-local', '1');
  });
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
