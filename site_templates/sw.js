// wixoss-judge's service worker: after a first visit the site works without a network.
// It keeps every page the judge opens and, for each language visited, that language's search
// (the search page, the list of every ruling, the glossary, the search index), so that at a
// venue without a network a judge can still read and search. Plain JavaScript, no library.
// `judge build` writes it to the site's root as sw.js, with this build's version in place of
// the marker below; docs/site.md, "Offline use", describes it.
"use strict";

//: The build's version: a hash of every other file of the site (judge/site/offline.py).
var VERSION = "__JUDGE_BUILD_VERSION__";
//: The languages of the site; each has a list of the files kept for it, offline/<lang>.json.
var LANGS = __JUDGE_LANGS__;
//: The Pyodide version the sandbox runs (judge/site/sandbox_build.py), or "none".
var PYODIDE = "__JUDGE_PYODIDE__";
//: The site's root folder (this file's folder): nothing outside it is ever touched.
var SCOPE = self.registration.scope;
//: Caches are named after the site's folder, so that two copies of the site on one host
//: keep apart, and the build's version: a new build's worker starts a new cache and deletes
//: the previous ones of this folder.
var PREFIX = "wixoss-judge " + new URL(SCOPE).pathname + " ";
var CACHE = PREFIX + VERSION;

// ---------------------------------------------------------------------- the cache rules
// The one place that says what is kept and how. A rule: `match(path, request)`, with `path`
// the address relative to the site's root (no query); `strategy`: "network" (the network's
// copy when there is one, stored; the stored one offline or when the server fails, a 5xx)
// or "cache" (the stored copy when
// there is one, else the network's, stored). "network" asks the server every time, past the
// browser's HTTP cache (`cache: "no-cache"`: a 304 when nothing changed), so that a rebuilt
// file is what a returning visitor gets on the first load: it is for every file whose name
// does not change with its content. "cache" is only for files that never change under their
// name: the pinned Pyodide. `cache` (optional): the
// name of a cache of its own, kept across builds as long as a rule names it (for large files
// that do not change with the build); without it the file goes in this build's cache. The
// first rule that matches decides; a request no rule matches is left to the browser. To keep
// more of the site offline, add a rule here (and a line in docs/site.md).
var RULES = [
  // the quiz's question bank (api/quiz/<lang>.json.gz), which the quiz page reads: kept like a
  // page once the quiz has been opened, so that it works offline
  { name: "quiz", strategy: "network", match: function (path) {
    return path.indexOf("api/quiz/") === 0;
  } },
  // the other downloads (api/: the database, the JSON) are for other tools: never kept
  { name: "pages", strategy: "network", match: function (path, request) {
    return path.indexOf("api/") !== 0 &&
      (request.mode === "navigate" || /(^|\/)$|\.html$/.test(path));
  } },
  { name: "assets", strategy: "network", match: function (path) {
    return path.indexOf("assets/") === 0;
  } },
  // the sandbox ("Try it"), kept after its first use so that it works offline: Pyodide in a
  // cache of its own, kept across builds while the pinned version (package-lock.json) stays;
  // the editor, the worker, this build's package zip and the rulings' files in this build's
  { name: "pyodide", strategy: "cache", cache: "pyodide-" + PYODIDE, match: function (path) {
    return path.indexOf("pyodide/") === 0;
  } },
  { name: "sandbox", strategy: "network", match: function (path) {
    return path.indexOf("sandbox/") === 0;
  } },
  // the search index (search-index/: one for every language) from the network, like a page,
  // so that a search moves to a rebuilt index on the first load; the stored copy offline
  { name: "search", strategy: "network", match: function (path) {
    return path.indexOf("search-index/") === 0;
  } },
];

function cacheName(rule) {
  return rule && rule.cache ? PREFIX + rule.cache : CACHE;
}

/** The address without its query and fragment: the key a file is stored under. */
function key(url) {
  return url.split("#")[0].split("?")[0];
}

/** The address relative to the site's root, or null when it is outside the site. */
function sitePath(url) {
  var address = key(url);
  return address.indexOf(SCOPE) === 0 ? address.slice(SCOPE.length) : null;
}

function ruleFor(path, request) {
  for (var i = 0; i < RULES.length; i++) {
    if (RULES[i].match(path, request)) {
      return RULES[i];
    }
  }
  return null;
}

/** The stored copy of an address, from this build's cache or a rule's own. */
function stored(url) {
  var address = key(url);
  // a cache is looked in only when it exists (opening it would create it empty)
  return cacheNames().reduce(function (found, name) {
    return found.then(function (response) {
      return response || existing(name).then(function (cache) {
        return cache ? cache.match(address) : undefined;
      });
    });
  }, Promise.resolve(undefined));
}

/** The cache `name` when it exists, else null. */
function existing(name) {
  return caches.has(name).then(function (exists) {
    return exists ? caches.open(name) : null;
  });
}

/** This build's cache and the rules' own: every cache this worker writes to. */
function cacheNames() {
  var names = [CACHE];
  RULES.forEach(function (rule) {
    if (names.indexOf(cacheName(rule)) < 0) {
      names.push(cacheName(rule));
    }
  });
  return names;
}

/** Keep a response (a complete one, from the site itself, not redirected). This build's
 * cache is made by the install (a rule's own cache when it is first written to): once a
 * newer build's worker has deleted it, this worker, still answering a request or two, must
 * not bring it back. */
function store(name, url, response) {
  if (!response || !response.ok || response.type !== "basic" || response.redirected) {
    return Promise.resolve();
  }
  return (name === CACHE ? existing(name) : caches.open(name)).then(function (cache) {
    return cache ? cache.put(key(url), response) : undefined;
  });
}

// ---------------------------------------------------------------------- answering requests

/** The request as the server must answer it, past the browser's HTTP cache: a file kept
 * there with an old date is checked, not taken as it is. (A reload that asks for more,
 * "reload" or "no-store", keeps its own.) */
function revalidated(request) {
  var stronger = request.cache === "reload" || request.cache === "no-store";
  return new Request(request, { cache: stronger ? request.cache : "no-cache" });
}

function fromNetwork(event, rule) {
  var request = event.request;
  return fetch(revalidated(request)).then(function (response) {
    if (response.status >= 500) {  // the server failed: the stored copy, when there is one
      return stored(request.url).then(function (kept) {
        return kept || response;
      });
    }
    event.waitUntil(store(cacheName(rule), request.url, response.clone()));
    return response;
  }, function (error) {
    return stored(request.url).then(function (response) {
      return response || (request.mode === "navigate" ? offline(request.url) : Promise.reject(error));
    });
  });
}

function fromCache(event, rule) {
  var request = event.request;
  return stored(request.url).then(function (response) {
    return response || fetch(request).then(function (fresh) {
      event.waitUntil(store(cacheName(rule), request.url, fresh.clone()));
      return fresh;
    });
  });
}

/** A page that was never stored, without a network: a ruling page leads to its answer in
 * the list of every ruling (kept with the language's search), any other page to the
 * language's "offline" page, which says what does work. */
function offline(url) {
  var path = sitePath(url) || "";
  var lang = path.split("/")[0];
  if (LANGS.indexOf(lang) < 0) {
    return Response.error();
  }
  var ruling = /^[^/]+\/rulings\/([^/]+)\/(index\.html)?$/.exec(path);
  var list = SCOPE + lang + "/rulings/";
  return (ruling ? stored(list) : Promise.resolve(undefined)).then(function (found) {
    if (found) {
      return Response.redirect(list + "#r-" + ruling[1], 302);
    }
    return stored(SCOPE + lang + "/offline/").then(function (page) {
      return page || Response.error();
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var path = sitePath(request.url);
  if (request.method !== "GET" || path === null) {
    return; // outside the site, or not a plain read: the browser's business
  }
  var rule = ruleFor(path, request);
  if (rule) {
    event.respondWith(rule.strategy === "cache" ? fromCache(event, rule) : fromNetwork(event, rule));
  }
});

// ---------------------------------------------------------------------- a language's search

//: How many files the worker fetches and stores at once for itself (a language's search is
//: hundreds of files, thousands for a large corpus; the pages it carries over to a new build;
//: the sandbox's files): all at once, Chromium refuses them (net::ERR_INSUFFICIENT_RESOURCES),
//: and the page's own requests, which pass through this worker, fail with them, leaving its
//: search unanswered. Below the browser's six connections to a host, so that the page's
//: requests always find one. One count for everything the worker keeps, however many
//: languages and pages it keeps at the same time.
var AT_ONCE = 4;
var free = AT_ONCE;
var queued = [];

/** `task()`, one file fetched and stored (a promise), once fewer than AT_ONCE of the worker's
 * own tasks run; what it gives. A task never waits for another task. */
function inTurn(task) {
  return new Promise(function (resolve) {
    if (free > 0) {
      free -= 1;
      resolve();
    } else {
      queued.push(resolve);
    }
  }).then(task).then(function (value) {
    release();
    return value;
  }, function (error) {
    release();
    throw error;
  });
}

/** A task of inTurn is over: the next waiting one starts. */
function release() {
  var next = queued.shift();
  if (next) {
    next();
  } else {
    free += 1;
  }
}

function manifest(lang) {
  return SCOPE + "offline/" + lang + ".json";
}

/** Keep the files of a language's search (offline/<lang>.json lists them, with a digest of
 * their bytes) in this build's cache, as the site now has them: when the list kept is not the
 * site's (a rebuild changed a page or the index while this worker stayed in control), they are
 * fetched again. The list is stored last, as the mark that the language is complete. Without
 * a network, what is kept stays. */
function keepLanguage(lang) {
  if (LANGS.indexOf(lang) < 0) {
    return Promise.resolve();
  }
  return existing(CACHE).then(function (cache) {
    return cache && cache.match(manifest(lang)).then(function (kept) {
      return fetch(manifest(lang), { cache: "no-cache" }).then(function (response) {
        if (!response.ok) {
          return undefined;
        }
        return Promise.all([kept ? kept.text() : null, response.clone().text()]).then(function (texts) {
          if (texts[0] === texts[1]) {
            return undefined;
          }
          return response.clone().json().then(function (list) {
            var failed = false; // then the files still waiting are not fetched
            return Promise.all(list.files.map(function (file) {
              return inTurn(function () {
                if (failed) {
                  return undefined;
                }
                var request = new Request(SCOPE + file, { cache: "no-cache" });
                return fetch(request).then(function (got) {
                  if (!got.ok) {
                    throw new Error(file + ": " + got.status);
                  }
                  return cache.put(request, got);
                });
              }).catch(function (error) {
                failed = true;
                throw error;
              });
            }));
          }).then(function () {
            return cache.put(manifest(lang), response);
          });
        });
      }, function (error) {
        if (!kept) {
          throw error;
        }
      });
    });
  });
}

/** A page the judge opened before this worker was in control (the first visit): store it
 * and its language's search. */
function visited(url) {
  var path = sitePath(url);
  if (path === null) {
    return Promise.resolve();
  }
  return stored(url).then(function (found) {
    return found || inTurn(function () {
      return fetch(key(url), { cache: "no-cache" }).then(function (response) {
        return store(CACHE, url, response);
      });
    });
  }).then(function () {
    return keepLanguage(path.split("/")[0]);
  });
}

/** Keep files of the site by their rules (the sandbox's, sent by sandbox/sandbox.js after
 * its first replay: the sandbox was perhaps loaded before this worker was in control). */
function keep(urls) {
  return Promise.all(urls.map(function (url) {
    var path = sitePath(url);
    var rule = path === null ? null : ruleFor(path, { mode: "no-cors" });
    if (!rule) {
      return undefined;
    }
    return stored(url).then(function (found) {
      var fresh = rule.strategy === "cache" ? "default" : "no-cache";
      return found || inTurn(function () {
        return fetch(key(url), { cache: fresh }).then(function (response) {
          return store(cacheName(rule), url, response);
        });
      });
    }).catch(function () {});
  }));
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "version" && event.source && event.source.postMessage) {
    event.source.postMessage({ type: "version", version: VERSION });
  }
  if (data.type === "keep" && Array.isArray(data.urls)) {
    event.waitUntil(keep(data.urls.filter(function (url) {
      return typeof url === "string";
    })).then(function () {
      if (event.source && event.source.postMessage) {
        event.source.postMessage({ type: "kept-sandbox" });
      }
    }));
  }
  if (data.type === "visit" && typeof data.url === "string") {
    var done = visited(data.url).then(function () {
      return true;
    }, function () {
      return false;
    });
    event.waitUntil(done.then(function (ok) {
      if (event.source && event.source.postMessage) {
        event.source.postMessage({ type: "kept", url: data.url, ok: ok });
      }
    }));
  }
});

// ---------------------------------------------------------------------- a new build

/** A new build's worker fetches again, into its own cache, what the previous build's kept:
 * the pages the judge opened and the languages' searches. Best effort: what fails is left. */
function carryOver() {
  return caches.keys().then(function (names) {
    var older = names.filter(function (name) {
      return name.indexOf(PREFIX) === 0 && name !== CACHE;
    });
    return Promise.all(older.map(function (name) {
      return caches.open(name).then(function (cache) {
        return cache.keys();
      });
    })).then(function (lists) {
      var pages = [];
      var langs = [];
      lists.forEach(function (requests) {
        requests.forEach(function (request) {
          var path = sitePath(request.url);
          if (path === null) {
            return;
          }
          var kept = /^offline\/([^/]+)\.json$/.exec(path);
          if (kept && langs.indexOf(kept[1]) < 0) {
            langs.push(kept[1]);
          } else if (/(^|\/)$|\.html$/.test(path) && pages.indexOf(request.url) < 0) {
            pages.push(request.url);
          }
        });
      });
      return Promise.all(langs.map(function (lang) {
        return keepLanguage(lang).catch(function () {});
      }).concat(pages.map(function (url) {
        return inTurn(function () {
          return fetch(url, { cache: "reload" }).then(function (response) {
            return store(CACHE, url, response);
          });
        }).catch(function () {});
      })));
    });
  });
}

// A new build's worker waits, as browsers make it, until no page of the site is open, then
// takes over (and takes any page not yet controlled). It does not skip the wait: taking over
// while a page is being opened by the previous worker can leave that navigation hanging for
// minutes in Chromium (issue 25), and nothing is gained by it: the previous worker already
// serves the rebuilt pages and index (network first, revalidated) and keeps a language's
// search as the site now lists it (keepLanguage).
/** Every language's "offline" page (a few kilobytes each), kept at the install: without a
 * network, a switch to a language never visited shows that page, in the site's style and the
 * language asked for, rather than the browser's error page. */
function keepOfflinePages() {
  return Promise.all(LANGS.map(function (lang) {
    var url = SCOPE + lang + "/offline/";
    return inTurn(function () {
      return fetch(url, { cache: "no-cache" }).then(function (response) {
        return store(CACHE, url, response);
      });
    }).catch(function () {});
  }));
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(carryOver).then(keepOfflinePages)
    .catch(function () {}));
});

self.addEventListener("activate", function (event) {
  var keep = cacheNames();
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PREFIX) === 0 && keep.indexOf(name) < 0;
    }).map(function (name) {
      return caches.delete(name);
    }));
  }).then(function () {
    return self.clients.claim();
  }));
});
