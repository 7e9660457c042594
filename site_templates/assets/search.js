// The search page: Pagefind's UI on this language's index (<lang>/pagefind/), loaded from the
// site itself. The bundle is written by `judge build` (not with --no-search); see docs/site.md.
(function () {
  "use strict";
  var box = document.getElementById("search");
  if (!box) {
    return;
  }
  // the addresses are worked out from this page's own, so the site works from any folder
  var bundle = new URL(box.getAttribute("data-bundle"), window.location.href);
  var root = new URL("../", bundle); // the language's home, which result addresses start from
  var query = new URLSearchParams(window.location.search).get("q") || "";

  function missing() {
    var note = document.createElement("p");
    note.className = "notice";
    note.textContent = box.getAttribute("data-missing");
    box.appendChild(note);
  }

  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = new URL("pagefind-ui.css", bundle).href;
  document.head.appendChild(style);

  var script = document.createElement("script");
  script.src = new URL("pagefind-ui.js", bundle).href;
  script.onerror = missing;
  script.onload = function () {
    if (typeof window.PagefindUI !== "function") {
      missing();
      return;
    }
    var ui = new window.PagefindUI({
      element: box,
      bundlePath: bundle.pathname,
      baseUrl: root.pathname,
      showImages: false,
      showSubResults: false,
      showEmptyFilters: false,
      autofocus: !query,
    });
    if (query) {
      ui.triggerSearch(query);
      var header = document.querySelector("form.search input[name=q]");
      if (header) {
        header.value = query;
      }
    }
  };
  document.head.appendChild(script);
})();
