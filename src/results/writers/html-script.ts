/**
 * The inline script of index.html: the requirement filter (status, level, text),
 * expand/collapse of evidence, and opening every <details> before printing.
 * Plain ES5, no dependencies; without it the page shows everything.
 */
export const SCRIPT = `
(function () {
  var doc = document;
  doc.documentElement.className += ' js';
  var form = doc.getElementById('filters');
  if (!form) return;
  var rows = [].slice.call(doc.querySelectorAll('[data-testid="requirement"]'));
  var areas = [].slice.call(doc.querySelectorAll('[data-testid="area"]'));
  var text = doc.getElementById('filter-text');
  var shown = doc.getElementById('filter-shown');
  var empty = doc.getElementById('filter-empty');
  function checked(name) {
    var set = {};
    [].forEach.call(form.querySelectorAll('input[name="' + name + '"]'), function (i) { set[i.value] = i.checked; });
    return set;
  }
  function apply() {
    var st = checked('status'), lv = checked('level');
    var q = text.value.replace(/^\\s+|\\s+$/g, '').toLowerCase();
    var n = 0;
    rows.forEach(function (r) {
      var ok = st[r.getAttribute('data-status')] !== false && lv[r.getAttribute('data-level')] !== false &&
        (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
      if (ok) { r.removeAttribute('hidden'); n++; } else r.setAttribute('hidden', '');
    });
    areas.forEach(function (a) {
      if (a.querySelector('[data-testid="requirement"]:not([hidden])')) a.removeAttribute('hidden');
      else a.setAttribute('hidden', '');
    });
    shown.textContent = n + ' of ' + rows.length + ' requirements shown';
    if (n) empty.setAttribute('hidden', ''); else empty.removeAttribute('hidden');
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  function toggleAll(open) {
    [].forEach.call(doc.querySelectorAll('details.evidence'), function (d) { d.open = open; });
  }
  var expand = doc.getElementById('expand-all');
  var collapse = doc.getElementById('collapse-all');
  var reset = doc.getElementById('filter-reset');
  if (expand) expand.addEventListener('click', function () { toggleAll(true); });
  if (collapse) collapse.addEventListener('click', function () { toggleAll(false); });
  if (reset) reset.addEventListener('click', function () {
    [].forEach.call(form.querySelectorAll('input[type="checkbox"]'), function (i) { i.checked = true; });
    text.value = '';
    apply();
  });
  window.addEventListener('beforeprint', function () { toggleAll(true); });
  apply();
})();
`;
