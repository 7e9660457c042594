// Every page: the language switcher keeps the reader's place, an address's anchor inside a
// folded part of the page (a replay under other rule sets) opens it, and the service worker
// that keeps the site for offline use is registered. Without JavaScript the switcher's links
// are plain links to the same page in the other language. docs/site.md, "Navigation" and
// "Offline use".
(function () {
  "use strict";
  var script = document.currentScript;

  // Places named here rather than in the page, to keep the pages small: the steps of each
  // replay (#replay-2014-04-1: the second step shown under 2014-04, the set-up being 0) and
  // the legal outcomes (#outcome-1 ...). An id the page gives is kept.
  var named_here = [];
  function nameAll(elements, prefix, first) {
    Array.prototype.forEach.call(elements, function (element, i) {
      if (!element.id) {
        element.id = prefix + (i + first);
        named_here.push(element);
      }
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("#replay details[id]"), function (d) {
    nameAll(d.querySelectorAll(":scope > section.step"), d.id + "-", 0);
  });
  nameAll(document.querySelectorAll("#outcomes > section.outcome"), "outcome-", 1);

  /** The element an address's anchor (#...) names, or null. */
  function named(hash) {
    if (!hash || hash.length < 2) {
      return null;
    }
    var id = hash.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch (error) {
      // an anchor that is not percent-encoded text: look it up as it is
    }
    return document.getElementById(id);
  }

  function shown(element) {
    return element.getClientRects().length > 0;
  }

  /** The places a reader can be at: the elements of the page's main part that have an id
   * and are shown, but those inside a board (SVG), a caption, a form or a script. */
  function anchors() {
    var main = document.getElementById("main");
    if (!main) {
      return [];
    }
    return Array.prototype.filter.call(main.querySelectorAll("[id]"), function (element) {
      return !element.closest("svg, figcaption, form, script") && shown(element);
    });
  }

  /** The top of the part of the window the reader reads: below the header when it shows. */
  function readingEdge() {
    var header = document.querySelector("header.top");
    var bottom = header ? header.getBoundingClientRect().bottom : 0;
    return Math.max(0, Math.min(bottom, window.innerHeight / 2));
  }

  /** Where the reader is, as an anchor: the address's own while it is on screen; else the
   * innermost place at the top of what the reader sees (on a ruling page, the step of the
   * replay being read, under its rule sets), or the first one below it; none at the top of
   * the page. */
  function place() {
    var own = named(window.location.hash);
    if (own && shown(own)) {
      var box = own.getBoundingClientRect();
      if (box.bottom > readingEdge() && box.top < window.innerHeight) {
        return window.location.hash;
      }
    }
    if (window.scrollY <= 0) {
      return "";
    }
    var edge = readingEdge();
    var inside = null;
    var below = null;
    anchors().forEach(function (element) {
      var box = element.getBoundingClientRect();
      if (box.top <= edge + 1 && box.bottom > edge) {
        inside = element; // the last one in the order of the page is the innermost
      } else if (box.top > edge && !below) {
        below = element;
      }
    });
    var found = inside || below;
    return found ? "#" + encodeURIComponent(found.id) : "";
  }

  /** The search query of the address, to be carried to the other language. */
  function query() {
    var q = new URLSearchParams(window.location.search).get("q");
    return q ? "?q=" + encodeURIComponent(q) : "";
  }

  // The switcher's links are completed when they are about to be followed (pressed, or
  // focused from the keyboard: before the browser scrolls the header into view) or copied.
  Array.prototype.forEach.call(document.querySelectorAll("nav.langs a[href]"), function (a) {
    var base = a.getAttribute("href").split("#")[0].split("?")[0];
    function complete() {
      a.setAttribute("href", base + query() + place());
    }
    ["pointerdown", "touchstart", "focus", "contextmenu"].forEach(function (type) {
      a.addEventListener(type, complete, { passive: true });
    });
  });

  // The header comes back when the reader scrolls up a little (and goes when they scroll
  // down), so that the switcher is at hand without leaving the place being read.
  var header = document.querySelector("header.top");
  var lastY = window.scrollY;
  window.addEventListener("scroll", function () {
    var y = window.scrollY;
    if (!header) {
      return;
    }
    if (y <= 0 || y > lastY) {
      header.classList.remove("pinned");
    } else if (y < lastY && lastY - y < window.innerHeight) {
      header.classList.add("pinned"); // a jump of a whole window (an anchor) does not count
    }
    lastY = y;
  }, { passive: true });

  /** Open the folded parts (<details>) holding the anchor of the address, and show it (the
   * browser could not, when the part was folded or the place is named here). */
  function reveal(first) {
    var element = named(window.location.hash);
    if (!element) {
      return;
    }
    var scroll = first === true && named_here.indexOf(element) >= 0;
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) {
        node.open = true;
        scroll = true;
      }
    }
    if (scroll) {
      element.scrollIntoView();
    }
  }
  reveal(true);
  window.addEventListener("hashchange", reveal);

  // The sandbox ("Try it" on a ruling page, the blank sandbox page): a button with
  // data-sandbox (the ruling's file under sandbox/, empty for the blank ruling), hidden until
  // this script shows it. The first click loads sandbox/sandbox.js (and it Pyodide); nothing
  // of the sandbox is loaded before. docs/site.md, "The sandbox".
  Array.prototype.forEach.call(document.querySelectorAll("button[data-sandbox]"), function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      if (window.judgeSandbox) {
        window.judgeSandbox.open(b);
        return;
      }
      if (document.getElementById("sandbox-js")) {
        return; // loading
      }
      var code = document.createElement("script");
      code.id = "sandbox-js";
      code.src = new URL("../sandbox/sandbox.js", script.src).href;
      code.onload = function () {
        window.judgeSandbox.open(b);
      };
      code.onerror = function () {
        b.disabled = true;
        b.title = "sandbox/sandbox.js: not in this build";
      };
      document.head.appendChild(code);
    });
  });

  // Offline use: the worker (sw.js at the site's root) keeps the pages opened and the
  // language's search; this page, opened before the worker was in control, is sent to it.
  // When it has kept them, <html data-offline="kept"> (or "failed").
  var container = navigator.serviceWorker;
  if (!script || !script.src || !container || !/^https?:$/.test(window.location.protocol)) {
    return;
  }
  var worker = new URL("../sw.js", script.src).href; // this script is <root>/assets/site.js
  container.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.type === "kept" && data.url === window.location.href) {
      document.documentElement.setAttribute("data-offline", data.ok ? "kept" : "failed");
    }
  });
  container.register(worker).then(function () {
    return container.ready;
  }).then(function (registration) {
    if (registration.active) {
      registration.active.postMessage({ type: "visit", url: window.location.href });
    }
  }).catch(function () {
    // a browser that refuses service workers (a private window, say) reads online only
  });
})();
