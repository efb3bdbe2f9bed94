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
// The grid: choosing what to show shows it at once.
document.querySelectorAll("#grid-filter select").forEach(function (s) {
  s.addEventListener("change", function () { s.form.submit(); });
});
// An old link to a unit in the run's report (/run/ID#u-…, as the
// report's anchors read) opens the unit's page.
(function () {
  var m = /^#(u-[0-9a-f]{12})(?:-(g\d+-c\d+|p\d+))?$/.exec(location.hash);
  if (document.body.getAttribute("data-page") === "runs" && document.getElementById("grid-title") && m) {
    location.replace(location.pathname + "/unit/" + m[1] + (m[2] ? "#" + m[2] : ""));
  }
})();
// The unit page: a run of events left out is fetched in place (the link
// opens the events page without a script), and a check's row marks its
// evidence in the events and the summary.
document.addEventListener("click", function (e) {
  var a = e.target.closest && e.target.closest("a.gap[data-part]");
  if (a) {
    e.preventDefault();
    var row = a.closest("tr");
    fetch(a.getAttribute("data-part"), {cache: "no-store"}).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (html === null) { location.href = a.href; return; }
      var t = document.createElement("tbody");
      t.innerHTML = html;
      var parent = row.parentNode;
      while (t.firstChild) { parent.insertBefore(t.firstChild, row); }
      parent.removeChild(row);
    }).catch(function () { location.href = a.href; });
    return;
  }
  var tr = e.target.closest && e.target.closest("tr.check");
  if (tr && !e.target.closest("a")) {
    var id = tr.getAttribute("data-check"), on = !tr.classList.contains("focus");
    document.querySelectorAll(".focus").forEach(function (el) { el.classList.remove("focus"); });
    if (!on) { return; }
    tr.classList.add("focus");
    var first = {};
    document.querySelectorAll('[data-checks~="' + id + '"]').forEach(function (el) {
      el.classList.add("focus");
      if (!first.events) { first.events = el; }
    });
    tr.querySelectorAll("a.ptr").forEach(function (p) {
      var el = document.getElementById(p.getAttribute("href").slice(1));
      if (el) { el.classList.add("focus"); if (!first.summary) { first.summary = el; } }
    });
    [first.events, first.summary].forEach(function (el) { if (el) { el.scrollIntoView({block: "nearest"}); } });
  }
});
document.documentElement.setAttribute("data-ready", "1");
