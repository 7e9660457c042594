// The search page: the query typed here is read and ranked by search-engine.js, the site's
// half of the one search definition (docs/search.md, "The search, defined once"), over the
// index files `judge build` wrote into search-index/ (not with --no-search); this file only
// draws. A query is searched in the page's language: its Han characters are read as
// Japanese on /ja/ and as Chinese on /zh-Hans/, and each result shows its title and answer in
// the page's language, the words found marked, its rule sets as badges.
(function () {
  "use strict";
  var box = document.getElementById("search");
  var form = document.querySelector("form.search-main");
  var input = form ? form.querySelector("input[name=q]") : null;
  var stringsNode = document.getElementById("search-strings");
  if (!box || !input || !stringsNode) {
    return;
  }
  var strings = JSON.parse(stringsNode.textContent);
  var lang = box.getAttribute("data-lang") || document.documentElement.lang || "en";
  // the addresses are worked out from this page's own, so the site works from any folder
  var folder = new URL(box.getAttribute("data-index"), window.location.href);
  var home = new URL("../", window.location.href); // the language's home (<lang>/)

  //: Milliseconds between the last keystroke and the search (results follow within 150 ms).
  var DEBOUNCE_MS = 50;
  //: Results drawn at a time (each needs its block of what results show).
  var PAGE = 10;

  var engine = null; // the search, once its meta file is loaded
  var loading = null;
  var fragments = {}; // block -> Promise of what its rows' results show
  var generation = 0; // the latest search: an older one that ends later is not drawn
  var timer = null;
  var chosen = {}; // filter field -> values ticked
  var filtersDrawn = false;
  var FILTERS = [["rules", strings.ruleset], ["tag", strings.tag], ["term", strings.term],
    ["basis", strings.basis]];

  // ------------------------------------------------------------------ the page around it

  var status = document.createElement("p");
  status.className = "status";
  status.setAttribute("role", "status");
  var filtersBox = document.createElement("details");
  filtersBox.className = "filters";
  filtersBox.hidden = true;
  var filtersSummary = document.createElement("summary");
  filtersSummary.textContent = strings.filters;
  filtersBox.appendChild(filtersSummary);
  var list = document.createElement("ol");
  list.className = "results";
  var more = document.createElement("button");
  more.type = "button";
  more.className = "more";
  more.textContent = strings.more;
  more.hidden = true;
  box.appendChild(filtersBox);
  box.appendChild(status);
  box.appendChild(list);
  box.appendChild(more);

  function missing() {
    box.setAttribute("data-state", "missing");
    if (box.querySelector(".notice")) {
      return;
    }
    var note = document.createElement("p");
    note.className = "notice";
    note.textContent = box.getAttribute("data-missing");
    box.insertBefore(note, box.firstChild);
  }

  /** An index file could not be fetched, even the second time (`error` from fetchJson):
   * the page says so in its language and is no longer busy. Nothing failed is kept (the
   * meta file, the engine's shards, the blocks of results), so the next search, the next
   * keystroke or "More results" asks again. `keep`: leave the results drawn ("More results"
   * or the filters failed). A site built without its index (the meta file is not there)
   * says that instead. */
  function unreachable(error, keep) {
    if (error.absent && !engine) {
      status.textContent = "";
      missing();
      return;
    }
    if (!keep) {
      list.textContent = "";
      more.hidden = true;
    }
    status.textContent = strings.unreachable;
    box.setAttribute("data-state", "failed");
  }

  function format(message, values) {
    return message.replace(/%\((\w+)\)s/g, function (_, key) {
      return values[key];
    });
  }

  /** The query stays in the address (the language switcher, assets/site.js, carries it to
   * the other languages' search pages). */
  function remember(query) {
    var address = new URL(window.location.href);
    if (query) {
      address.searchParams.set("q", query);
    } else {
      address.searchParams.delete("q");
    }
    window.history.replaceState(null, "", address.pathname + address.search + address.hash);
  }

  // ------------------------------------------------------------------ the index files

  /** A failed index file: `indexFile` tells it from an error of the code, `absent` says the
   * server has no such file (HTTP 404). */
  function failure(url, absent, cause) {
    var error = new Error(url + (absent ? ": not found" : ": could not be fetched") +
      (cause ? " (" + cause + ")" : ""));
    error.indexFile = true;
    error.absent = absent;
    return error;
  }

  /** The object in an index file (gzip-compressed JSON, read by site.js's judgeGzipJson). */
  function fetchJson(name) {
    var url = new URL(name + ".gz", folder).href;
    var get = function () {
      return fetch(url).then(function (response) {
        if (response.status === 404) {
          throw failure(url, true);
        }
        return window.judgeGzipJson(response);
      });
    };
    // once more after a moment if it fails (a busy browser can refuse a request, a phone's
    // network can drop one); a file the server does not have is not asked for twice
    return get().catch(function (error) {
      if (error.absent) {
        throw error;
      }
      return new Promise(function (resolve) {
        window.setTimeout(resolve, 500);
      }).then(get);
    }).catch(function (error) {
      throw error.indexFile ? error : failure(url, false, error);
    });
  }

  /** The engine, once the meta file is loaded; a meta file that could not be fetched is
   * asked for again by the next search. */
  function load() {
    if (!loading) {
      var mine = fetchJson("meta.json").then(function (meta) {
        if (!window.JudgeSearchEngine) { // search-engine.js itself did not come
          throw failure("search-engine.js", false);
        }
        engine = new window.JudgeSearchEngine.Engine(meta, fetchJson);
        return engine;
      });
      loading = mine;
      mine.catch(function (error) {
        if (loading === mine) {
          loading = null;
        }
        if (error.absent) {
          missing();
        }
      });
    }
    return loading;
  }

  /** What the result of a row shows (in a file of engine.meta.block consecutive rows). */
  function fragment(row) {
    var size = engine.meta.block;
    var block = Math.floor((row - 1) / size);
    if (!fragments[block]) {
      var loading = fetchJson(lang + "/" + block.toString(16) + ".json");
      fragments[block] = loading;
      loading.catch(function () { // not kept: asked for again when next needed
        if (fragments[block] === loading) {
          delete fragments[block];
        }
      });
    }
    return fragments[block].then(function (items) {
      return items[(row - 1) % size];
    });
  }

  // ------------------------------------------------------------------ drawing the results

  /** `text` into `node` with the ranges `marks` (in code points) marked. */
  function marked(node, text, marks) {
    var chars = Array.from(text);
    var at = 0;
    marks.forEach(function (range) {
      node.appendChild(document.createTextNode(chars.slice(at, range[0]).join("")));
      var mark = document.createElement("mark");
      mark.textContent = chars.slice(range[0], range[1]).join("");
      node.appendChild(mark);
      at = range[1];
    });
    node.appendChild(document.createTextNode(chars.slice(at).join("")));
  }

  function draw(data, highlight) {
    var item = document.createElement("li");
    item.className = "result";
    item.setAttribute("data-id", data.id);
    item.setAttribute("data-kind", data.kind);
    var title = document.createElement("p");
    title.className = "result-title";
    var link = document.createElement("a");
    link.className = "result-link";
    link.href = new URL(data.href, home).pathname + new URL(data.href, home).hash;
    link.textContent = data.title || data.id;
    if (data.lang !== lang) {
      link.lang = data.lang;
    }
    title.appendChild(link);
    if (data.kind !== "ruling") {
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = strings["kind_" + data.kind];
      title.appendChild(document.createTextNode(" "));
      title.appendChild(kind);
    }
    item.appendChild(title);
    var answer = document.createElement("p");
    answer.className = "result-answer";
    if (data.lang !== lang) {
      answer.lang = data.lang;
    }
    var snippet = engine.snippet(data.text || "", highlight, data.lang === "en");
    marked(answer, snippet.text, snippet.marks);
    item.appendChild(answer);
    if (data.kind === "ruling" && (data.rules.length || data.basis === "official")) {
      var badges = document.createElement("p");
      badges.className = "badges";
      badges.setAttribute("aria-label", strings.ruleset);
      data.rules.forEach(function (set) {
        var badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = (strings.ruleset_names || {})[set] || set;
        badges.appendChild(badge);
        badges.appendChild(document.createTextNode(" "));
      });
      if (data.basis === "official") {
        // the ruling rests on official text: the label its page shows
        var official = document.createElement("span");
        official.className = "basis basis-official";
        official.textContent = strings.official;
        badges.appendChild(official);
      }
      item.appendChild(badges);
    }
    return item;
  }

  function drawFilters() {
    if (filtersDrawn || !engine || !filtersBox.open) {
      return;
    }
    filtersDrawn = true;
    fetchJson(lang + "/facets.json").then(function (facets) {
      FILTERS.forEach(function (filter) {
        var field = filter[0];
        var name = filter[1];
        var values = facets[field] || [];
        if (!values.length) {
          return;
        }
        var group = document.createElement("fieldset");
        group.setAttribute("data-filter", name);
        var legend = document.createElement("legend");
        legend.textContent = name;
        group.appendChild(legend);
        values.forEach(function (entry) {
          var label = document.createElement("label");
          var tick = document.createElement("input");
          tick.type = "checkbox";
          tick.name = name;
          tick.value = entry[0];
          tick.addEventListener("change", function () {
            chosen[field] = Array.prototype.map.call(
              group.querySelectorAll("input:checked"), function (t) {
                return t.value;
              });
            run(input.value, true);
          });
          var shown = field === "rules" ? (strings.ruleset_names || {})[entry[0]] || entry[1] :
            field === "basis" ? strings[entry[0]] || entry[1] : entry[1];
          label.appendChild(tick);
          label.appendChild(document.createTextNode(" " + shown + " "));
          var count = document.createElement("span");
          count.className = "n";
          count.textContent = entry[2];
          label.appendChild(count);
          group.appendChild(label);
        });
        filtersBox.appendChild(group);
      });
    }, function (error) {
      // closed again, to be fetched when next opened
      filtersDrawn = false;
      filtersBox.open = false;
      unreachable(error, true);
    });
  }
  filtersBox.addEventListener("toggle", drawFilters);

  /** The ticked filters as the query syntax's fields: any value of a filter, every filter. */
  function filters() {
    var out = [];
    FILTERS.forEach(function (filter) {
      var values = chosen[filter[0]] || [];
      if (values.length) {
        out.push({ t: "or", nodes: values.map(function (value) {
          return { t: "field", name: filter[0], value: value };
        }) });
      }
    });
    return out;
  }

  function describe(query, found) {
    var quoted = "“" + query.trim() + "”";
    if (!found.total) {
      return format(strings.none, { query: quoted });
    }
    if (found.corrections.length) {
      var corrected = query.trim();
      found.corrections.forEach(function (fix) {
        corrected = corrected.replace(fix[0], fix[1]);
      });
      return format(strings.corrected, { query: quoted, corrected: "“" + corrected + "”" });
    }
    if (found.words > 1 && !found.complete) {
      return strings.some_words;
    }
    return format(found.total === 1 ? strings.count_one : strings.count,
      { num: found.total, query: quoted });
  }

  function show(query, found, mine) {
    list.textContent = "";
    more.hidden = true;
    var drawn = 0;
    var said = query.trim() ? describe(query, found) : "";
    status.textContent = said;
    filtersBox.hidden = !query.trim();

    function next() {
      var slice = found.rows.slice(drawn, drawn + PAGE);
      drawn += slice.length;
      return Promise.all(slice.map(function (row) {
        return fragment(row[1]);
      })).then(function (datas) {
        if (mine !== generation) {
          return;
        }
        datas.forEach(function (data) {
          list.appendChild(draw(data, found.highlight));
        });
        more.hidden = drawn >= found.rows.length;
      }, function (error) {
        drawn -= slice.length; // the same results again on the next try
        throw error;
      });
    }
    more.onclick = function () {
      box.setAttribute("data-state", "busy");
      next().then(function () {
        if (mine === generation) {
          status.textContent = said;
          box.setAttribute("data-state", "done");
        }
      }, function (error) {
        if (mine !== generation) {
          return;
        }
        if (!error.indexFile) {
          throw error;
        }
        unreachable(error, true);
      });
    };
    return next();
  }

  var NOTHING = { rows: [], total: 0, complete: 0, words: 0, corrections: [],
    highlight: new Set() };

  function run(query, now) {
    window.clearTimeout(timer);
    var mine = ++generation;
    box.setAttribute("data-state", "busy");
    var started = window.performance.now();
    var go = function () {
      remember(query.trim());
      load().then(function () {
        if (!query.trim() && !filters().length) {
          return NOTHING;
        }
        return engine.search(query, lang, filters()).catch(function (error) {
          if (error instanceof window.JudgeSearchEngine.QueryError) {
            return NOTHING; // a query that cannot be read (or only common words) finds nothing
          }
          throw error;
        });
      }).then(function (found) {
        if (mine !== generation) {
          return null;
        }
        return show(query, found, mine).then(function () {
          if (mine !== generation) {
            return;
          }
          box.setAttribute("data-state", "done");
          box.setAttribute("data-query", query);
          box.dispatchEvent(new CustomEvent("judge:results", { detail: {
            query: query, ids: Array.prototype.map.call(list.children, function (li) {
              return li.getAttribute("data-id");
            }), total: found.total, ms: window.performance.now() - started } }));
        });
      }).catch(function (error) {
        if (!error || !error.indexFile) {
          throw error; // a fault of the code, not of the network
        }
        if (mine === generation) {
          unreachable(error, false);
        }
      });
    };
    if (now) {
      go();
    } else {
      timer = window.setTimeout(go, DEBOUNCE_MS);
    }
  }

  input.addEventListener("input", function () {
    run(input.value, false);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    run(input.value, true);
  });

  // for the benchmark and the tests: the ids of the results of a query, as drawn
  window.judgeSearch = { debounceMs: DEBOUNCE_MS };

  var query = new URLSearchParams(window.location.search).get("q") || "";
  load();
  if (query) {
    input.value = query;
    run(query, true);
  } else {
    input.focus();
    box.setAttribute("data-state", "idle");
  }
})();
