/*
 * The script of index.html, inlined into the page when a report is written and allowed by its hash in the page's
 * Content-Security-Policy: the requirement filter (status, level, text; a folded group of passes opens when the
 * search matches inside it, or when only passes are asked for), expand/collapse of every <details>, the copy-as-curl
 * buttons (navigator.clipboard, else the command is selected so that Ctrl+C copies it), opening the folded group a
 * link points into, and opening everything before printing.
 * Plain browser JavaScript (ES2017 at most), no dependencies; without it the page shows everything it needs.
 */
(function () {
  var doc = document;
  doc.documentElement.className += ' js';
  function all(sel, root) {
    return [].slice.call((root || doc).querySelectorAll(sel));
  }
  all('button.copy').forEach(function (b) {
    b.addEventListener('click', function () {
      var code = b.parentNode.querySelector('code');
      var text = code.textContent;
      function done(how, label) {
        b.setAttribute('data-copied', how);
        b.textContent = label;
      }
      function select() {
        var range = doc.createRange();
        range.selectNodeContents(code);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        var ok;
        try {
          ok = doc.execCommand('copy');
        } catch (e) {
          ok = false;
        }
        if (ok) done('clipboard', 'Copied');
        else done('selection', 'Selected: press Ctrl+C');
      }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () {
          done('clipboard', 'Copied');
        }, select);
      } else select();
    });
  });
  function toggleAll(open) {
    all('details').forEach(function (d) {
      d.open = open;
    });
  }
  var expand = doc.getElementById('expand-all');
  var collapse = doc.getElementById('collapse-all');
  if (expand)
    expand.addEventListener('click', function () {
      toggleAll(true);
    });
  if (collapse)
    collapse.addEventListener('click', function () {
      toggleAll(false);
    });
  window.addEventListener('beforeprint', function () {
    toggleAll(true);
  });
  function reveal() {
    var id;
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch (e) {
      return;
    }
    var el = id && doc.getElementById(id);
    if (!el) return;
    for (var p = el.parentNode; p; p = p.parentNode) if (p.tagName === 'DETAILS') p.open = true;
    el.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  reveal();
  var form = doc.getElementById('filters');
  if (!form) return;
  var rows = all('[data-testid="requirement"]');
  var areas = all('[data-testid="area"]');
  var folds = all('[data-testid="passed-fold"]');
  var text = doc.getElementById('filter-text');
  var shown = doc.getElementById('filter-shown');
  var empty = doc.getElementById('filter-empty');
  function checked(name) {
    var set = {};
    all('input[name="' + name + '"]', form).forEach(function (i) {
      set[i.value] = i.checked;
    });
    return set;
  }
  function visible(root) {
    return root.querySelector('[data-testid="requirement"]:not([hidden])');
  }
  function apply() {
    var st = checked('status'),
      lv = checked('level');
    var q = text.value.replace(/^\s+|\s+$/g, '').toLowerCase();
    var n = 0;
    rows.forEach(function (r) {
      var ok =
        st[r.getAttribute('data-status')] !== false &&
        lv[r.getAttribute('data-level')] !== false &&
        (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
      if (ok) {
        r.removeAttribute('hidden');
        n++;
      } else r.setAttribute('hidden', '');
    });
    var onlyPasses =
      st.pass !== false &&
      Object.keys(st).every(function (k) {
        return k === 'pass' || st[k] === false;
      });
    folds.forEach(function (f) {
      if (visible(f)) {
        f.removeAttribute('hidden');
        if (q || onlyPasses) f.open = true;
      } else f.setAttribute('hidden', '');
    });
    areas.forEach(function (a) {
      if (visible(a)) a.removeAttribute('hidden');
      else a.setAttribute('hidden', '');
    });
    shown.textContent = n + ' of ' + rows.length + ' requirements shown';
    if (n) empty.setAttribute('hidden', '');
    else empty.removeAttribute('hidden');
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (e) {
    e.preventDefault();
  });
  var reset = doc.getElementById('filter-reset');
  if (reset)
    reset.addEventListener('click', function () {
      all('input[type="checkbox"]', form).forEach(function (i) {
        i.checked = true;
      });
      text.value = '';
      apply();
    });
  apply();
})();
