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

  // A board's text alternative: the position it shows, read off the board as it is drawn
  // (the boxes and zone names of the page's frame, the labels, marks, powers and counts in
  // each box) and said in the page's language with the words of BOARD_WORDS below (from
  // judge/site/board.py's BOARD_WORDS): whose turn it is, then each player's side, zone by
  // zone, the cards there now with their marks in words. Written here rather than in the
  // page, to keep the pages small; the sandbox asks it again for the boards it shows.
  // docs/site.md, "The replay on a ruling page".
  var SVG = "http://www.w3.org/2000/svg";
  // by language; written in by judge build (judge/site/board.py, with_board_words)
  var BOARD_WORDS = {} /* the board words of every language: judge build */;
  var described = 0;

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) {
      return key in values ? values[key] : all;
    });
  }

  /** Labels that count up (e1, e2, e3 ...), three or more, said as one: "e1 to e3". */
  function runs(labels, words) {
    var out = [];
    for (var i = 0; i < labels.length;) {
      var match = /^(\D*)(\d+)$/.exec(labels[i]);
      var j = i + 1;
      if (match) {
        while (j < labels.length && labels[j] === match[1] + (Number(match[2]) + j - i)) {
          j += 1;
        }
      }
      if (j - i >= 3) {
        out.push(fill(words.run, { first: labels[i], last: labels[j - 1] }));
      } else {
        out.push.apply(out, labels.slice(i, j));
      }
      i = j;
    }
    return out;
  }

  /** Every <text> a board draws, its <use> of shared boxes followed, with its place. */
  function drawn(node, dx, dy, out) {
    Array.prototype.forEach.call(node.children, function (child) {
      var x = dx + Number(child.getAttribute("x") || 0);
      var y = dy + Number(child.getAttribute("y") || 0);
      if (child.tagName === "text") {
        out.push({ x: x, y: y, node: child });
      } else if (child.tagName === "use") {
        var href = child.getAttribute("href") || "";
        var target = document.getElementById(href.slice(1));
        if (target && !/(^|-)bf(-p[12])?$/.test(target.id)) { // not the frame itself
          drawn(target, x, y, out);
        }
      } else if (child.tagName === "g") {
        drawn(child, dx, dy, out);
      }
    });
    return out;
  }

  /** The cards of one line of a box: each label with its classes (a struck card left). */
  function tokens(text) {
    var out = [];
    Array.prototype.forEach.call(text.childNodes, function (part) {
      var classes = part.nodeType === 1 ? part.getAttribute("class") || "" : "";
      (part.textContent || "").split(/\s+/).forEach(function (word) {
        if (word && word !== "+") {
          out.push({ text: word, left: /(^|\s)gn(\s|$)/.test(classes) });
        }
      });
    });
    return out.filter(function (t) { return !t.left; });
  }

  /** Each empty <p class="legend" data-marks="..."> under root: the boards' legend, from
   * words.legend (judge/site/board.py LEGEND_MARKS, LEGEND_WORDS). */
  function writeLegends(root, words) {
    var w = words.legend;
    Array.prototype.forEach.call(root.querySelectorAll("p.legend"), function (p) {
      if (p.firstChild || !w) {
        return;
      }
      var shown = (p.getAttribute("data-marks") || "").split(" ");
      var add = function (text, cls) {
        var node = document.createTextNode(text);
        if (cls) {
          var span = document.createElement("span");
          span.className = cls;
          span.appendChild(node);
          node = span;
        }
        p.appendChild(node);
      };
      var items = w.marks.filter(function (m) {
        return !m[0] || shown.indexOf(m[0]) >= 0;
      }).map(function (m) { return m[1] + " " + m[2]; });
      add(w.on + " " + items.join(" \u00b7 "));
      if (shown.indexOf("rule") >= 0) {
        add(" \u00b7 ");
        add("A1" + words.rule_mark, "rp");
        add(" ");
        add("0" + words.rule_mark, "rp");
        add(" " + w.rule);
      }
      add(" \u00b7 " + w.since + " ");
      ["nw", "gn", "cg"].forEach(function (cls, i) {
        if (i) {
          add(" \u00b7 ");
        }
        add("A1", cls);
        add(" " + w[cls]);
      });
      add(words.stop);
    });
  }

  /** The marks after a label and their words, as the page's legend gives them ("↓ down ·
   * ❄ frozen · ..."), with the mark of a condition of rule processing. */
  function markWords(root, words) {
    var marks = {};
    marks[words.rule_mark] = words.rule;
    var legend = root.querySelector(".legend") || document.querySelector(".legend");
    (legend ? legend.textContent : "").split(" \u00b7 ").forEach(function (item) {
      var found = /([\u2190-\u27bf]) (.+)$/.exec(item); // arrows, shapes and stars
      if (found && !(found[1] in marks)) {
        marks[found[1]] = found[2];
      }
    });
    return marks;
  }

  function cardWords(text, power, words, marks) {
    var label = text;
    var states = [];
    while (label.length > 1 && label.slice(-1) in marks) {
      states.unshift(marks[label.slice(-1)]);
      label = label.slice(0, -1);
    }
    if (/^\+\d+$/.test(label)) {
      return fill(words.more, { count: label.slice(1) });
    }
    if (power) {
      states.push(fill(words.power, { power: power }));
    }
    return states.length ? fill(words.card, { card: label, states: states.join(words.sep) })
      : label;
  }

  function describeBoards(root) {
    var frame = root.querySelector("svg.board.frame");
    var words = BOARD_WORDS[document.documentElement.lang];
    if (words) {
      writeLegends(root, words);
    }
    if (!frame || !words) {
      return;
    }
    var marks = markWords(root, words);
    var path = frame.querySelector("path.bx");
    if (!path) {
      return;
    }
    var boxes = [];
    var re = /M(\d+) (\d+)h(\d+)v(\d+)/g;
    for (var m = re.exec(path.getAttribute("d")); m; m = re.exec(path.getAttribute("d"))) {
      boxes.push({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) });
    }
    Array.prototype.forEach.call(path.parentNode.querySelectorAll("text"), function (t) {
      boxes.forEach(function (box) {
        if (Number(t.getAttribute("x")) === box.x + 3 && Number(t.getAttribute("y")) === box.y + 12) {
          box.name = t.textContent;
        }
      });
    });
    var heads = Array.prototype.filter.call(frame.querySelectorAll("text.ph"), function (t) {
      return t.textContent !== "\u25cf";
    }).map(function (t) {
      return { name: t.textContent, y: Number(t.getAttribute("y")) - 12 };
    });
    Array.prototype.forEach.call(root.querySelectorAll("svg.board:not(.frame)"), function (svg) {
      if (svg.getAttribute("aria-describedby")) {
        return;
      }
      var frameUse = svg.querySelector(":scope > use");
      var turn = /-p([12])$/.exec(frameUse ? frameUse.getAttribute("href") : "");
      var zones = heads.map(function () { return []; });
      drawn(svg, 0, 0, []).forEach(function (item) {
        var side = 0;
        heads.forEach(function (head, i) {
          if (item.y >= head.y) {
            side = i;
          }
        });
        var y = item.y - heads[side].y;
        var box = boxes.find(function (b) {
          return item.x >= b.x && item.x < b.x + b.w && y >= b.y && y <= b.y + b.h;
        });
        if (!box) {
          return;
        }
        var zone = zones[side].find(function (z) { return z.box === box; });
        if (!zone) {
          zone = { box: box, cards: [], under: [], power: "", empty: false, markers: "" };
          zones[side].push(zone);
        }
        var kind = item.node.getAttribute("class") || "";
        if (/(^|\s)mk(\s|$)/.test(kind)) { // the markers on a SIGNI zone (a virus, a gate)
          zone.markers = item.node.textContent;
        } else if (/(^|\s)zc(\s|$)/.test(kind)) {
          zone.empty = item.node.textContent.slice(-1) === words.rule_mark;
        } else if (/(^|\s)pw(\s|$)/.test(kind)) {
          zone.power = item.node.textContent.split("\u2192").pop();
        } else if (/(^|\s)un(\s|$)/.test(kind)) {
          zone.under = zone.under.concat(tokens(item.node));
        } else {
          zone.cards = zone.cards.concat(tokens(item.node));
        }
      });
      var parts = [];
      if (turn && heads.length === 2) {
        parts.push(fill(words.turn, { player: heads[turn[1] === "2" ? 0 : 1].name }) + words.stop);
      }
      zones.forEach(function (list, i) {
        var said = [];
        boxes.forEach(function (box) {
          var zone = list.find(function (z) { return z.box === box; });
          if (!zone || (!zone.cards.length && !zone.under.length && !zone.empty &&
                        !zone.markers)) {
            return;
          }
          var cards = runs(zone.cards.map(function (t, j) {
            return cardWords(t.text, j === 0 ? zone.power : "", words, marks);
          }), words);
          if (zone.under.length) {
            cards.push(fill(words.under, { cards: zone.under.map(function (t) {
              return cardWords(t.text, "", words, marks);
            }).join(words.sep) }));
          }
          if (zone.empty) {
            cards.push(fill(words.card, { card: words.empty, states: words.rule }));
          }
          Array.from(zone.markers).forEach(function (mark) {
            if (mark in marks) {
              cards.push(marks[mark]);
            }
          });
          var text = fill(words.zone, { zone: box.name || "", cards: cards.join(words.sep) });
          said.push(text.charAt(0).toUpperCase() + text.slice(1) + words.stop);
        });
        if (said.length) {
          parts.push(fill(words.side, { player: heads[i].name }));
          parts.push.apply(parts, said);
        }
      });
      var desc = document.createElementNS(SVG, "desc");
      var base = svg.getAttribute("aria-labelledby") || "board";
      var id = base + "-d";
      while (document.getElementById(id)) {
        described += 1;
        id = base + "-d" + described;
      }
      desc.id = id;
      desc.textContent = parts.join(" ");
      svg.insertBefore(desc, svg.firstChild);
      svg.setAttribute("aria-describedby", id);
    });
  }
  describeBoards(document);
  window.judgeBoards = { describe: describeBoards };

  /** The text of a fetched file the site keeps gzip-compressed (a name ending in .gz: the
   * search index, the quiz's question bank, the rulings' files of the sandbox), decompressed
   * here (DecompressionStream); a host that already decompressed it in transit hands over
   * the text itself, read as it is. */
  window.judgeGzipText = function (response) {
    if (!response.ok) {
      return Promise.reject(new Error(response.url + ": HTTP " + response.status));
    }
    return response.arrayBuffer().then(function (buffer) {
      var bytes = new Uint8Array(buffer);
      if (bytes.length > 1 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
        var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
        return new Response(stream).text();
      }
      return new TextDecoder().decode(bytes);
    });
  };
  /** The same, for a JSON file. */
  window.judgeGzipJson = function (response) {
    return window.judgeGzipText(response).then(JSON.parse);
  };

  // The sandbox ("Try it" on a ruling page, the blank sandbox page): a button with
  // data-sandbox (the ruling's file under sandbox/, empty for the blank ruling), hidden until
  // this script shows it. The first click loads sandbox/sandbox.js (and it Pyodide); nothing
  // of the sandbox is loaded before. docs/site.md, "The sandbox".
  // Words the pages leave to this script (judge.site.context.SiteModel.script_words): the
  // rule-set chips' titles, the header's search box, the "Try it" button's label.
  var pageWords = BOARD_WORDS[document.documentElement.lang] || {};
  Array.prototype.forEach.call(document.querySelectorAll("a.chip:not([title])"), function (a) {
    var id = /rulesets\/([^/]+)\/$/.exec(a.getAttribute("href") || "");
    if (id && pageWords.rulesets && pageWords.rulesets[id[1]]) {
      a.title = pageWords.rulesets[id[1]];
    }
  });
  var find = document.querySelector("header.top a.find");
  if (find && pageWords.search) {
    var form = document.createElement("form");
    form.className = "search";
    form.setAttribute("role", "search");
    form.setAttribute("action", find.getAttribute("href"));
    var searchBox = document.createElement("input");
    searchBox.type = "search";
    searchBox.name = "q";
    searchBox.placeholder = pageWords.search;
    searchBox.setAttribute("aria-label", pageWords.search);
    var go = document.createElement("button");
    go.type = "submit";
    go.textContent = find.textContent;
    form.appendChild(searchBox);
    form.appendChild(go);
    find.parentNode.replaceChild(form, find);
  }
  Array.prototype.forEach.call(document.querySelectorAll("button[data-sandbox]"), function (b) {
    if (!b.firstChild && pageWords.try) {
      b.textContent = pageWords.try;
      if (pageWords.size) {
        var small = document.createElement("small");
        small.textContent = pageWords.size;
        b.appendChild(document.createTextNode(" "));
        b.appendChild(small);
      }
    }
    if (!b.hasAttribute("data-loading") && pageWords.loading) {
      b.setAttribute("data-loading", pageWords.loading);
    }
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

  // A shared position (sandbox.js, "#try=1.<the ruling, deflated>"): the sandbox opens at
  // once with it.
  if (window.location.hash.indexOf("#try=") === 0) {
    var shared = document.querySelector("button[data-sandbox]");
    if (shared) {
      shared.click();
    }
  }

  // The coverage page: each row's lists of rulings ("Show") are in api/coverage.json, the
  // output of judge coverage --json, one file for the three languages' pages rather than
  // three copies in them; read the first time a list is opened, and filled as links to the
  // rulings' pages (those failing their replay marked). docs/coverage.md, "On the site".
  var lists = document.getElementById("coverage-lists");
  if (lists) {
    var table = null;
    var failing = lists.getAttribute("data-failing").split(" ");
    var fillList = function (details) {
      var ul = details.querySelector("ul.ids");
      var row = table[details.closest("tr").id] || {};
      var ids = row[ul.classList.contains("diff") ? "differs" : "rulings"] || [];
      ul.textContent = "";
      ids.forEach(function (id) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = lists.getAttribute("data-rulings") + id + "/";
        a.textContent = id;
        li.appendChild(a);
        if (failing.indexOf(id) >= 0) {
          var mark = document.createElement("strong");
          mark.className = "fail";
          mark.textContent = lists.getAttribute("data-label");
          li.appendChild(document.createTextNode(" "));
          li.appendChild(mark);
        }
        ul.appendChild(li);
      });
      details.setAttribute("data-filled", "");
    };
    var loading = null;
    var load = function () {
      if (!loading) {
        loading = fetch(lists.getAttribute("data-src")).then(function (response) {
          return response.json();
        }).then(function (data) {
          table = {};
          Object.keys(data.sections).forEach(function (category) {
            data.sections[category].forEach(function (row) {
              table["cov-" + category + "-" + row.item] = row;
            });
          });
        });
      }
      return loading;
    };
    document.querySelectorAll("table.coverage details").forEach(function (details) {
      details.addEventListener("toggle", function () {
        if (details.open && !details.hasAttribute("data-filled")) {
          load().then(function () {
            fillList(details);
          });
        }
      });
    });
  }

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
