// The search page: Pagefind's search library on this language's index (<lang>/pagefind/),
// loaded from the site itself, and the results drawn here. The bundle is written by
// `judge build` (not with --no-search); see docs/site.md, "Search".
//
// A query is read as a judge types it: NFKC (full-width and half-width forms made one) and,
// for a query of kana and letters only, its katakana form too (りふれっしゅ finds リフレッシュ);
// a question's common words, Japanese endings and Chinese question phrases are left out;
// a single word is looked up with Pagefind, several each alone, the pages holding the most
// of them first, then by the sum of each word's score as a share of its best page's, with
// neighbouring words found near each other counting more; when nothing matches, a word
// close to a glossary name or alias is put in its place (refrsh: refresh). Each result
// shows the ruling's answer with the words found marked, and the rule sets as badges.
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
  var bundle = new URL(box.getAttribute("data-bundle"), window.location.href);
  var home = new URL("../", bundle); // the language's home, which result addresses start from

  //: Milliseconds between the last keystroke and the search (results follow within 150 ms).
  var DEBOUNCE_MS = 50;
  //: Results drawn at a time (each needs its fragment of the index: about 2 KB).
  var PAGE = 10;
  //: Pagefind's ranking: a word found in the title counts five times over (Pagefind's
  //: default), in the names and aliases of the terms a ruling is the main ruling of ten
  //: times, so that the bare term finds its main ruling first; in the answer twice.
  //: ("exact" lists the names a page is the first answer for: it only orders, below.)
  var RANKING = { metaWeights: { title: 10, explains: 10, answer: 2, exact: 0 } };
  //: Words apart at most that two neighbouring words of a query count as near on a page.
  var NEAR = 5;
  //: Characters of an answer shown in a result.
  var SNIPPET = 200;
  var CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  var HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  var HIRAGANA = /^[\u3041-\u309f]+$/;
  var KANA = /[\u3041-\u30ff]/;
  //: Chinese phrases that only make a question, left out wherever they are (longest first).
  var ZH_PHRASES = ["什么时候", "可不可以", "的时候", "怎么办", "怎么样", "会怎样", "为什么",
    "会不会", "能不能", "是不是", "有没有", "几张", "几次", "几个", "多少"];
  var STOP = {};
  [
    // English: the words of a question, not of its subject
    "a an the of to in on at by for from with and or is are was were be been being am do does " +
    "did doing what which who whom whose when where why how can could should would will shall " +
    "may might must if then than that this these those it its i me my we our you your he she " +
    "they them their there here as so about into onto happen happens happened happening get " +
    "gets got still also just any some many much have has had need needs",
    // Japanese: particles, endings and question words
    "の は が を に で と も へ や か な ね よ わ から まで より って て た だ です ます でしょ " +
    "ですか ますか でしょう でしょうか どう どうなる どうなり どうなります なる なり なります " +
    "なっ なった たら ば れる られる する し します した ある あり あります いる い こと もの " +
    "とき 時 場合 どの どこ いつ 何 なに なん なぜ 誰 どちら どれ という といった ください " +
    "ない なく なくて ても でも いい よい よろしい できる できます でき ん",
    // Chinese: particles and question words
    "的 了 是 吗 呢 吧 啊 在 和 与 或 及 把 被 对 从 到 要 就 也 都 还 这 那 这个 那个 一个 " +
    "有 没有 会 能 可以 怎么 怎样 怎么样 如何 什么 为什么 哪 哪个 谁 时 时候 如果 的话 请问 " +
    "几 多少 吗 么",
  ].join(" ").split(/\s+/).forEach(function (word) {
    STOP[word] = true;
  });
  var segmenter = (lang === "ja" || lang.indexOf("zh") === 0) && window.Intl && Intl.Segmenter
    ? new Intl.Segmenter(lang, { granularity: "word" }) : null;

  var pagefind = null; // the Pagefind module, once loaded
  var loading = null;
  var generation = 0; // the latest search: an older one that ends later is not drawn
  var timer = null;
  var terms = null; // the glossary's names and aliases, loaded for the first correction
  var filterNames = [strings.basis, strings.ruleset, strings.tag, strings.term];
  // a filter value as the page shows it: a rule set by its short name in this language
  // (the value itself, its id, is what a filter and a "rules:" query match)
  function shown(filter, value) {
    var names = filter === strings.ruleset ? strings.ruleset_names || {} : {};
    return names[value] || value;
  }
  var chosen = {}; // filter name -> values ticked
  var filtersDrawn = false;

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
    if (box.querySelector(".notice")) {
      return;
    }
    var note = document.createElement("p");
    note.className = "notice";
    note.textContent = box.getAttribute("data-missing");
    box.insertBefore(note, box.firstChild);
    box.setAttribute("data-state", "missing");
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

  // ------------------------------------------------------------------ reading the query

  /** NFKC, lower case, hiragana made katakana: how the index's folded copies are written. */
  function fold(text) {
    return text.normalize("NFKC").toLowerCase().replace(/[\u3041-\u3096]/g, function (c) {
      return String.fromCharCode(c.charCodeAt(0) + 0x60);
    });
  }

  /** The words of a query; Japanese and Chinese cut as Pagefind cuts them in the browser.
   * A word of hiragana right after one that ends in a kanji is that word's inflection or
   * particle (使|え, 終|わり: okurigana), as is a single hiragana character anywhere (っ,
   * ゅ): both are left out, as the rulings' words are found by their kanji. */
  function words(text, withEndings) {
    var out = [];
    text.split(/\s+/).forEach(function (chunk) {
      if (!chunk) {
        return;
      }
      if (segmenter && CJK.test(chunk)) {
        var previous = "";
        Array.from(segmenter.segment(chunk)).forEach(function (piece) {
          var word = piece.segment;
          var ending = HIRAGANA.test(word) &&
            (word.length === 1 || HAN.test(previous.charAt(previous.length - 1)));
          previous = word;
          if (piece.isWordLike && (withEndings || !ending)) {
            out.push(word);
          }
        });
        return;
      }
      chunk = chunk.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
      if (chunk) {
        out.push(chunk);
      }
    });
    return out;
  }

  /** The query as it is looked up: NFKC, lower case, without the katakana middle dot
   * (ライフ・バースト is written ライフバースト) and, in a query of Han characters without
   * kana, without the phrases that only make a Chinese question (怎么办, 会怎样, 几张: the
   * words Pagefind would cut them into are not all common words). */
  function plain(query) {
    var text = query.normalize("NFKC").toLowerCase().replace(/[\u30fb\uff65]/g, "").trim();
    if (HAN.test(text) && !KANA.test(text)) {
      ZH_PHRASES.forEach(function (phrase) {
        text = text.split(phrase).join(" ");
      });
    }
    return text.replace(/\s+/g, " ").trim();
  }

  /** What to look up: the words without the common ones (all of them if nothing is left),
   * and the query's variants (its katakana form, for a query without ideographs, which
   * then comes first); and the words to mark in the results. */
  function read(query) {
    var text = plain(query);
    var all = words(text, true);
    var kept = words(text, false).filter(function (w) {
      return !STOP[w];
    });
    var variants = [kept];
    var folded = fold(text);
    if (folded !== text && !HAN.test(text)) {
      var foldedWords = words(folded, false).filter(function (w) {
        return !STOP[w];
      });
      if (foldedWords.length) {
        // hiragana that the segmenter cuts into single characters only: its katakana form
        variants = kept.length ? [foldedWords, kept] : [foldedWords];
        kept = kept.length ? kept : foldedWords;
      }
    }
    if (!kept.length) {
      kept = all;
      variants = [kept];
    }
    // marked: the query's own words and the pieces of two characters or more
    var marks = [];
    [text, folded].forEach(function (form) {
      form.split(/\s+/).forEach(function (chunk) {
        if (chunk && !STOP[chunk]) {
          marks.push(chunk);
        }
      });
    });
    variants.forEach(function (variant) {
      variant.forEach(function (word) {
        if (word.length > 1 || !CJK.test(word) || all.length === 1) {
          marks.push(word);
        }
      });
    });
    return { words: kept, variants: variants, marks: marks };
  }

  // ------------------------------------------------------------------ searching

  function load() {
    if (!loading) {
      loading = import(new URL("pagefind.js", bundle).href).then(function (module) {
        return module.options({
          basePath: bundle.pathname,
          baseUrl: home.pathname,
          noWorker: true, // one request less: the search itself takes a few milliseconds
          excerptLength: 24,
          ranking: RANKING,
        }).then(function () {
          return module.init();
        }).then(function () {
          pagefind = module;
          return module;
        });
      });
      loading.catch(missing);
    }
    return loading;
  }

  function pagefindFilters() {
    var out = {};
    Object.keys(chosen).forEach(function (name) {
      if (chosen[name].length) {
        out[name] = { any: chosen[name] };
      }
    });
    return out;
  }

  /** Pagefind's results for the words (every word must be on the page). */
  function lookUp(list) {
    if (!list.length) {
      return Promise.resolve([]);
    }
    return pagefind.search(list.join(" "), { filters: pagefindFilters() }).then(function (found) {
      return found ? found.results : [];
    });
  }

  /** The pages holding every word of one of the variants: those of the first variant
   * first, each variant's by score. */
  function everyWord(variants) {
    return Promise.all(variants.map(lookUp)).then(function (lists) {
      var seen = {};
      var out = [];
      lists.forEach(function (results, v) {
        results.forEach(function (r) {
          if (!seen[r.id]) {
            seen[r.id] = true;
            out.push({ result: r, score: r.score, variant: v });
          }
        });
      });
      return out.sort(function (a, b) {
        return a.variant - b.variant || b.score - a.score;
      });
    });
  }

  /** Which of two pages ranks first for a query of several words: the one holding more of
   * the words, then the one with the higher sum of its scores for each word. */
  function before(a, b) {
    return b.share - a.share || b.score - a.score;
  }

  /** Each word alone, in each variant: the pages holding most of the words first, then by
   * the sum of their scores for each word (a page's best variant counts). A page's score for
   * a word is its share of the best page's score for that word, from 0 to 1: Pagefind's
   * scores of different words are not on one scale (a word that starts many words of the
   * index, or many titles, scores tens of times higher than another), so without this one
   * word of a question would decide the order alone. Two words next to each other in the
   * query count half a word more where the page has them at most NEAR words apart (as
   * judge search does: "hand limit" ranks "the hand limit" above "hand ... limit"). */
  function someWords(variants) {
    return Promise.all(variants.map(function (variant) {
      return Promise.all(variant.map(function (word) {
        return lookUp([word]);
      })).then(function (perWord) {
        var byId = {};
        perWord.forEach(function (results, i) {
          var top = results.reduce(function (most, r) {
            return Math.max(most, r.score);
          }, 0) || 1;
          results.forEach(function (r) {
            var entry = byId[r.id] || (byId[r.id] = { result: r, score: 0, hits: 0, at: {} });
            entry.score += r.score / top;
            entry.hits += 1;
            entry.complete = entry.hits === variant.length;
            entry.share = entry.hits / variant.length;
            entry.at[i] = r.words || [];
          });
        });
        Object.keys(byId).forEach(function (id) {
          var at = byId[id].at;
          for (var i = 1; i < variant.length; i++) {
            if (at[i - 1] && at[i] && near(at[i - 1], at[i])) {
              byId[id].score += 0.5;
            }
          }
        });
        return byId;
      });
    })).then(function (maps) {
      var best = {};
      var order = [];
      maps.forEach(function (byId) {
        Object.keys(byId).forEach(function (id) {
          var entry = byId[id];
          var held = best[id];
          if (!held) {
            order.push(id);
          }
          if (!held || before(entry, held) < 0) {
            best[id] = entry;
          }
        });
      });
      return order.map(function (id) {
        return best[id];
      }).sort(before);
    });
  }

  /** Whether two lists of word positions on a page hold two at most NEAR apart. */
  function near(a, b) {
    return a.some(function (x) {
      return b.some(function (y) {
        return Math.abs(x - y) <= NEAR;
      });
    });
  }

  function distance(a, b, limit) {
    // Damerau-Levenshtein (adjacent transpositions), stopping early above limit
    if (Math.abs(a.length - b.length) > limit) {
      return limit + 1;
    }
    var rows = [];
    for (var i = 0; i <= a.length; i++) {
      rows.push([i]);
    }
    for (var j = 1; j <= b.length; j++) {
      rows[0][j] = j;
    }
    for (i = 1; i <= a.length; i++) {
      var best = limit + 1;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          d = Math.min(d, rows[i - 2][j - 2] + 1);
        }
        rows[i][j] = d;
        best = Math.min(best, d);
      }
      if (best > limit) {
        return limit + 1;
      }
    }
    return rows[a.length][b.length];
  }

  function loadTerms() {
    if (!terms) {
      terms = fetch(new URL("terms.json", bundle).href).then(function (response) {
        return response.ok ? response.json() : [];
      }).then(function (names) {
        var out = [];
        names.forEach(function (name) {
          out.push({ name: name, folded: fold(name) });
          // each word of a name of several words, too
          name.split(/\s+/).forEach(function (part) {
            if (part !== name && part.length > 3) {
              out.push({ name: part, folded: fold(part) });
            }
          });
        });
        return out;
      }).catch(function () {
        return [];
      });
    }
    return terms;
  }

  /** The query with each doubtful word that is close to a glossary name or alias (and is
   * not one itself) replaced by the closest; null when there is none. */
  function correct(list, doubtful) {
    return loadTerms().then(function (names) {
      var changed = false;
      var out = list.map(function (word) {
        if (doubtful.indexOf(word) < 0) {
          return word;
        }
        var folded = fold(word);
        var limit = CJK.test(folded) ? (folded.length >= 3 ? 1 : 0) :
          folded.length >= 7 ? 2 : folded.length >= 4 ? 1 : 0;
        if (!limit) {
          return word;
        }
        var best = null;
        var bestDistance = limit + 1;
        for (var i = 0; i < names.length; i++) {
          if (names[i].folded === folded) {
            return word;
          }
          var d = distance(folded, names[i].folded, limit);
          if (d < bestDistance) {
            best = names[i].name;
            bestDistance = d;
          }
        }
        if (best === null) {
          return word;
        }
        changed = true;
        return best;
      });
      return changed ? out.join(" ") : null;
    });
  }

  /** The pages for the words: for one word (in each variant) Pagefind's own ranking; for
   * several, the pages holding most of them first (Pagefind alone finds only the pages
   * that hold every word, and a question's words are seldom all on one page). */
  function pages(asked) {
    var several = asked.variants.some(function (variant) {
      return variant.length > 1;
    });
    return several ? someWords(asked.variants) : everyWord(asked.variants);
  }

  /** The index data of the first results (their fragments: address, metadata, text). */
  function withData(found) {
    return Promise.all(found.results.slice(0, PAGE).map(function (entry) {
      return entry.result.data();
    })).then(function (datas) {
      found.datas = datas;
      return found;
    });
  }

  /** The words no first result holds: Pagefind looks a word it does not know up by its
   * longest known beginning (assasin: as), so a misspelt word still finds pages. */
  function unheld(list, datas) {
    var texts = datas.map(function (data) {
      return fold(data.content || "");
    });
    return list.filter(function (word) {
      var folded = fold(word);
      var stem = /^[a-z]{5,}$/.test(folded) ? folded.replace(/(ing|ed|es|s)$/, "") : folded;
      return (CJK.test(folded) ? folded.length > 1 : folded.length > 3) &&
        !texts.some(function (text) {
          return text.indexOf(stem) >= 0;
        });
    });
  }

  /** Everything the page shows for a query: {results, datas, note, words, exact}. */
  function find(query) {
    var asked = read(query);
    var exact = fold(query).replace(/\u30fb/g, "").trim().split(/\s+/).join(" ");
    if (!asked.words.length) {
      return Promise.resolve({ results: [], datas: [], note: null, words: [], exact: exact });
    }
    return pages(asked).then(function (results) {
      var partial = results.length && results[0].complete === false;
      return withData({ results: results, note: partial ? "some" : null,
        words: asked.marks, exact: exact });
    }).then(function (found) {
      var doubtful = found.results.length ? unheld(asked.words, found.datas) : asked.words;
      if (!doubtful.length) {
        return found;
      }
      // when no result holds any of the words, they are Pagefind's guesses: none
      var none = doubtful.length === asked.words.length ?
        { results: [], datas: [], note: null, words: asked.marks, exact: exact } : found;
      // a word close to a glossary name or alias, and found nowhere: put the name instead
      return correct(asked.words, doubtful).then(function (corrected) {
        if (!corrected) {
          return none;
        }
        var again = read(corrected);
        return pages(again).then(function (results) {
          if (!results.length) {
            return none;
          }
          return withData({ results: results, note: "corrected", corrected: corrected,
            words: again.marks, exact: fold(corrected) });
        });
      });
    });
  }

  /** The first results, with the pages that are the first answer for the query as a whole
   * (a term's name or alias: its main ruling, then its glossary entry) put first. */
  function firstAnswers(entries, datas, exact) {
    var rank = datas.map(function (data, i) {
      var names = ((data.meta && data.meta.exact) || "").split("|");
      var first = names.indexOf(exact) >= 0 ? (place(data.url).kind === "ruling" ? 0 : 1) : 2;
      return { entry: entries[i], data: data, first: first, i: i };
    });
    rank.sort(function (a, b) {
      return a.first - b.first || a.i - b.i;
    });
    return rank;
  }

  // ------------------------------------------------------------------ drawing the results

  /** The result's id and its address on the site, from its address in the index:
   * /<lang>/rulings/<id>/ is a ruling; /<lang>/glossary/t-<id>/, processing/kind-<kind>/ and
   * timeline/rs-<id>/ are sections of those pages (judge/site/searchindex.py). */
  function place(url) {
    var path = url.indexOf(home.pathname) === 0 ? url.slice(home.pathname.length) : url;
    var section = /^(glossary|processing|timeline)\/((t|kind|rs)-[^/]+)\/$/.exec(path);
    if (section) {
      var kind = { t: "term", kind: "processing", rs: "change" }[section[3]];
      return { id: kind + ":" + section[2].slice(section[3].length + 1), kind: kind,
        href: home.pathname + section[1] + "/#" + section[2] };
    }
    var ruling = /^rulings\/([^/]+)\/$/.exec(path);
    return { id: ruling ? ruling[1] : path, kind: "ruling", href: url };
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  /** A pattern for the words found: a word of letters also ends otherwise (refresh:
   * refreshes), a word of kana also in the other kana. */
  function marker(list) {
    var parts = [];
    list.forEach(function (word) {
      if (CJK.test(word)) {
        var katakana = word.replace(/[\u3041-\u3096]/g, function (c) {
          return String.fromCharCode(c.charCodeAt(0) + 0x60);
        });
        var hiragana = word.replace(/[\u30a1-\u30f6]/g, function (c) {
          return String.fromCharCode(c.charCodeAt(0) - 0x60);
        });
        [word, katakana, hiragana].forEach(function (form, i, forms) {
          if (forms.indexOf(form) === i) {
            parts.push(escapeRegExp(form));
          }
        });
      } else if (word.length > 1) {
        var stem = word.length > 4 ? word.replace(/(ing|ed|es|s)$/, "") : word;
        parts.push("(?<![\\p{L}\\p{N}])" + escapeRegExp(stem) + "[\\p{L}\\p{N}]*");
      }
    });
    // the longest first, so that a word is marked whole
    parts.sort(function (a, b) {
      return b.length - a.length;
    });
    return parts.length ? new RegExp(parts.join("|"), "giu") : null;
  }

  /** ``text`` into ``node``, shortened around the first word found, the words marked;
   * returns whether a word was marked. */
  function marked(node, text, pattern) {
    text = text.replace(/\s+/g, " ").trim();
    var matches = [];
    if (pattern) {
      pattern.lastIndex = 0;
      var m;
      while ((m = pattern.exec(text)) !== null) {
        if (!m[0].length) {
          pattern.lastIndex += 1;
          continue;
        }
        matches.push([m.index, m.index + m[0].length]);
      }
    }
    var start = 0;
    var end = text.length;
    if (text.length > SNIPPET * 1.6) {
      if (matches.length && matches[0][0] > SNIPPET - 60) {
        // from the start of the sentence (or else the word) that holds the first word found
        var before = text.slice(Math.max(0, matches[0][0] - 120), matches[0][0]);
        var cut = Math.max(before.lastIndexOf("。"), before.lastIndexOf(". "),
          before.lastIndexOf("；"), before.lastIndexOf("; "));
        if (cut < 0) {
          cut = before.lastIndexOf(" ");
        }
        start = matches[0][0] - before.length + (cut >= 0 ? cut + 1 : 0);
        while (start < text.length && text.charAt(start) === " ") {
          start += 1;
        }
      }
      end = Math.min(text.length, start + SNIPPET);
    }
    if (start > 0) {
      node.appendChild(document.createTextNode("… "));
    }
    var at = start;
    matches.forEach(function (range) {
      if (range[0] < at || range[1] > end) {
        return;
      }
      node.appendChild(document.createTextNode(text.slice(at, range[0])));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(range[0], range[1]);
      node.appendChild(mark);
      at = range[1];
    });
    node.appendChild(document.createTextNode(text.slice(at, end) + (end < text.length ? " …" : "")));
    return matches.some(function (range) {
      return range[0] >= start && range[1] <= end;
    });
  }

  /** Pagefind's excerpt (text with <mark>), copied as text and marks only, without the
   * pieces of terms' names the index holds after them (重构 构: judge/site/searchindex.py). */
  function excerpt(node, html) {
    var holder = document.createElement("template");
    holder.innerHTML = html;
    var text = "";
    Array.prototype.forEach.call(holder.content.childNodes, function (child) {
      text += child.nodeName === "MARK" ? "\u0001" + child.textContent + "\u0002" :
        child.textContent;
    });
    var tokens = text.split(/(\s+)/);
    var previous = "";
    var kept = [];
    tokens.forEach(function (token) {
      var bare = token.replace(/[\u0001\u0002]/g, "");
      if (/^\s*$/.test(bare)) {
        kept.push(token);
        return;
      }
      if (HAN.test(bare) && previous.length > bare.length && HAN.test(previous) &&
          previous.slice(-bare.length) === bare) {
        kept.push(token.replace(/[^\u0001\u0002]/g, "")); // its marks stay balanced
        return;
      }
      previous = bare;
      kept.push(token);
    });
    text = kept.join("").replace(/\s{2,}/g, " ");
    text.split(/(\u0001[^\u0002]*\u0002)/).forEach(function (part) {
      if (part.charAt(0) === "\u0001") {
        var mark = document.createElement("mark");
        mark.textContent = part.slice(1, -1);
        node.appendChild(mark);
      } else if (part) {
        node.appendChild(document.createTextNode(part.replace(/[\u0001\u0002]/g, "")));
      }
    });
  }

  function draw(entry, data, pattern) {
    var where = place(data.url);
    var item = document.createElement("li");
    item.className = "result";
    item.setAttribute("data-id", where.id);
    item.setAttribute("data-kind", where.kind);
    var title = document.createElement("p");
    title.className = "result-title";
    var link = document.createElement("a");
    link.className = "result-link";
    link.href = where.href;
    link.textContent = (data.meta && data.meta.title) || where.id;
    title.appendChild(link);
    if (where.kind !== "ruling") {
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = strings["kind_" + where.kind];
      title.appendChild(document.createTextNode(" "));
      title.appendChild(kind);
    }
    item.appendChild(title);
    var answer = document.createElement("p");
    answer.className = "result-answer";
    var found = marked(answer, (data.meta && data.meta.answer) || "", pattern);
    item.appendChild(answer);
    if (!found && data.excerpt && data.excerpt.indexOf("<mark>") >= 0) {
      // the words are elsewhere on the page (in another language's name of a term, say)
      var where2 = document.createElement("p");
      where2.className = "result-excerpt";
      excerpt(where2, data.excerpt);
      item.appendChild(where2);
    }
    var sets = (data.filters && data.filters[strings.ruleset]) || [];
    var basis = (data.filters && data.filters[strings.basis]) || [];
    if (sets.length || basis.length) {
      var badges = document.createElement("p");
      badges.className = "badges";
      badges.setAttribute("aria-label", strings.ruleset);
      sets.forEach(function (set) {
        var badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = shown(strings.ruleset, set);
        badges.appendChild(badge);
        badges.appendChild(document.createTextNode(" "));
      });
      if (basis.indexOf(strings.official) >= 0) {
        // the ruling rests on official text: the label its page shows
        var mark = document.createElement("span");
        mark.className = "basis basis-official";
        mark.textContent = strings.official;
        badges.appendChild(mark);
      }
      item.appendChild(badges);
    }
    return item;
  }

  function drawFilters() {
    if (filtersDrawn || !pagefind) {
      return;
    }
    filtersDrawn = true;
    pagefind.filters().then(function (all) {
      filterNames.forEach(function (name) {
        var values = all[name] || {};
        var keys = Object.keys(values).filter(function (v) {
          return values[v] > 0;
        }).sort();
        if (!keys.length) {
          return;
        }
        var group = document.createElement("fieldset");
        group.setAttribute("data-filter", name);
        var legend = document.createElement("legend");
        legend.textContent = name;
        group.appendChild(legend);
        keys.forEach(function (value) {
          var label = document.createElement("label");
          var tick = document.createElement("input");
          tick.type = "checkbox";
          tick.name = name;
          tick.value = value;
          tick.addEventListener("change", function () {
            chosen[name] = Array.prototype.map.call(
              group.querySelectorAll("input:checked"), function (t) {
                return t.value;
              });
            run(input.value, true);
          });
          label.appendChild(tick);
          label.appendChild(document.createTextNode(" " + shown(name, value) + " "));
          var count = document.createElement("span");
          count.className = "n";
          count.textContent = values[value];
          label.appendChild(count);
          group.appendChild(label);
        });
        filtersBox.appendChild(group);
      });
    });
  }
  filtersBox.addEventListener("toggle", drawFilters);

  function show(query, found, mine) {
    list.textContent = "";
    more.hidden = true;
    var pattern = marker(found.words);
    var shown = 0;
    var total = found.results.length;
    if (!query.trim()) {
      status.textContent = "";
    } else if (!total) {
      status.textContent = format(strings.none, { query: "“" + query.trim() + "”" });
    } else if (found.note === "corrected") {
      status.textContent = format(strings.corrected, { query: "“" + query.trim() + "”",
        corrected: "“" + found.corrected + "”" });
    } else if (found.note === "some") {
      status.textContent = strings.some_words;
    } else {
      status.textContent = format(total === 1 ? strings.count_one : strings.count,
        { num: total, query: "“" + query.trim() + "”" });
    }
    filtersBox.hidden = !query.trim();

    function next() {
      var first = shown === 0;
      var slice = found.results.slice(shown, shown + PAGE);
      shown += slice.length;
      return (first ? Promise.resolve(found.datas) : Promise.all(slice.map(function (entry) {
        return entry.result.data();
      }))).then(function (datas) {
        if (mine !== generation) {
          return;
        }
        var ordered = first ? firstAnswers(slice, datas, found.exact) :
          datas.map(function (data, i) {
            return { entry: slice[i], data: data };
          });
        ordered.forEach(function (item) {
          list.appendChild(draw(item.entry, item.data, pattern));
        });
        more.hidden = shown >= total;
      });
    }
    more.onclick = function () {
      box.setAttribute("data-state", "busy");
      next().then(function () {
        box.setAttribute("data-state", "done");
      });
    };
    return next();
  }

  function run(query, now) {
    window.clearTimeout(timer);
    var mine = ++generation;
    box.setAttribute("data-state", "busy");
    var started = window.performance.now();
    var go = function () {
      remember(query.trim());
      load().then(function () {
        return find(query);
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
            }), ms: window.performance.now() - started } }));
        });
      }).catch(function (error) {
        if (pagefind) {
          throw error;
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
    if (pagefind && input.value.trim()) {
      pagefind.preload(read(input.value).words.join(" ")); // fetch its part of the index now
    }
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
