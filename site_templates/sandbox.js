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
          waiting.resolve({ value: data.value, ms: data.ms, compiled: data.compiled });
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

  /** The ruling's id, for the downloaded file's name. */
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
    // the ruling's file of this build, gzip-compressed (read by site.js's judgeGzipText),
    // asked past the HTTP cache (docs/site.md, "Caching")
    var text = this.path ? fetch(BASE + this.path + ".gz", { cache: "no-cache" })
      .then(function (response) {
        if (!response.ok) {
          throw { message: self.path + ": HTTP " + response.status };
        }
        return window.judgeGzipText(response);
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
    this.controls.appendChild(element("p", {}, [replay, reset, download, share]));
    this.controls.appendChild(element("p", {}, [this.link]));
    // propose the ruling on the repository's "new file" page (site.toml sets it; none: no
    // button): the file prefilled, at rulings/<topic>/<id>.toml
    this.newFile = this.trigger.getAttribute("data-propose") || "";
    if (this.newFile) {
      var topics = this.vocabulary.choices.topics;
      var folder = (this.path.split("/")[1] || "");
      this.topic = choose("sb-topic", w.topic, topics, folder.indexOf(".") < 0 ? folder : "");
      this.topic.addEventListener("change", function () {
        self.propose();
      });
      this.proposeLink = element("a", { "class": "sb-propose", target: "_blank",
                                        rel: "noopener", text: w.propose });
      this.proposeLink.hidden = true;
      this.controls.appendChild(element("p", {}, [field(w.topic, this.topic),
                                                  this.proposeLink]));
    }
    this.board = element("div", { "class": "sb-board" });
    this.controls.appendChild(this.board);
  };

  // ------------------------------------------------------------------ the board

  // The board shows the set-up the last replay loaded (judge.site.editor.board_view) and
  // each tap asks the worker for an edit of the text (judge.site.editor.edit, tomlkit: the
  // file hand-editing would give), which is then replayed: the text area stays the advanced
  // view, and the board follows it, since it is drawn from whatever text was replayed.

  /** [value, name] pairs as the options of a select. */
  function choose(cls, label, pairs, value) {
    var node = element("select", { "class": cls, "aria-label": label });
    pairs.forEach(function (pair) {
      node.appendChild(element("option", { value: pair[0], text: pair[1] }));
    });
    if (value !== undefined) {
      node.value = value;
    }
    return node;
  }

  function field(text, control) {
    return element("label", { "class": "sb-field" }, [
      element("span", { text: text }), control]);
  }

  Sandbox.prototype.boardEdit = function (op, args) {
    var self = this;
    return ask({ type: "edit", text: this.editor.value, op: op, args: args })
      .then(function (answer) {
        if (answer.value.error) {
          self.status.textContent = answer.value.error;
          return null;
        }
        return self.edit(answer.value.text);
      }, function (error) {
        self.fail(error);
      });
  };

  Sandbox.prototype.drawBoard = function (view) {
    var self = this;
    var w = this.words;
    var c = this.vocabulary.choices;
    if (!this.writtenRules) {
      this.writtenRules = view.rulesets.slice();
    }
    this.view = view;
    var names = {};
    c.states.forEach(function (pair) {
      names[pair[0]] = pair[1];
    });
    var box = this.board;
    box.textContent = "";
    box.appendChild(element("h3", { text: w.board }));
    // each player's zones that hold cards, the cards as buttons to tap
    view.players.forEach(function (side) {
      var set = element("fieldset", { "class": "sb-side", "data-player": side.id },
                        [element("legend", { text: side.name })]);
      if (!side.zones.length) {
        set.appendChild(element("p", { "class": "small", text: w.nocards }));
      }
      side.zones.forEach(function (zone) {
        var row = element("div", { "class": "sb-zonerow", "data-zone": zone.id },
                          [element("span", { "class": "sb-zname", text: zone.name })]);
        zone.cards.forEach(function (card) {
          var marks = (card.down ? " ↓" : "") + (card.frozen ? " ❄" : "");
          var chip = button(card.label + " " + card.name + marks, "sb-chip");
          chip.setAttribute("data-label", card.label);
          chip.setAttribute("aria-pressed", String(card.label === self.picked));
          chip.addEventListener("click", function () {
            self.picked = card.label === self.picked ? null : card.label;
            self.drawBoard(self.view);
          });
          row.appendChild(chip);
        });
        set.appendChild(row);
      });
      box.appendChild(set);
    });
    // the palette: a card of the shared files, the filler or one of the ruling's own
    var palette = c.palette.concat(view.own.filter(function (pair) {
      return !c.palette.some(function (p) { return p[0] === pair[0]; });
    }));
    var player = choose("sb-add-player", w.player, c.players, this.addPlayer);
    var zone = choose("sb-add-zone", w.zone, c.zones, this.addZone || "hand");
    var card = choose("sb-palette", w.card, palette, this.addCard || "");
    var add = button(w.add, "sb-add");
    add.addEventListener("click", function () {
      self.addPlayer = player.value;
      self.addZone = zone.value;
      self.addCard = card.value;
      self.boardEdit("add", { player: player.value, zone: zone.value, card: card.value });
    });
    var empty = button(w.empty, "sb-empty");
    empty.addEventListener("click", function () {
      self.picked = null;
      self.boardEdit("empty", {});
    });
    box.appendChild(element("div", { "class": "sb-addcard" }, [
      element("h4", { text: w.addcard }), field(w.player, player), field(w.zone, zone),
      field(w.card, card), add, empty]));
    // the card tapped: move, remove, state, numbers, keywords
    var found = null;
    view.players.forEach(function (side) {
      side.zones.forEach(function (z) {
        z.cards.forEach(function (one) {
          if (one.label === self.picked) {
            found = { card: one, player: side.id, zone: z.id };
          }
        });
      });
    });
    if (found) {
      box.appendChild(this.cardPanel(found, names));
    } else {
      this.picked = null;
    }
    box.appendChild(this.stepsPanel(view));
    // the rule set and the format
    var rules = choose("sb-rules", w.ruleset, [["", w.all]].concat(c.rulesets),
                       view.rulesets.length === 1 && view.rulesets.join() !==
                       this.writtenRules.join() ? view.rulesets[0] : "");
    rules.addEventListener("change", function () {
      self.boardEdit("rulesets", { rules: rules.value ? [rules.value] : self.writtenRules });
    });
    var format = choose("sb-format", c.format, c.formats, view.format);
    format.addEventListener("change", function () {
      self.boardEdit("format", { format: format.value });
    });
    box.appendChild(element("p", { "class": "sb-game" }, [field(w.ruleset, rules),
                                                         field(c.format, format)]));
    this.drawSetup();
  };

  /** The set-up as the ruling page draws it (the replay's first board, the same SVG and
   * caption), at the top of the board: a copy without ids, which stay the replay's. */
  Sandbox.prototype.drawSetup = function () {
    var figure = this.output.querySelector("#sb-replay section.step figure");
    var old = this.board && this.board.querySelector(".sb-setup");
    if (old) {
      old.remove();
    }
    if (!figure || !this.board || !this.board.firstChild) {
      return;
    }
    var copy = figure.cloneNode(true);
    copy.classList.add("sb-setup");
    Array.prototype.forEach.call(copy.querySelectorAll("[id]"), function (node) {
      node.removeAttribute("id");
    });
    copy.removeAttribute("id");
    var svg = copy.querySelector("svg");
    if (svg) {
      svg.removeAttribute("aria-describedby");
      this.tapAreas(svg);
    }
    this.board.insertBefore(copy, this.board.firstChild.nextSibling); // under the heading
  };

  /** The drawing made tappable: over each box of a zone and each card label drawn in it
   * (judge.site.board.hit_areas, in the board's units), a focusable area that does what the
   * rows do: a card picks it (as its chip does), a zone becomes where "Add" puts a card. */
  Sandbox.prototype.tapAreas = function (svg) {
    var self = this;
    var hits = (this.view && this.view.hits) || [];
    if (!hits.length) {
      return;
    }
    svg.setAttribute("role", "group"); // its areas are buttons, which an image would hide
    var ns = "http://www.w3.org/2000/svg";
    hits.forEach(function (area) {
      var rect = document.createElementNS(ns, "rect");
      ["x", "y"].forEach(function (k) { rect.setAttribute(k, area[k]); });
      rect.setAttribute("width", area.w);
      rect.setAttribute("height", area.h);
      rect.setAttribute("tabindex", "0");
      rect.setAttribute("role", "button");
      rect.setAttribute("aria-label", area.name);
      rect.setAttribute("data-player", area.player);
      rect.setAttribute("data-zone", area.zone);
      var picked;
      if (area.label) {
        rect.setAttribute("class", "sb-hit sb-hitcard");
        rect.setAttribute("data-label", area.label);
        picked = area.label === self.picked;
      } else {
        rect.setAttribute("class", "sb-hit sb-hitzone");
        picked = area.player === self.addPlayer && area.zone === self.addZone;
      }
      rect.setAttribute("aria-pressed", String(picked));
      function tap() {
        if (area.label) {
          self.picked = area.label === self.picked ? null : area.label;
        } else {
          self.addPlayer = area.player;
          self.addZone = area.zone;
        }
        self.drawBoard(self.view);
        var again = self.board.querySelector(".sb-setup rect.sb-hit[data-player='" +
            area.player + "'][data-zone='" + area.zone + "']" +
            (area.label ? "[data-label='" + CSS.escape(area.label) + "']"
                        : ":not([data-label])"));
        if (again) {
          again.focus(); // the keyboard stays where it was
        }
      }
      rect.addEventListener("click", tap);
      rect.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          tap();
        }
      });
      svg.appendChild(rect);
    });
  };

  Sandbox.prototype.cardPanel = function (found, names) {
    var self = this;
    var w = this.words;
    var c = this.vocabulary.choices;
    var label = found.card.label;
    var player = choose("sb-move-player", w.player, c.players, found.player);
    var zone = choose("sb-move-zone", w.zone, c.zones, found.zone);
    var move = button(w.move, "sb-move");
    move.addEventListener("click", function () {
      self.boardEdit("move", { label: label, player: player.value, zone: zone.value });
    });
    var remove = button(w.remove, "sb-remove");
    remove.addEventListener("click", function () {
      self.picked = null;
      self.boardEdit("remove", { label: label });
    });
    function box(name, on) {
      var tick = element("input", { type: "checkbox", "class": "sb-" + name });
      tick.checked = on;
      tick.addEventListener("change", function () {
        var down = self.board.querySelector(".sb-down").checked;
        var frozen = self.board.querySelector(".sb-frozen").checked;
        self.boardEdit("state", { label: label, down: down, frozen: frozen });
      });
      return element("label", { "class": "sb-tick" }, [tick, element("span", {
        text: names[name] })]);
    }
    var power = element("input", { "class": "sb-power", type: "number", step: "1000",
                                   "aria-label": w.power, inputmode: "numeric" });
    var level = element("input", { "class": "sb-level", type: "number", min: "0",
                                   "aria-label": w.level, inputmode: "numeric" });
    var set = button(w.set, "sb-set");
    set.addEventListener("click", function () {
      var edits = [];
      if (power.value !== "") {
        edits.push(["power", Number(power.value)]);
      }
      if (level.value !== "") {
        edits.push(["level", Number(level.value)]);
      }
      edits.reduce(function (done, pair) {
        return done.then(function () {
          return self.boardEdit("card", { label: label, field: pair[0], value: pair[1] });
        });
      }, Promise.resolve());
    });
    var colour = choose("sb-colour", w.colour, [["", "—"]].concat(c.colours), "");
    colour.addEventListener("change", function () {
      if (colour.value) {
        self.boardEdit("card", { label: label, field: "colour", value: colour.value });
      }
    });
    var keyword = choose("sb-keyword", w.keyword, c.keywords);
    var toggle = button(w.toggle, "sb-toggle");
    toggle.addEventListener("click", function () {
      self.boardEdit("keyword", { label: label, keyword: keyword.value });
    });
    return element("div", { "class": "sb-cardpanel", "data-label": label }, [
      element("h4", { text: label + " " + found.card.name }),
      element("p", {}, [field(w.player, player), field(w.zone, zone), move, remove]),
      element("p", {}, [box("down", found.card.down), box("frozen", found.card.frozen)]),
      element("p", {}, [field(w.power, power), field(w.level, level), set,
                        field(w.colour, colour)]),
      element("p", {}, [field(w.keyword, keyword), toggle])]);
  };

  Sandbox.prototype.stepsPanel = function (view) {
    var self = this;
    var w = this.words;
    var c = this.vocabulary.choices;
    var list = element("ol", { "class": "sb-steplist" });
    view.steps.forEach(function (step) {
      var drop = button("×", "sb-unstep");
      drop.setAttribute("aria-label", w.unstep + ": " + step[1]);
      drop.addEventListener("click", function () {
        self.boardEdit("unstep", { index: step[0] });
      });
      list.appendChild(element("li", {}, [document.createTextNode(step[1] + " "), drop]));
    });
    var action = choose("sb-action", w.action, c.actions, this.stepAction || "effect");
    var labels = view.cards;
    var controls = {
      player: choose("sb-step-player", w.player, c.players),
      card: choose("sb-step-card", w.card, labels),
      to: choose("sb-step-to", w.to, [["", w.next]].concat(c.phases)),
      op: choose("sb-step-op", w.op, c.ops),
      count: element("input", { "class": "sb-step-count", type: "number", min: "1",
                                value: "1", "aria-label": w.count, inputmode: "numeric" }),
      target: choose("sb-step-target", w.target, labels),
      amount: element("input", { "class": "sb-step-amount", type: "number", step: "1000",
                                 value: "1000", "aria-label": w.amount, inputmode: "numeric" }),
      keyword: choose("sb-step-keyword", w.keyword, c.keywords),
    };
    var fields = element("span", { "class": "sb-stepfields" });
    /** The step's fields; for an effect, those of its operation (the menu's opfields). */
    function wanted() {
      return (c.fields[action.value] || []).filter(function (name) {
        return action.value !== "effect" || c.opmenu.indexOf(name) < 0 ||
          (c.opfields[controls.op.value] || []).indexOf(name) >= 0;
      });
    }
    function show() {
      fields.textContent = "";
      wanted().forEach(function (name) {
        fields.appendChild(field(w[name], controls[name]));
      });
    }
    action.addEventListener("change", function () {
      self.stepAction = action.value;
      show();
    });
    controls.op.addEventListener("change", show);
    show();
    var add = button(w.addstep, "sb-addstep");
    add.addEventListener("click", function () {
      var args = { action: action.value };
      wanted().forEach(function (name) {
        args[name] = controls[name].value;
      });
      self.boardEdit("step", args);
    });
    // one more operation at the end of the last step, when it is an effect
    var more = button(w.addop, "sb-addop");
    var last = view.steps.length ? view.steps[view.steps.length - 1] : null;
    more.hidden = !last || !last[2];
    more.addEventListener("click", function () {
      var args = { op: controls.op.value };
      (c.opfields[controls.op.value] || []).forEach(function (name) {
        args[name] = controls[name].value;
      });
      self.boardEdit("operation", args);
    });
    return element("div", { "class": "sb-steps" }, [
      element("h4", { text: w.steps }), list,
      element("p", {}, [field(w.action, action), fields, add, more])]);
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
    return this.replay();
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
        self.panel.setAttribute("data-compiled", answer.compiled || "none");
        self.show(answer.value, performance.now() - began);
        return Promise.all([self.keepAddress(), self.propose(answer.value.ok)]);
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
        urls.push(BASE + path + ".gz");
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
    if (result.board) {
      this.drawBoard(result.board); // the text replayed: the board follows it
    }
    this.output.innerHTML = result.html ? ownIds(result.html) : "";
    rootLinks(this.output);
    this.drawSetup();
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

  /** The link that proposes the text as it is now: only after a replay that met every
   * expectation (`ok`), so that every file proposed passes judge check as it is. */
  Sandbox.prototype.propose = function (ok) {
    var self = this;
    if (!this.newFile) {
      return Promise.resolve();
    }
    this.lastOk = ok === undefined ? this.lastOk : ok;
    this.proposeLink.hidden = true;
    if (!this.lastOk) {
      return Promise.resolve();
    }
    var text = this.editor.value;
    return ask({ type: "propose", text: text, path: this.path, topic: this.topic.value })
      .then(function (answer) {
        var file = answer.value;
        if (file.error || text !== self.editor.value) {
          return;
        }
        self.proposeLink.href = self.newFile + "?filename=" + encodeURIComponent(file.path) +
          "&value=" + encodeURIComponent(file.text);
        self.proposeLink.setAttribute("data-path", file.path);
        self.proposeLink.hidden = false;
      });
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
  };
})();
