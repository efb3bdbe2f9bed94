// The runs table: filter as one types (every word must occur) and fetch
// the rows again every few seconds, so a run written meanwhile appears.
(function () {
  var box = document.getElementById("rfilter");
  var body = document.getElementById("rows");
  var count = document.getElementById("rcount");
  if (!box || !body) { return; }
  function apply() {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var rows = body.querySelectorAll("tr.run");
    var shown = 0;
    rows.forEach(function (tr) {
      var text = tr.getAttribute("data-text") || "";
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      tr.hidden = !ok;
      if (ok) { shown++; }
    });
    count.textContent = shown + " of " + rows.length;
  }
  var last = body.innerHTML;
  function refresh() {
    fetch("/runs/rows", {cache: "no-store"}).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (html !== null && html !== last) { last = html; body.innerHTML = html; apply(); }
    }).catch(function () {});
  }
  box.addEventListener("input", apply);
  box.form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  // Render the full list once, so that typing can widen the filter too.
  refresh();
  apply();
  setInterval(refresh, 3000);
})();
// Choosing a figure, summarizer or order shows it at once.
document.querySelectorAll("form.pick select").forEach(function (s) {
  if (s.form && s.form.action.indexOf("/trends") >= 0) {
    s.addEventListener("change", function () { s.form.submit(); });
  }
});
document.documentElement.setAttribute("data-ready", "1");
