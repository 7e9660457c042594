// wixoss-judge's sandbox: edit a ruling and replay it in the browser with the project's own
// engine, loader and narration (Python under Pyodide, in sandbox-worker.js). assets/site.js
// loads this file on the first click on "Try it" (a ruling page) or on the blank sandbox
// page; nothing of it is loaded before. The controls only edit the TOML text; the worker
// answers with `judge check`'s lines and the replay sections of the ruling page, rendered by
// the same Python as the static page. docs/site.md, "The sandbox".
(function () {
  "use strict";
  var BASE = new URL(".", document.currentScript.src).href; // the site's sandbox/ folder
  var LANG = document.documentElement.lang || "en";
  //: How long a request may take before the worker is stopped (the first one starts Pyodide).
  var FIRST_TIMEOUT = 120000;
  var TIMEOUT = 20000;
  //: How long after the last keystroke the edited ruling is replayed.
  var DELAY = 350;

  // ------------------------------------------------------------------ the worker

  var worker = null;
  var pending = {};
  var serial = 0;
  var answered = false; // the worker has answered once: Pyodide is up

  function stopWorker(reason) {
    if (worker) {
      worker.terminate();
    }
    worker = null;
    answered = false;
    Object.keys(pending).forEach(function (id) {
      var waiting = pending[id];
      delete pending[id];
      clearTimeout(waiting.timer);
      waiting.reject(reason);
    });
  }

  /** Ask the worker; the promise gets the value, or fails with {message, timeout}. */
  function ask(message) {
    if (!worker) {
      worker = new Worker(BASE + "sandbox-worker.js");
      worker.onmessage = function (event) {
        var data = event.data || {};
        var waiting = pending[data.id];
        if (!waiting) {
          return;
        }
        delete pending[data.id];
        clearTimeout(waiting.timer);
        answered = true;
        if (data.ok) {
          waiting.resolve({ value: data.value, ms: data.ms });
        } else {
          waiting.reject({ message: data.error });
        }
      };
      worker.onerror = function (event) {
        event.preventDefault();
        stopWorker({ message: event.message || "the sandbox could not start" });
      };
    }
    serial += 1;
    message.id = serial;
    var limit = answered ? TIMEOUT : FIRST_TIMEOUT;
    return new Promise(function (resolve, reject) {
      pending[message.id] = {
        resolve: resolve, reject: reject,
        timer: setTimeout(function () {
          stopWorker({ message: "", timeout: limit / 1000 });
        }, limit),
      };
      worker.postMessage(message);
    });
  }

  // ------------------------------------------------------------------ editing the TOML text

  function lines(text) {
    return text.split("\n");
  }

  /** [start, end) of the lines of table `name` ([name]), without the header; null if none. */
  function table(list, name) {
    var header = "[" + name + "]";
    for (var i = 0; i < list.length; i++) {
      if (list[i].replace(/#.*$/, "").trim() === header) {
        var end = i + 1;
        while (end < list.length && !/^\s*\[/.test(list[end])) {
          end += 1;
        }
        return [i + 1, end];
      }
    }
    return null;
  }

  /** The lines [from, to) holding `key = ...` in table `name` (a value may span lines). */
  function keyLines(list, range, key) {
    var pattern = new RegExp("^\\s*" + key.replace(/[-]/g, "\\-") + "\\s*=");
    for (var i = range[0]; i < range[1]; i++) {
      if (pattern.test(list[i])) {
        var depth = 0;
        var j = i;
        do {
          var line = list[j].replace(/"(?:[^"\\]|\\.)*"/g, "\"\"").replace(/#.*$/, "");
          depth += (line.match(/\[/g) || []).length - (line.match(/\]/g) || []).length;
          j += 1;
        } while (depth > 0 && j < range[1]);
        return [i, j];
      }
    }
    return null;
  }

  /** The strings of an array value ("a", "b:c", ...) written on `text`. */
  function strings(text) {
    var value = text.slice(text.indexOf("=") + 1);
    var out = [];
    value.replace(/"((?:[^"\\]|\\.)*)"/g, function (_, s) {
      out.push(s);
    });
    return out;
  }

  function quoted(list) {
    return "[" + list.map(function (s) {
      return JSON.stringify(s);
    }).join(", ") + "]";
  }

  /** `text` with `key = value` in table `name` (added, with the table when missing), or
   * without it when `value` is null. */
  function setKey(text, name, key, value) {
    var list = lines(text);
    var range = table(list, name);
    if (!range) {
      if (value === null) {
        return text;
      }
      return text.replace(/\n*$/, "\n\n[" + name + "]\n" + key + " = " + value + "\n");
    }
    var at = keyLines(list, range, key);
    var replacement = value === null ? [] : [key + " = " + value];
    if (at) {
      list.splice.apply(list, [at[0], at[1] - at[0]].concat(replacement));
    } else {
      list.splice.apply(list, [range[0], 0].concat(replacement));
    }
    return list.join("\n");
  }

  function getKey(text, name, key) {
    var list = lines(text);
    var range = table(list, name);
    var at = range && keyLines(list, range, key);
    return at ? list.slice(at[0], at[1]).join("\n") : null;
  }

  function isSigniZone(zone) {
    return /^signi\d$/.test(zone);
  }

  function addCard(text, player, zone, label) {
    var name = "setup." + player;
    if (isSigniZone(zone)) {
      return setKey(text, name, zone, JSON.stringify(label));
    }
    var line = getKey(text, name, zone);
    var list = line === null ? [] : strings(line);
    list.push(label);
    return setKey(text, name, zone, quoted(list));
  }

  /** The label a zone entry names ("L0:lrig-white-0" -> L0); "t*3" names t1, t2, t3. */
  function removeCard(text, player, zone, label) {
    var name = "setup." + player;
    var line = getKey(text, name, zone);
    if (line === null) {
      return text;
    }
    if (isSigniZone(zone)) {
      var written = strings(line)[0] || "";
      return written.split(":")[0] === label ? setKey(text, name, zone, null) : text;
    }
    var list = strings(line);
    for (var i = list.length - 1; i >= 0; i--) {
      var own = list[i].split(":")[0];
      var many = /^(.*)\*(\d+)$/.exec(own);
      if (own === label) {
        list.splice(i, 1);
        return setKey(text, name, zone, quoted(list));
      }
      if (many && label === many[1] + many[2]) { // the last of a run: one card fewer
        var n = Number(many[2]) - 1;
        list.splice.apply(list, [i, 1].concat(n > 0 ? [many[1] + "*" + n] : []));
        return setKey(text, name, zone, quoted(list));
      }
    }
    return text;
  }

  /** The ids of the cards the ruling defines itself ([cards.ID]). */
  function ownCards(text) {
    var out = [];
    text.replace(/^\s*\[cards\.([^\]\s]+)\]/gm, function (_, id) {
      out.push(id);
    });
    return out;
  }

  function toggleKeyword(text, card, keyword) {
    var name = "cards." + card;
    var line = getKey(text, name, "keywords");
    var list = line === null ? [] : strings(line);
    var at = list.indexOf(keyword);
    if (at >= 0) {
      list.splice(at, 1);
    } else {
      list.push(keyword);
    }
    return setKey(text, name, "keywords", list.length ? quoted(list) : null);
  }

  function setRulesets(text, rules) {
    return text.replace(/^rulesets\s*=.*$/m, "rulesets = " + quoted(rules));
  }

  function rulingId(text) {
    var found = /^id\s*=\s*"([^"]+)"/m.exec(text);
    return found ? found[1] : "my-ruling";
  }

  // ------------------------------------------------------------------ a position in a link

  // The edited ruling travels in the address's fragment (never sent to the server), deflated
  // (CompressionStream "deflate-raw") and written in base64url, in one of two forms:
  //   "#try=2." the edit against the file the page opens (the ruling's, or the blank one):
  //             JSON [digest of that file, first line, lines removed, lines put in];
  //   "#try=1." the whole text (when it is shorter, or the file is not known).
  // Opening such a link opens the sandbox with that text, which is only ever put in the text
  // area and handed to the worker's loader as a ruling file: data, never markup.
  // docs/site.md, "Sharing a position".
  var SHARE = "#try=";
  //: The most a link may unpack to (the largest ruling of the corpus is a tenth of it).
  var SHARE_LIMIT = 262144;

  function toBase64url(bytes) {
    var text = "";
    for (var i = 0; i < bytes.length; i += 8192) {
      text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
    }
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64url(code) {
    var text = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) {
      bytes[i] = text.charCodeAt(i);
    }
    return bytes;
  }

  /** A text's digest in the link: FNV-1a over its UTF-16 code units, in hex (no secure
   * context needed, unlike crypto.subtle). benchmarks/links.py computes the same. */
  function digest(text) {
    var hash = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return ("0000000" + hash.toString(16)).slice(-8);
  }

  /** The one run of lines where `text` differs from `base`: [first, removed, put in]. */
  function hunk(base, text) {
    var a = base.split("\n");
    var b = text.split("\n");
    var start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) {
      start += 1;
    }
    var endA = a.length;
    var endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
      endA -= 1;
      endB -= 1;
    }
    return [start, endA - start, b.slice(start, endB)];
  }

  function deflate(text) {
    var stream = new Blob([new TextEncoder().encode(text)]).stream()
      .pipeThrough(new CompressionStream("deflate-raw"));
    return new Response(stream).arrayBuffer().then(function (buffer) {
      return toBase64url(new Uint8Array(buffer));
    });
  }

  /** The link's fragment for a ruling's `text`, the page's own file being `base` (a
   * promise): the shorter of the two forms. */
  function encodeShare(text, base) {
    var whole = deflate(text).then(function (code) {
      return SHARE + "1." + code;
    });
    if (typeof base !== "string") {
      return whole;
    }
    var edit = deflate(JSON.stringify([digest(base)].concat(hunk(base, text))))
      .then(function (code) {
        return SHARE + "2." + code;
      });
    return Promise.all([whole, edit]).then(function (got) {
      return got[1].length <= got[0].length ? got[1] : got[0];
    });
  }

  function inflate(code) {
    var reader = new Blob([fromBase64url(code)]).stream()
      .pipeThrough(new DecompressionStream("deflate-raw")).getReader();
    var parts = [];
    var size = 0;
    function next() {
      return reader.read().then(function (got) {
        if (got.done) {
          var all = new Uint8Array(size);
          var at = 0;
          parts.forEach(function (part) {
            all.set(part, at);
            at += part.length;
          });
          return new TextDecoder("utf-8", { fatal: true }).decode(all);
        }
        size += got.value.length;
        if (size > SHARE_LIMIT) {
          reader.cancel();
          throw new Error("too long");
        }
        parts.push(got.value);
        return next();
      });
    }
    return next();
  }

  /** What a fragment carries, the page's own file being `base` (a promise): null when it
   * carries nothing, else {text, changed} (changed: the edit was made against another
   * version of the file); a rejection when it cannot be read (not base64url, not deflate,
   * past SHARE_LIMIT, not UTF-8, not an edit). */
  function decodeShare(hash, base) {
    var form = /^#try=([12])\.([A-Za-z0-9_-]*)$/.exec(hash);
    if (hash.indexOf(SHARE) !== 0) {
      return Promise.resolve(null);
    }
    if (!form) {
      return Promise.reject(new Error("not a link of the sandbox"));
    }
    return Promise.resolve(form[2]).then(inflate).then(function (text) {
      if (form[1] === "1") {
        return { text: text, changed: false };
      }
      var edit = JSON.parse(text);
      var lines = base.split("\n");
      if (!Array.isArray(edit) || edit.length !== 4 || typeof edit[0] !== "string" ||
          !Number.isInteger(edit[1]) || !Number.isInteger(edit[2]) || edit[1] < 0 ||
          edit[2] < 0 || edit[1] + edit[2] > lines.length || !Array.isArray(edit[3]) ||
          !edit[3].every(function (line) { return typeof line === "string"; })) {
        throw new Error("not an edit");
      }
      lines.splice.apply(lines, [edit[1], edit[2]].concat(edit[3]));
      return { text: lines.join("\n"), changed: edit[0] !== digest(base) };
    });
  }

  /** This page's address with the fragment `hash` ("" for none). */
  function address(hash) {
    return window.location.href.replace(/#.*$/, "") + hash;
  }

  // ------------------------------------------------------------------ the panel

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) {
      if (key === "text") {
        node.textContent = attributes[key];
      } else {
        node.setAttribute(key, attributes[key]);
      }
    });
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  function select(label, values, names) {
    var node = element("select", { "aria-label": label });
    values.forEach(function (value, i) {
      node.appendChild(element("option", { value: value, text: names ? names[i] : value }));
    });
    return node;
  }

  function button(text, cls) {
    return element("button", { type: "button", "class": cls || "", text: text });
  }

  function labelled(text, control) {
    return element("label", {}, [document.createTextNode(text + " "), control]);
  }

  /** The fragment's ids prefixed, so they do not clash with the page's own (the boards' shared
   * drawings, the sections, the captions). */
  function ownIds(html) {
    return html.replace(/(\sid="|\shref="#|\saria-labelledby="|url\(#)/g, "$1sb-");
  }

  /** A replay's links to the rules lead from a ruling page (../../ is the language's root):
   * made to lead there from this page, whose brand link is that root. */
  function rootLinks(box) {
    var brand = document.querySelector("a.brand");
    var root = brand ? brand.getAttribute("href") : "";
    Array.prototype.forEach.call(box.querySelectorAll(".rule a[href^='../../']"),
                                 function (link) {
      link.setAttribute("href", root + link.getAttribute("href").slice(6));
    });
  }

  function Sandbox(trigger) {
    this.trigger = trigger;
    this.path = trigger.getAttribute("data-sandbox") || "";
    this.words = null;
    this.original = "";
    this.timer = null;
    this.version = 0;
    this.build();
  }

  Sandbox.prototype.build = function () {
    var self = this;
    this.status = element("p", { "class": "sb-status", role: "status",
                                 text: this.trigger.getAttribute("data-loading") || "…" });
    this.gutter = element("pre", { "class": "sb-lines", "aria-hidden": "true" });
    this.editor = element("textarea", { "class": "sb-text", spellcheck: "false",
                                        autocapitalize: "off", autocomplete: "off", wrap: "off",
                                        rows: "18" });
    this.controls = element("div", { "class": "sb-controls" });
    this.report = element("pre", { "class": "sb-report", "aria-live": "polite" });
    // judge check's own lines, for contributors: folded under the results in words
    this.checkTitle = element("summary", { text: "judge check" });
    this.check = element("details", { "class": "sb-check" }, [this.checkTitle, this.report]);
    this.output = element("div", { "class": "sb-output" });
    this.panel = element("section", { "class": "sandbox", id: "sandbox" }, [
      this.status, this.controls,
      element("div", { "class": "sb-editor" }, [this.gutter, this.editor]),
      this.check, this.output]);
    var anchor = this.trigger.closest("p") || this.trigger;
    anchor.parentNode.insertBefore(this.panel, anchor.nextSibling);
    this.editor.addEventListener("input", function () {
      self.numberLines();
      self.soon();
    });
    this.editor.addEventListener("scroll", function () {
      self.gutter.scrollTop = self.editor.scrollTop;
    });
  };

  Sandbox.prototype.start = function () {
    var self = this;
    // the ruling's file of this build, asked past the HTTP cache (docs/site.md, "Caching")
    var text = this.path ? fetch(BASE + this.path, { cache: "no-cache" }).then(function (response) {
      if (!response.ok) {
        throw { message: self.path + ": HTTP " + response.status };
      }
      return response.text();
    }) : Promise.resolve(null);
    return Promise.all([text, ask({ type: "vocabulary", lang: LANG })]).then(function (got) {
      var vocabulary = got[1].value;
      self.words = vocabulary.words;
      self.vocabulary = vocabulary;
      if (!self.path) {
        self.path = vocabulary.blank_path;
      }
      self.original = got[0] === null ? vocabulary.blank : got[0];
      return decodeShare(window.location.hash, self.original).catch(function () {
        return false; // a link that cannot be read: the ruling as written, and a notice
      });
    }).then(function (shared) {
      self.editor.value = shared ? shared.text : self.original;
      self.notice = shared === false ? self.words.badlink :
        shared && shared.changed ? self.words.changed : "";
      self.editor.setAttribute("aria-label", self.words.editor);
      self.checkTitle.textContent = self.words.check;
      self.numberLines();
      self.buildControls();
      return self.replay();
    }, function (error) {
      self.fail(error);
    });
  };

  Sandbox.prototype.buildControls = function () {
    var self = this;
    var w = this.words;
    var v = this.vocabulary;
    var replay = button(w.replay, "sb-replay");
    replay.addEventListener("click", function () {
      self.replay();
    });
    var reset = button(w.reset, "sb-reset");
    reset.addEventListener("click", function () {
      self.edit(self.original);
    });
    var download = button(w.download, "sb-download");
    download.addEventListener("click", function () {
      self.download();
    });
    var share = button(w.share, "sb-share");
    share.addEventListener("click", function () {
      self.share();
    });
    this.link = element("input", { "class": "sb-link", readonly: "", "aria-label": w.link });
    this.link.hidden = true;
    // the rule set
    var rules = select(w.ruleset, [""].concat(v.rulesets), [w.all].concat(v.rulesets));
    rules.className = "sb-rules";
    rules.addEventListener("change", function () {
      var written = /^rulesets\s*=.*$/m.exec(self.original);
      self.edit(rules.value ? setRulesets(self.editor.value, [rules.value]) :
        self.editor.value.replace(/^rulesets\s*=.*$/m, written ? written[0] : ""));
    });
    // a card in a zone
    var player = select(w.player, v.players);
    player.className = "sb-player";
    var zone = select(w.zone, v.zones);
    zone.className = "sb-zone";
    var label = element("input", { "class": "sb-label", "aria-label": w.label, size: "8",
                                   placeholder: w.label, value: "x1" });
    var add = button(w.add, "sb-add");
    add.addEventListener("click", function () {
      if (label.value.trim()) {
        self.edit(addCard(self.editor.value, player.value, zone.value, label.value.trim()));
      }
    });
    var remove = button(w.remove, "sb-remove");
    remove.addEventListener("click", function () {
      self.edit(removeCard(self.editor.value, player.value, zone.value, label.value.trim()));
    });
    // a card of the ruling's own: power, level, keyword
    var card = select(w.card, []);
    card.className = "sb-card";
    this.cardList = card;
    var power = element("input", { "class": "sb-power", type: "number", step: "1000",
                                   "aria-label": w.power, placeholder: w.power });
    var level = element("input", { "class": "sb-level", type: "number", min: "0",
                                   "aria-label": w.level, placeholder: w.level });
    var set = button(w.set, "sb-set");
    set.addEventListener("click", function () {
      var text = self.editor.value;
      if (!card.value) {
        return;
      }
      if (power.value !== "") {
        text = setKey(text, "cards." + card.value, "power", String(Number(power.value)));
      }
      if (level.value !== "") {
        text = setKey(text, "cards." + card.value, "level", String(Number(level.value)));
      }
      self.edit(text);
    });
    var keyword = select(w.keyword, v.keywords);
    keyword.className = "sb-keyword";
    var toggle = button(w.toggle, "sb-toggle");
    toggle.addEventListener("click", function () {
      if (card.value) {
        self.edit(toggleKeyword(self.editor.value, card.value, keyword.value));
      }
    });
    this.noCard = element("p", { "class": "small sb-nocard", text: w.nocard });
    this.controls.appendChild(element("p", {}, [replay, reset, download, share,
                                                labelled(w.ruleset, rules)]));
    this.controls.appendChild(element("p", {}, [this.link]));
    this.controls.appendChild(element("p", {}, [player, zone, label, add, remove]));
    this.controls.appendChild(element("p", { "class": "sb-cards" }, [
      card, labelled(w.power, power), labelled(w.level, level), set, keyword, toggle]));
    this.controls.appendChild(this.noCard);
    this.listCards();
  };

  Sandbox.prototype.listCards = function () {
    var cards = ownCards(this.editor.value);
    var current = this.cardList.value;
    this.cardList.textContent = "";
    var list = this.cardList;
    cards.forEach(function (id) {
      list.appendChild(element("option", { value: id, text: id }));
    });
    if (cards.indexOf(current) >= 0) {
      list.value = current;
    }
    this.noCard.hidden = cards.length > 0;
  };

  Sandbox.prototype.numberLines = function () {
    var count = this.editor.value.split("\n").length;
    var out = [];
    for (var i = 1; i <= count; i++) {
      out.push(i);
    }
    this.gutter.textContent = out.join("\n");
    this.gutter.scrollTop = this.editor.scrollTop;
  };

  Sandbox.prototype.edit = function (text) {
    this.editor.value = text;
    this.numberLines();
    this.replay();
  };

  Sandbox.prototype.soon = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () {
      self.replay();
    }, DELAY);
  };

  Sandbox.prototype.replay = function () {
    var self = this;
    clearTimeout(this.timer);
    if (this.cardList) {
      this.listCards();
    }
    this.version += 1;
    var version = this.version;
    this.panel.setAttribute("aria-busy", "true");
    if (this.words) {
      this.status.textContent = this.words.working;
    }
    var began = performance.now();
    return ask({ type: "replay", text: this.editor.value, path: this.path, lang: LANG })
      .then(function (answer) {
        if (version !== self.version) {
          return; // a later edit is being replayed
        }
        self.show(answer.value, performance.now() - began);
        return self.keepAddress();
      }, function (error) {
        if (version === self.version) {
          self.fail(error);
        }
      });
  };

  Sandbox.prototype.markLine = function (line) {
    var numbers = this.editor.value.split("\n").map(function (_, i) {
      return String(i + 1);
    });
    this.gutter.textContent = "";
    var gutter = this.gutter;
    numbers.forEach(function (n, i) {
      var bad = line && i + 1 === line;
      gutter.appendChild(bad ? element("mark", { "class": "sb-bad", text: n }) :
        document.createTextNode(n));
      if (i + 1 < numbers.length) {
        gutter.appendChild(document.createTextNode("\n"));
      }
    });
  };

  /** After a first replay, have the service worker keep the sandbox's files (the list the
   * build wrote, and this ruling's file) so that it works offline; once per page. */
  var keeping = false;
  function keepOffline(path) {
    var container = navigator.serviceWorker;
    if (keeping || !container || !/^https?:$/.test(window.location.protocol)) {
      return;
    }
    keeping = true;
    var root = new URL("../", BASE).href;
    Promise.all([fetch(BASE + "files.json", { cache: "no-cache" }).then(function (r) {
      return r.json();
    }), container.ready]).then(function (got) {
      var urls = got[0].files.map(function (file) {
        return root + file;
      });
      if (path) {
        urls.push(BASE + path);
      }
      container.addEventListener("message", function (event) {
        if ((event.data || {}).type === "kept-sandbox") {
          document.documentElement.setAttribute("data-sandbox-offline", "kept");
        }
      });
      got[1].active.postMessage({ type: "keep", urls: urls });
    }).catch(function () {
      // no worker: the sandbox works online only
    });
  }

  Sandbox.prototype.show = function (result, ms) {
    keepOffline(this.trigger.getAttribute("data-sandbox"));
    this.panel.removeAttribute("aria-busy");
    this.panel.setAttribute("data-ms", String(Math.round(ms)));
    this.status.textContent = this.notice || "";
    this.notice = "";
    this.report.textContent = "";
    this.report.className = "sb-report" + (result.ok ? "" : " sb-fail");
    var self = this;
    result.report.forEach(function (text, i) {
      if (i) {
        self.report.appendChild(document.createTextNode("\n"));
      }
      self.report.appendChild(document.createTextNode(text));
    });
    this.check.open = !result.html; // nothing else to read when the file did not load
    this.editor.setAttribute("aria-invalid", result.line ? "true" : "false");
    this.markLine(result.line);
    if (result.line) {
      var link = button(this.words.line.replace("%(line)s", result.line), "sb-goto");
      link.addEventListener("click", function () {
        self.goTo(result.line);
      });
      this.report.appendChild(document.createTextNode("\n"));
      this.report.appendChild(link);
    }
    this.output.innerHTML = result.html ? ownIds(result.html) : "";
    rootLinks(this.output);
    if (window.judgeBoards) {
      window.judgeBoards.describe(this.output); // the boards' text alternatives (site.js)
    }
    if (result.html) {
      this.output.insertBefore(element("p", { "class": "small", text: this.words.result }),
                               this.output.firstChild);
    }
    this.panel.setAttribute("data-state", result.line ? "error" : result.ok ? "ok" : "fail");
    this.answered();
  };

  /** Count the answers shown (data-replays: for the tests and the benchmark). */
  Sandbox.prototype.answered = function () {
    this.replays = (this.replays || 0) + 1;
    this.panel.setAttribute("data-replays", String(this.replays));
  };

  Sandbox.prototype.goTo = function (line) {
    var list = this.editor.value.split("\n");
    var start = list.slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
    this.editor.focus();
    this.editor.setSelectionRange(start, start + (list[line - 1] || "").length);
    var height = this.editor.scrollHeight / Math.max(1, list.length);
    this.editor.scrollTop = Math.max(0, (line - 3) * height);
  };

  Sandbox.prototype.fail = function (error) {
    this.panel.removeAttribute("aria-busy");
    this.panel.setAttribute("data-state", "error");
    var text = error && error.timeout ?
      (this.words ? this.words.timeout.replace("%(seconds)s", error.timeout) :
        "timeout " + error.timeout + " s") : "Error: " + ((error && error.message) || error);
    this.status.textContent = "";
    this.report.className = "sb-report sb-fail";
    this.report.textContent = text;
    this.check.open = true;
    this.output.textContent = "";
    this.answered();
  };

  /** The page's address carries the edited ruling (none when it is as written), so that
   * a reload, a bookmark or a copied address keeps the position. */
  Sandbox.prototype.keepAddress = function () {
    var text = this.editor.value;
    var done = text === this.original ? Promise.resolve("") :
      encodeShare(text, this.original);
    var self = this;
    return done.then(function (hash) {
      if (text !== self.editor.value) {
        return; // edited since
      }
      if (window.location.hash.indexOf("#try=") === 0 || hash) {
        window.history.replaceState(window.history.state, "", address(hash));
      }
    });
  };

  /** "Copy link": the address of this position, through the platform's share sheet where
   * there is one (a phone), else to the clipboard; shown in a field either way. */
  Sandbox.prototype.share = function () {
    var self = this;
    return encodeShare(this.editor.value, this.original).then(function (hash) {
      var url = address(hash);
      self.link.value = url;
      self.link.hidden = false;
      self.panel.setAttribute("data-link", url);
      var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
      if (coarse && navigator.share) {
        return navigator.share({ title: document.title, url: url }).catch(function () {
          self.link.select(); // dismissed: the field still holds it
        });
      }
      self.link.select();
      var clip = navigator.clipboard;
      return (clip ? clip.writeText(url) : Promise.reject(null)).then(function () {
        self.status.textContent = self.words.copied;
      }, function () {
        self.status.textContent = self.words.copy;
      });
    });
  };

  Sandbox.prototype.download = function () {
    var text = this.editor.value;
    var link = element("a", { download: rulingId(text) + ".toml" });
    var url = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
    link.href = url;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () {
      URL.revokeObjectURL(url);
    }, 1000);
  };

  var opened = null;

  function open(trigger) {
    if (opened) {
      opened.editor.focus();
      return opened;
    }
    opened = new Sandbox(trigger);
    trigger.setAttribute("aria-expanded", "true");
    opened.started = opened.start();
    return opened;
  }

  var stylesheet = element("link", { rel: "stylesheet", href: BASE + "sandbox.css" });
  document.head.appendChild(stylesheet);
  // for the tests and the benchmark (benchmarks/sandbox.py): the worker and the editing helpers
  window.judgeSandbox = {
    open: open, ask: ask, stop: stopWorker,
    share: { encode: encodeShare, decode: decodeShare },
    edits: { addCard: addCard, removeCard: removeCard, setKey: setKey,
             toggleKeyword: toggleKeyword, setRulesets: setRulesets },
  };
})();
