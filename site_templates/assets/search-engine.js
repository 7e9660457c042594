// The site's half of the one search definition (docs/search.md, "The search, defined once"):
// the same query analysis and the same ranking as `judge search`, over the index files
// `judge build` writes into search-index/ (judge/search/static.py). Every value that decides
// what a query finds (weights, numerals, spellings, common words, typo limits) comes from the
// index's meta file, which holds judge/search/definition.toml as JSON; the code below mirrors
// judge/search/analysis.py (the whoosh analyser chain), query.py (the query language, the
// glossary, the common words), plan.py (query plans) and engine.py (the ranking, which is
// SQLite FTS5's bm25() computed here from the postings). tests/test_search_parity.py runs
// this file in Node on thousands of queries and compares its results with judge search's.
//
// It runs in the browser (the search page, site_templates/assets/search.js) and in Node; it
// touches no page: a `load(path)` function given to Engine fetches index files as objects.
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory();
  } else {
    root.JudgeSearchEngine = factory();
  }
}(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // ================================================================ helpers

  /** Python's str.isspace() characters (and what \s matches in its re module). */
  var SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029" +
    "\\u202f\\u205f\\u3000";
  var IS_SPACE = new RegExp("^[" + SPACE + "]$");
  var NON_SPACE_RUN = new RegExp("[^" + SPACE + "]+", "g");
  var TRIM = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");

  function isSpace(c) {
    return IS_SPACE.test(c);
  }
  function strip(text) {
    return text.replace(TRIM, "");
  }
  /** The code points of a string (Python indexes strings by code point). */
  function chars(text) {
    return Array.from(text);
  }
  function nfkc(text) {
    return text.normalize("NFKC");
  }
  function has(object, key) {
    return Object.prototype.hasOwnProperty.call(object, key);
  }
  function isAsciiAlpha(text) {
    return /^[A-Za-z]+$/.test(text);
  }
  /** Python's sort of strings: by code point. */
  function compareStrings(a, b) {
    var x = chars(a);
    var y = chars(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      var d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) {
        return d;
      }
    }
    return x.length - y.length;
  }

  // ================================================================ analysis (analysis.py)

  var CJK = "\\u3041-\\u3096\\u309d\\u309e\\u30a1-\\u30fa\\u30fc-\\u30ff\\u31f0-\\u31ff" +
    "\\u3005\\u3006\\u3007\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff66-\\uff9f";
  var TOKEN_SOURCE = "[0-9a-z\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff]+|[" + CJK + "]+";
  var CJK_CHAR = new RegExp("[" + CJK + "]");
  var CJK_START = new RegExp("^[" + CJK + "]");
  var RUN_END = "_";
  var PREFIX = "*";

  function tokenRuns(text) {
    return text.match(new RegExp(TOKEN_SOURCE, "g")) || [];
  }
  /** [run, start, end] of each run of TOKEN_PATTERN, in code points. */
  function tokenRunsAt(folded) {
    var out = [];
    var pattern = new RegExp(TOKEN_SOURCE, "g");
    var m;
    while ((m = pattern.exec(folded)) !== null) {
      var start = chars(folded.slice(0, m.index)).length;
      out.push([m[0], start, start + chars(m[0]).length]);
    }
    return out;
  }
  function isCjk(text) {
    return CJK_CHAR.test(text);
  }

  function kanaFold(text) {
    var out = "";
    for (var i = 0; i < text.length; i++) {
      var code = text.charCodeAt(i);
      if (code >= 0x30A1 && code <= 0x30F6) {
        out += String.fromCharCode(code - 0x60);
      } else if (code === 0x30FD || code === 0x30FE) {
        out += String.fromCharCode(code - 0x60);
      } else if (code !== 0x30FB) {
        out += text.charAt(i);
      }
    }
    return out;
  }

  function Analysis(def) {
    var fold = def.fold;
    var english = def.english;
    var self = this;
    var numeralClass = Object.keys(fold.numerals).join("");
    var counted = new RegExp("(?<=" + escapeRegExp(fold.ordinal) + ")[" + numeralClass + "]|[" +
      numeralClass + "](?=[" + escapeRegExp(fold.counters) + "])", "g");
    var ordinal = new RegExp(escapeRegExp(fold.ordinal) + "(?=[0-9])", "g");
    // a numeral and counter spelt in hiragana (にかいめ), longest spellings first
    function alternatives(words) {
      return Object.keys(words).sort(function (a, b) {
        return b.length - a.length || (a < b ? -1 : a > b ? 1 : 0);
      }).map(escapeRegExp).join("|");
    }
    var kanaCounted = new RegExp("(" + alternatives(fold.kana_numerals) + ")(" +
      alternatives(fold.kana_counters) + ")", "g");
    var cache = new Map();

    this.digits = function (text) {
      return text.replace(kanaCounted, function (all, numeral, counter) {
        var written = fold.kana_numerals[numeral] + fold.kana_counters[counter];
        return " ".repeat(all.length - written.length) + written;
      }).replace(counted, function (c) {
        return fold.numerals[c];
      }).replace(ordinal, " ");
    };
    // a dash typed after kana for the prolonged sound mark (analysis.long_marks)
    var longMark = new RegExp("(?<=[\\u3041-\\u3096\\u30a1-\\u30fa\\u30fc])[" +
      escapeRegExp(fold.long_marks) + "](?![0-9])", "g");
    this.longMarks = function (text) {
      return text.replace(longMark, "\u30fc");
    };
    this.foldWidth = function (text) {
      return kanaFold(self.longMarks(nfkc(text).toLowerCase()));
    };
    /** NFKC, lower case, katakana to hiragana, no middle dots, counted numerals as digits. */
    this.fold = function (text) {
      return self.digits(self.foldWidth(text));
    };

    var izeWords = new Set(english.ize_words);
    this.british = function (word) {
      var i;
      if (has(english.british, word)) {
        return english.british[word];
      }
      for (i = 0; i < english.our_stems.length; i++) {
        var stem = english.our_stems[i];
        if (word.indexOf(stem) === 0) {
          return stem.slice(0, -2) + "our" + word.slice(stem.length);
        }
      }
      for (i = 0; i < english.double_l.length; i++) {
        var verb = english.double_l[i];
        if (word.indexOf(verb) === 0 &&
            english.double_l_endings.indexOf(word.slice(verb.length)) >= 0) {
          return verb + "l" + word.slice(verb.length);
        }
      }
      if (english.ize_endings.some(function (e) { return endsWith(word, e); }) &&
          !izeWords.has(word)) {
        return word.replace(/(?<=[a-z]{2})iz(e|es|ed|ing|ation|ations|er|ers)$/,
          function (_, end) { return "is" + end; });
      }
      if (english.yze_endings.some(function (e) { return endsWith(word, e); })) {
        return word.replace(/yz(e|es|ed|ing)$/, function (_, end) { return "ys" + end; });
      }
      return word;
    };
    /** British spelling, then Porter's stem (whoosh's), for a word of ASCII letters. */
    this.latinToken = function (word) {
      // the few words Porter makes another word (one: on), and the ordinals written with a
      // digit (2nd: second), have their own token
      if (has(english.stems, word)) {
        return english.stems[word];
      }
      if (!isAsciiAlpha(word)) {
        return word;
      }
      var known = cache.get(word);
      if (known === undefined) {
        known = porter(self.british(word));
        cache.set(word, known);
      }
      return known;
    };

    /** The analyser chain: chunks, folded, numerals, runs, stems, CJK pairs. */
    this.tokens = function (text, query) {
      var out = [];
      var pending = "";
      // the last character of a query's longer run: its end is looked for only where another
      // token follows in the same text (CJKFilter)
      var ending = "";
      (text.match(NON_SPACE_RUN) || []).forEach(function (chunk) {
        tokenRuns(self.digits(self.foldWidth(chunk))).forEach(function (run) {
          var token = self.latinToken(run);
          if (pending || ending) {
            out.push((pending || ending) + RUN_END);
            pending = ending = "";
          }
          if (!CJK_START.test(token)) {
            out.push(token);
            return;
          }
          var cs = chars(token);
          if (query && cs.length === 1) {
            pending = token;
            return;
          }
          for (var i = 0; i < cs.length - 1; i++) {
            out.push(cs[i] + cs[i + 1]);
          }
          if (query) {
            ending = cs[cs.length - 1];
          } else {
            out.push(cs[cs.length - 1] + RUN_END);
          }
        });
      });
      if (pending) {
        out.push(pending + PREFIX);
      }
      return out;
    };
    this.queryTokens = function (text) {
      return self.tokens(text, true);
    };
    this.indexTokens = function (text) {
      return self.tokens(text, false);
    };

    /** fold() with where each character of the result starts and ends in the text (in code
     * points). */
    this.normalize = function (text) {
      var folded = self.fold(text);
      var cs = chars(text);
      var plain = /^[\x00-\x7f]*$/.test(text) || (chars(folded).length === cs.length &&
        text.indexOf("\u30fb") < 0 && nfkc(text) === text &&
        chars(text.toLowerCase()).length === cs.length);
      var starts = [];
      var ends = [];
      var i;
      if (plain) {
        for (i = 0; i < cs.length; i++) {
          starts.push(i);
          ends.push(i + 1);
        }
        return [folded, starts, ends];
      }
      var out = [];
      for (i = 0; i < cs.length; i++) {
        var piece = chars(self.foldWidth(cs[i]));
        if (piece.length && (piece[0] === "\u3099" || piece[0] === "\u309a") && out.length) {
          var composed = (out[out.length - 1] + piece[0]).normalize("NFC");
          if (chars(composed).length === 1) {
            out[out.length - 1] = kanaFold(composed);
            ends[ends.length - 1] = i + 1;
            piece = piece.slice(1);
          }
        }
        for (var k = 0; k < piece.length; k++) {
          out.push(piece[k]);
          starts.push(i);
          ends.push(i + 1);
        }
      }
      return [self.digits(self.longMarks(out.join(""))), starts, ends];
    };

    this.editDistance = editDistance;
    this.typoLimit = function (word) {
      var n = chars(word).length;
      if (n < def.typos.min_length) {
        return 0;
      }
      return n < def.typos.long ? def.typos.edits[0] : def.typos.edits[1];
    };
  }

  function endsWith(word, end) {
    return word.length >= end.length && word.slice(word.length - end.length) === end;
  }
  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\\-]/g, "\\$&");
  }

  /** The script class of a character: hira, kata, han, latin or other (analysis.script). */
  function script(c) {
    var code = c.codePointAt(0);
    if (code >= 0x3041 && code <= 0x309F) {
      return "hira";
    }
    if ((code >= 0x30A0 && code <= 0x30FF) || (code >= 0x31F0 && code <= 0x31FF)) {
      return "kata";
    }
    if ((code >= 0x3400 && code <= 0x4DBF) || (code >= 0x4E00 && code <= 0x9FFF) ||
        (code >= 0xF900 && code <= 0xFAFF) || code === 0x3005 || code === 0x3006 ||
        code === 0x3007) {
      return "han";
    }
    if (/^[\p{L}\p{N}]$/u.test(c)) {
      return "latin";
    }
    return "other";
  }

  function scriptRuns(text, longMarks) {
    var out = [];
    chars(longMarks(nfkc(text))).forEach(function (c) {
      var kind = script(c);
      if (kind === "other") {
        out.push(["other", ""]);
        return;
      }
      var last = out[out.length - 1];
      if (last && (last[0] === kind || (c === "ー" && (last[0] === "hira" || last[0] === "kata")))) {
        last[1] += c;
      } else {
        out.push([kind, c]);
      }
    });
    return out.filter(function (r) {
      return r[0] !== "other";
    });
  }

  function editDistance(a, b, limit) {
    a = chars(a);
    b = chars(b);
    if (Math.abs(a.length - b.length) > limit) {
      return limit + 1;
    }
    var prev2 = [];
    var prev = [];
    var i;
    var j;
    for (j = 0; j <= b.length; j++) {
      prev.push(j);
    }
    for (i = 1; i <= a.length; i++) {
      var row = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var value = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          value = Math.min(value, prev2[j - 2] + 1);
        }
        row.push(value);
        best = Math.min(best, value);
      }
      if (best > limit) {
        return limit + 1;
      }
      prev2 = prev;
      prev = row;
    }
    return prev[b.length] <= limit ? prev[b.length] : limit + 1;
  }

  // whoosh.lang.porter, as whoosh writes it (its patterns are matched at the word's start).
  var STEP2 = { ational: "ate", tional: "tion", enci: "ence", anci: "ance", izer: "ize",
    bli: "ble", alli: "al", entli: "ent", eli: "e", ousli: "ous", ization: "ize",
    ation: "ate", ator: "ate", alism: "al", iveness: "ive", fulness: "ful", ousness: "ous",
    aliti: "al", iviti: "ive", biliti: "ble", logi: "log" };
  var STEP3 = { icate: "ic", ative: "", alize: "al", iciti: "ic", ical: "ic", ful: "",
    ness: "" };
  var C_SEQ = "[^aeiouy]+";
  var V_SEQ = "[aeiou]+";
  var MGR0 = new RegExp("^(" + C_SEQ + ")?" + V_SEQ + C_SEQ);
  var MEQ1 = new RegExp("^(" + C_SEQ + ")?" + V_SEQ + C_SEQ + "(" + V_SEQ + ")?$");
  var MGR1 = new RegExp("^(" + C_SEQ + ")?" + V_SEQ + C_SEQ + V_SEQ + C_SEQ);
  var S_V = new RegExp("^(" + C_SEQ + ")?[aeiouy]");
  var C_V = new RegExp("^" + C_SEQ + "[aeiouy][^aeiouwxy]$");
  var ED_ING = /^(.*)(ed|ing)$/;
  var AT_BL_IZ = /^(at|bl|iz)$/;
  var STEP1B = /^([^aeiouylsz])\1$/;
  var STEP2_RE = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
  var STEP3_RE = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
  var STEP4_1 = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
  var STEP4_2 = /^(.+?)(s|t)(ion)$/;
  var STEP5 = /^(.+?)e$/;

  function porter(w) {
    if (w.length < 3) {
      return w;
    }
    var firstIsY = w.charAt(0) === "y";
    if (firstIsY) {
      w = "Y" + w.slice(1);
    }
    var m;
    var stem;
    if (endsWith(w, "s")) {
      if (endsWith(w, "sses")) {
        w = w.slice(0, -2);
      } else if (endsWith(w, "ies")) {
        w = w.slice(0, -2);
      } else if (w.charAt(w.length - 2) !== "s") {
        w = w.slice(0, -1);
      }
    }
    if (endsWith(w, "eed")) {
      if (MGR0.test(w.slice(0, -3))) {
        w = w.slice(0, -1);
      }
    } else {
      m = ED_ING.exec(w);
      if (m) {
        stem = m[1];
        if (S_V.test(stem)) {
          w = stem;
          if (AT_BL_IZ.test(w)) {
            w += "e";
          } else if (STEP1B.test(w)) {
            w = w.slice(0, -1);
          } else if (C_V.test(w)) {
            w += "e";
          }
        }
      }
    }
    if (endsWith(w, "y")) {
      stem = w.slice(0, -1);
      if (S_V.test(stem)) {
        w = stem + "i";
      }
    }
    m = STEP2_RE.exec(w);
    if (m && MGR0.test(m[1])) {
      w = m[1] + STEP2[m[2]];
    }
    m = STEP3_RE.exec(w);
    if (m && MGR0.test(m[1])) {
      w = m[1] + STEP3[m[2]];
    }
    m = STEP4_1.exec(w);
    if (m) {
      if (MGR1.test(m[1])) {
        w = m[1];
      }
    } else {
      m = STEP4_2.exec(w);
      if (m && MGR1.test(m[1] + m[2])) {
        w = m[1] + m[2];
      }
    }
    m = STEP5.exec(w);
    if (m) {
      stem = m[1];
      if (MGR1.test(stem) || (MEQ1.test(stem) && !C_V.test(stem))) {
        w = stem;
      }
    }
    if (endsWith(w, "ll") && MGR1.test(w)) {
      w = w.slice(0, -1);
    }
    if (firstIsY) {
      w = "y" + w.slice(1);
    }
    return w;
  }

  // ================================================================ the query (query.py)

  var FIELDS = ["tag", "rules", "term", "kind", "id", "basis"];
  var FIELD_ALIASES = { tags: "tag", rule: "rules", ruleset: "rules", terms: "term",
    kinds: "kind", type: "kind" };
  var KINDS = ["ruling", "term", "processing", "change"];
  var BASES = ["official", "community"];
  var OPERATORS = ["AND", "OR", "NOT"];
  var QUOTES = { "\"": "\"", "“": "”", "「": "」", "『": "』" };
  var FIELD = /^([A-Za-z][A-Za-z_-]*):([\s\S]*)$/;
  var EXAMPLE = { basis: "official", tag: "refresh", rules: "2014-07", term: "trash",
    kind: "term", id: "refresh-steps" };

  function QueryError(message) {
    this.name = "QueryError";
    this.message = message;
  }
  QueryError.prototype = Object.create(Error.prototype);

  function sanitize(text) {
    return chars(text).map(function (c) {
      var code = c.codePointAt(0);
      if (/^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]$/u.test(c)) {
        if (code < 0x100) {
          return "\\x" + ("0" + code.toString(16)).slice(-2);
        }
        if (code < 0x10000) {
          return "\\u" + ("000" + code.toString(16)).slice(-4);
        }
        return "\\U" + ("0000000" + code.toString(16)).slice(-8);
      }
      return c;
    }).join("");
  }
  function quote(text) {
    return "'" + sanitize(text) + "'";
  }

  // nodes: {t: "text", text, phrase, fragment} {t: "field", name, value} {t: "expand", text,
  // term} {t: "not", node} {t: "and", nodes, soft} {t: "or", nodes}
  function Text(text, phrase, fragment) {
    return { t: "text", text: text, phrase: !!phrase, fragment: !!fragment };
  }

  function show(node) {
    if (node.t === "text") {
      return node.phrase ? "\"" + node.text + "\"" : node.text;
    }
    if (node.t === "field") {
      return node.name + ":" + node.value;
    }
    if (node.t === "expand") {
      return node.text + "→" + node.term;
    }
    if (node.t === "not") {
      return "NOT " + show(node.node);
    }
    var joiner = node.t === "or" ? " OR " : node.soft ? " " : " AND ";
    return "(" + node.nodes.map(show).join(joiner) + ")";
  }

  function quoted(query, i) {
    var close = QUOTES[query[i]];
    var end = query.indexOf(close, i + 1);
    if (end < 0) {
      throw new QueryError("the quote " + query[i] + " at character " + (i + 1) +
        " is never closed");
    }
    var text = strip(query.slice(i + 1, end).join(""));
    if (!text) {
      throw new QueryError("the quotes at character " + (i + 1) + " hold nothing");
    }
    return [text, end + 1];
  }

  function lex(text) {
    var query = chars(text);
    var out = [];
    var i = 0;
    var n = query.length;
    while (i < n) {
      var c = query[i];
      if (isSpace(c)) {
        i += 1;
      } else if (c === "(" || c === ")") {
        out.push({ kind: c, text: c });
        i += 1;
      } else if (has(QUOTES, c)) {
        var q = quoted(query, i);
        i = q[1];
        out.push({ kind: "phrase", text: q[0] });
      } else if (c === "-" && i + 1 < n && !isSpace(query[i + 1]) && query[i + 1] !== "-") {
        out.push({ kind: "-", text: c });
        i += 1;
      } else if (c === "+" && i + 1 < n && !isSpace(query[i + 1])) {
        i += 1;
      } else {
        var j = i;
        while (j < n && !isSpace(query[j]) && query[j] !== "(" && query[j] !== ")" &&
               !has(QUOTES, query[j])) {
          j += 1;
        }
        var word = query.slice(i, j).join("");
        i = j;
        var match = FIELD.exec(word);
        if (match) {
          var name = match[1].toLowerCase();
          name = has(FIELD_ALIASES, name) ? FIELD_ALIASES[name] : name;
          if (FIELDS.indexOf(name) < 0) {
            throw new QueryError("unknown field " + quote(match[1]) + " in " + quote(word) +
              " (valid: " + FIELDS.join(", ") + ")");
          }
          var value = match[2];
          if (!value && i < n && has(QUOTES, query[i])) {
            var v = quoted(query, i);
            value = v[0];
            i = v[1];
          }
          if (!strip(value)) {
            throw new QueryError(name + ": needs a value, e.g. " + name + ":" + EXAMPLE[name]);
          }
          out.push({ kind: "field", text: name, value: strip(value) });
        } else if (OPERATORS.indexOf(word) >= 0) {
          out.push({ kind: "op", text: word });
        } else {
          out.push({ kind: "word", text: word });
        }
      }
    }
    return out;
  }

  function Parser(toks) {
    this.toks = toks;
    this.i = 0;
  }
  Parser.prototype.peek = function () {
    return this.i < this.toks.length ? this.toks[this.i] : null;
  };
  Parser.prototype.take = function () {
    return this.toks[this.i++];
  };
  Parser.prototype.parse = function () {
    var node = this.orExpr();
    if (this.peek() !== null) {
      throw new QueryError("a ')' has no matching '('");
    }
    return node;
  };
  Parser.prototype.orExpr = function () {
    var nodes = [this.andExpr("")];
    var tok;
    while ((tok = this.peek()) !== null && tok.kind === "op" && tok.text === "OR") {
      this.take();
      nodes.push(this.andExpr("OR"));
    }
    return nodes.length === 1 ? nodes[0] : { t: "or", nodes: nodes };
  };
  Parser.prototype.andExpr = function (after) {
    var nodes = [];
    var explicit = false;
    var tok;
    while ((tok = this.peek()) !== null && !(tok.kind === ")" ||
           (tok.kind === "op" && tok.text === "OR"))) {
      if (tok.kind === "op" && tok.text === "AND") {
        this.take();
        explicit = true;
        if (!nodes.length) {
          throw new QueryError("'AND' needs a search term before it");
        }
        var nxt = this.peek();
        if (nxt === null || nxt.kind === ")" ||
            (nxt.kind === "op" && (nxt.text === "AND" || nxt.text === "OR"))) {
          throw new QueryError("'AND' needs a search term after it");
        }
        continue;
      }
      nodes.push(this.unary());
    }
    if (!nodes.length) {
      if (after) {
        throw new QueryError("'" + after + "' needs a search term after it");
      }
      tok = this.peek();
      if (tok !== null && tok.kind === "op") {
        throw new QueryError("'" + tok.text + "' needs a search term before it");
      }
      if (tok !== null && tok.kind === ")") {
        throw new QueryError("a ')' has no matching '(' or the parentheses are empty");
      }
      throw new QueryError("the query is empty");
    }
    return nodes.length === 1 ? nodes[0] : { t: "and", nodes: nodes, soft: !explicit };
  };
  Parser.prototype.unary = function () {
    var tok = this.take();
    if ((tok.kind === "op" && tok.text === "NOT") || tok.kind === "-") {
      var nxt = this.peek();
      if (nxt === null || nxt.kind === ")" || (nxt.kind === "op" && nxt.text !== "NOT")) {
        throw new QueryError("'" + tok.text + "' needs a search term after it");
      }
      return { t: "not", node: this.unary() };
    }
    if (tok.kind === "(") {
      var node = this.orExpr();
      var close = this.peek();
      if (close === null || close.kind !== ")") {
        throw new QueryError("a '(' is never closed");
      }
      this.take();
      return node;
    }
    if (tok.kind === "field") {
      return { t: "field", name: tok.text, value: tok.value };
    }
    if (tok.kind === "phrase") {
      return Text(tok.text, true);
    }
    return Text(tok.text);
  };

  function parse(query) {
    var text = strip(nfkc(query));
    if (!text) {
      throw new QueryError("the query is empty");
    }
    return new Parser(lex(text)).parse();
  }

  // ---------------------------------------------------------------- the glossary

  function Glossary(data, analysis) {
    var self = this;
    this.analysis = analysis;
    this.terms = {};
    data.terms.forEach(function (t) {
      self.terms[t[0]] = { id: t[0], names: t[1], main: t[2] };
    });
    this.latin = new Map();
    this.latinLang = new Map();
    this.words = new Set();
    this.longestLatin = 0;
    data.latin.forEach(function (entry) {
      var key = entry[0].join(" ");
      self.latin.set(key, entry[1]);
      self.latinLang.set(key, entry[2]);
      self.longestLatin = Math.max(self.longestLatin, entry[0].length);
      entry[0].forEach(function (w) {
        self.words.add(w);
      });
    });
    this.cjk = new Map();
    this.cjkLang = new Map();
    this.longestCjk = 0;
    data.cjk.forEach(function (entry) {
      self.cjk.set(entry[0], entry[1]);
      self.cjkLang.set(entry[0], entry[2]);
      self.longestCjk = Math.max(self.longestCjk, chars(entry[0]).length);
    });
  }
  /** The tokens of the Latin words of a text, joined by spaces (query.latin_key). */
  Glossary.prototype.key = function (text) {
    var a = this.analysis;
    return tokenRuns(a.fold(text)).filter(function (r) {
      return !isCjk(r);
    }).map(a.latinToken).join(" ");
  };
  Glossary.prototype.cjkKey = function (text) {
    return tokenRuns(this.analysis.fold(text)).join("");
  };
  Glossary.prototype.resolve = function (text) {
    if (has(this.terms, text)) {
      return this.terms[text];
    }
    var folded = this.analysis.fold(text);
    if (has(this.terms, folded)) {
      return this.terms[folded];
    }
    var id = isCjk(text) ? this.cjk.get(this.cjkKey(text)) : this.latin.get(this.key(text));
    return id ? this.terms[id] : null;
  };
  Glossary.prototype.langOf = function (text) {
    if (isCjk(text)) {
      return this.cjkLang.get(this.cjkKey(text)) || "";
    }
    return this.latinLang.get(this.key(text)) || "";
  };

  function and(nodes, soft) {
    return nodes.length === 1 ? nodes[0] : { t: "and", nodes: nodes, soft: soft };
  }

  function expand(node, glossary) {
    if (node.t === "and") {
      return and(expandSequence(node.nodes, glossary), node.soft);
    }
    if (node.t === "or") {
      return { t: "or", nodes: node.nodes.map(function (n) { return expand(n, glossary); }) };
    }
    if (node.t === "not") {
      return { t: "not", node: expand(node.node, glossary) };
    }
    if (node.t === "text") {
      return and(expandSequence([node], glossary), true);
    }
    return node;
  }

  /** The most words written apart that are looked for together as a Japanese or Chinese
   * glossary name (query.JOINED_WORDS). */
  var JOINED_WORDS = 4;

  /** The longest run of plain words from nodes[i] that spells a glossary name:
   * [how many words, term id] (query._named_run). */
  function namedRun(nodes, i, glossary) {
    var cjk = nodes[i].t === "text" && isCjk(nodes[i].text);
    var most = cjk ? JOINED_WORDS : Math.max(glossary.longestLatin, 1);
    var match = 0;
    var termId = "";
    var run = [];
    for (var j = i; j < Math.min(nodes.length, i + most); j++) {
      var nxt = nodes[j];
      if (nxt.t !== "text" || nxt.phrase || (!cjk && isCjk(nxt.text))) {
        break;
      }
      run.push(nxt.text);
      var found = cjk ? (j > i ? glossary.cjk.get(glossary.cjkKey(run.join(""))) : undefined) :
        glossary.latin.get(glossary.key(run.join(" ")));
      if (found) {
        match = j + 1 - i;
        termId = found;
      }
    }
    return [match, termId];
  }

  function expandSequence(nodes, glossary) {
    var out = [];
    var i = 0;
    while (i < nodes.length) {
      var node = nodes[i];
      if (node.t !== "text") {
        out.push(expand(node, glossary));
        i += 1;
        continue;
      }
      if (node.phrase) {
        var term = glossary.resolve(node.text);
        out.push(term ? { t: "expand", text: node.text, term: term.id } : node);
        i += 1;
        continue;
      }
      var named = namedRun(nodes, i, glossary);
      if (named[0]) {
        out.push({ t: "expand", text: nodes.slice(i, i + named[0]).map(function (n) {
          return n.text;
        }).join(" "), term: named[1] });
        i += named[0];
        continue;
      }
      Array.prototype.push.apply(out, expandWord(node.text, glossary));
      i += 1;
    }
    return out;
  }

  /** The runs of a folded word where glossary names are looked for, each with the position
   * of each of its characters: a number beside a CJK run (nothing but spaces between) joins
   * it (query._segments). */
  function segments(foldedChars, runs) {
    var out = [];
    var joins = false;
    runs.forEach(function (r, i) {
      var run = r[0];
      var at = [];
      for (var k = r[1]; k < r[2]; k++) {
        at.push(k);
      }
      var digits = /^[0-9]+$/.test(run);
      var gap = foldedChars.slice(runs[Math.max(i - 1, 0)][2], r[1]).join("");
      if (i && joins && /^ *$/.test(gap) &&
          ((digits && isCjk(out[out.length - 1][0])) || isCjk(run))) {
        var last = out[out.length - 1];
        out[out.length - 1] = [last[0] + run, last[1].concat(at)];
      } else {
        out.push([run, at]);
      }
      joins = digits || isCjk(run);
    });
    return out;
  }

  /** Whether wordChars[start:end] is hiragana as typed right after a Han character: a
   *  verb's inflection (the えな of 使えない), where no glossary name is looked for. */
  function inflection(wordChars, start, end) {
    var typed = chars(nfkc(wordChars.slice(start, end).join("")));
    var before = chars(nfkc(wordChars.slice(0, start).join("")));
    return typed.length > 0 && before.length > 0 && script(before[before.length - 1]) === "han" &&
      typed.every(function (c) { return script(c) === "hira"; });
  }

  function expandWord(word, glossary) {
    var a = glossary.analysis;
    var norm = a.normalize(word);
    var folded = norm[0];
    var starts = norm[1];
    var ends = norm[2];
    var runs = tokenRunsAt(folded);
    if (runs.length <= 1 && !isCjk(folded)) {
      return [Text(word)];
    }
    var whole = runs.map(function (r) { return r[0]; }).join("");
    if (isCjk(whole) && glossary.cjk.has(whole)) {
      return [{ t: "expand", text: word, term: glossary.cjk.get(whole) }];
    }
    var found = [];
    var foldedChars = chars(folded);
    var wordChars = chars(word);
    segments(foldedChars, runs).forEach(function (seg) {
      var run = seg[0];
      var at = seg[1];
      if (!isCjk(run)) {
        var id = chars(run).length > 1 ? glossary.latin.get(glossary.key(run)) : undefined;
        if (id) {
          found.push([at[0], at[at.length - 1] + 1, id]);
        }
        return;
      }
      var cs = chars(run);
      var i = 0;
      while (i < cs.length) {
        var hit = false;
        for (var size = Math.min(glossary.longestCjk, cs.length - i); size > 1; size--) {
          var termId = glossary.cjk.get(cs.slice(i, i + size).join(""));
          if (termId && !inflection(wordChars, starts[at[i]], ends[at[i + size - 1]])) {
            found.push([at[i], at[i + size - 1] + 1, termId]);
            i += size;
            hit = true;
            break;
          }
        }
        if (!hit) {
          i += 1;
        }
      }
    });
    if (!found.length) {
      return [Text(word)];
    }
    var foldedLength = chars(folded).length;
    function original(start, end) {
      return end > start ? wordChars.slice(starts[start], ends[end - 1]).join("") : "";
    }
    var pieces = [];
    var pos = 0;
    found.forEach(function (f) {
      var start = f[0];
      while (start > pos && foldedChars[start - 1] === " ") {
        start -= 1;  // the ordinal or kana the fold made spaces belong to the name
      }
      var rest = original(pos, start);
      if (strip(rest)) {
        pieces.push(Text(strip(rest), false, true));
      }
      pieces.push({ t: "expand", text: original(start, f[1]), term: f[2] });
      pos = f[1];
    });
    var rest = original(pos, foldedLength);
    if (strip(rest)) {
      pieces.push(Text(strip(rest), false, true));
    }
    return pieces;
  }

  function correct(node, fix) {
    var fixes = [];
    function walk(n) {
      if (n.t === "text" && !n.phrase) {
        var better = fix(n.text);
        if (better && better !== n.text) {
          fixes.push([n.text, better]);
          return Text(better);
        }
        return n;
      }
      if (n.t === "not") {
        return { t: "not", node: walk(n.node) };
      }
      if (n.t === "and") {
        return { t: "and", nodes: n.nodes.map(walk), soft: n.soft };
      }
      if (n.t === "or") {
        return { t: "or", nodes: n.nodes.map(walk) };
      }
      return n;
    }
    return [walk(node), fixes];
  }

  /** Whether `text` (folded) is two Han characters (query.han_pair). */
  function hanPair(text) {
    var c = chars(text);
    return c.length === 2 && script(c[0]) === "han" && script(c[1]) === "han";
  }

  /**
   * The pair of `pairs` ([pair, results holding it] in code-point order) that differs from
   * `pair` in exactly one character: the one in most results, then the first; null when there
   * is none (query.suggest_han).
   */
  function suggestHan(pair, pairs, unknown) {
    var p = chars(pair);
    var slips = [unknown(p[0]), unknown(p[1])];
    if (!slips[0] && !slips[1]) {
      return null;
    }
    var best = null;
    for (var i = 0; i < pairs.length; i++) {
      var c = chars(pairs[i][0]);
      var same = [c[0] === p[0], c[1] === p[1]];
      if (same[0] !== same[1] && slips[same[0] ? 1 : 0] &&
          (best === null || pairs[i][1] > best[1])) {
        best = pairs[i];
      }
    }
    return best ? best[0] : null;
  }

  /** Whether `text` (folded) is kana only (query.kana_piece). */
  function kanaPiece(text) {
    var c = chars(text);
    return c.length > 0 && c.every(function (ch) {
      var k = script(ch);
      return k === "hira" || k === "kata";
    });
  }

  /** The closest glossary form in kana within the typo limit (query.suggest_kana). */
  function suggestKana(piece, keys, typos) {
    var limit = chars(piece).length < typos.long ? typos.edits[0] : typos.edits[1];
    var best = null;
    keys.forEach(function (key) {
      if (key === piece) {
        return;
      }
      var d = editDistance(piece, key, limit);
      if (d <= limit && (best === null || d < best[0] ||
          (d === best[0] && compareStrings(key, best[1]) < 0))) {
        best = [d, key];
      }
    });
    return best ? best[1] : null;
  }

  /** `word` cut into [is katakana, run] pieces (query.katakana_runs). */
  function katakanaRuns(word) {
    var out = [];
    chars(word).forEach(function (c) {
      var kata = script(c) === "kata";
      if (out.length && out[out.length - 1][0] === kata) {
        out[out.length - 1][1] += c;
      } else {
        out.push([kata, c]);
      }
    });
    return out;
  }

  /** Hiragana written in katakana (query.katakana). */
  function katakana(text) {
    return chars(text).map(function (c) {
      var code = c.codePointAt(0);
      return code >= 0x3041 && code <= 0x3096 ? String.fromCodePoint(code + 0x60) : c;
    }).join("");
  }

  /** The plain words of a refined query that are pairs of Han characters (folded). */
  function hanPieces(node, fold, out) {
    if (node.t === "text" && !node.phrase) {
      var folded = fold(node.text);
      if (hanPair(folded)) {
        out.push(folded);
      }
    } else if (node.t === "not") {
      hanPieces(node.node, fold, out);
    } else if (node.t === "and" || node.t === "or") {
      node.nodes.forEach(function (n) { hanPieces(n, fold, out); });
    }
    return out;
  }

  /** The words a query's typo correction may look at: the plain words of the parsed query. */
  function plainWords(node, out) {
    if (node.t === "text" && !node.phrase) {
      out.push(node.text);
    } else if (node.t === "not") {
      plainWords(node.node, out);
    } else if (node.t === "and" || node.t === "or") {
      node.nodes.forEach(function (n) { plainWords(n, out); });
    }
    return out;
  }

  // ---------------------------------------------------------------- common words

  function Words(def, analysis) {
    function byLength(list) {
      return Array.from(new Set(list)).sort(function (a, b) {
        return chars(b).length - chars(a).length || compareStrings(a, b);
      });
    }
    this.a = analysis;
    this.enStop = new Set(def.english.stop);
    // question words looked for as what they ask for (who: player), query.EN_HINTS etc.
    this.enHints = new Map(Object.entries(def.english.hints || {}));
    this.jaHints = new Map(Object.entries(def.japanese.hints || {}));
    this.zhHints = Object.entries(def.chinese.hints || {}).sort(function (a, b) {
      return compareStrings(a[0], b[0]);
    });
    this.jaStop = byLength(def.japanese.stop);
    this.jaStopSet = new Set(def.japanese.stop);
    this.jaPassive = def.japanese.passive;
    this.jaHanStop = new Set(def.japanese.han_stop);
    this.zhStop = byLength(def.chinese.stop);
    this.zhLeading = new Set(chars(def.chinese.leading));
    this.zhTrailing = new Set(chars(def.chinese.trailing));
    this.zhWhole = new Set(def.chinese.whole);
    this.pairsFrom = def.cjk.pairs_from;
  }

  Words.prototype.refine = function (node, han) {
    var self = this;
    if (node.t === "text") {
      var pieces = this.pieces(node, han);
      if (!pieces.length) {
        return null;
      }
      return pieces.length === 1 ? pieces[0] : { t: "and", nodes: pieces, soft: true };
    }
    if (node.t === "and") {
      var out = [];
      var before = null;
      node.nodes.forEach(function (child) {
        var passive = node.soft ? self.passiveAfter(before, child) : null;
        before = child;
        if (passive) {
          out.push(passive);
        }
        var done = self.refine(child, han);
        if (done === null) {
          return;
        }
        if (node.soft && done.t === "and" && done.soft) {
          Array.prototype.push.apply(out, done.nodes);
        } else {
          out.push(done);
        }
      });
      if (!out.length) {
        return null;
      }
      return out.length === 1 ? out[0] : { t: "and", nodes: out, soft: node.soft };
    }
    if (node.t === "or") {
      var kept = node.nodes.map(function (c) { return self.refine(c, han); })
        .filter(function (d) { return d !== null; });
      if (!kept.length) {
        return null;
      }
      return kept.length === 1 ? kept[0] : { t: "or", nodes: kept };
    }
    if (node.t === "not") {
      var inner = this.refine(node.node, han);
      return inner !== null ? { t: "not", node: inner } : null;
    }
    return node;
  };

  /** The phrase of a verb (a katakana or kanji run) and the passive that the hiragana run
   * after it starts with (query._passive), or null. */
  Words.prototype.passive = function (kind, run, after, following) {
    if ((kind === "kata" || kind === "han") && after === "hira" &&
        following.indexOf(this.jaPassive) === 0) {
      return Text(run + this.jaPassive, true);
    }
    return null;
  };

  /** The passive phrase of a glossary name or word and the Japanese piece after it
   * (query._passive_after), or null. */
  Words.prototype.passiveAfter = function (before, node) {
    if (node.t !== "text" || node.phrase || !node.fragment || before === null ||
        (before.t !== "text" && before.t !== "expand") ||
        (before.t === "text" && before.phrase)) {
      return null;
    }
    var runs = scriptRuns(before.text, this.a.longMarks);
    var following = scriptRuns(node.text, this.a.longMarks);
    if (!runs.length || !following.length) {
      return null;
    }
    var last = runs[runs.length - 1];
    return this.passive(last[0], last[1], following[0][0], following[0][1]);
  };

  Words.prototype.pieces = function (node, han) {
    var self = this;
    if (node.phrase) {
      return [node];
    }
    if (!isCjk(node.text)) {
      var words = tokenRuns(this.a.fold(node.text));
      if (words.some(function (w) { return !self.enStop.has(w); })) {
        return [node];
      }
      return words.filter(function (w) { return self.enHints.has(w); }).map(function (w) {
        return Text(self.enHints.get(w));
      });
    }
    var runs = scriptRuns(node.text, this.a.longMarks);
    var kinds = new Set(runs.map(function (r) { return r[0]; }));
    var mixed = node.fragment || kinds.size > 1;
    var out = [];
    var previous = "";
    runs.forEach(function (r, i) {
      var kind = r[0];
      var run = r[1];
      var after = previous;
      previous = kind;
      var passive = i + 1 < runs.length ?
        self.passive(kind, run, runs[i + 1][0], runs[i + 1][1]) : null;
      if (kind === "latin") {
        if (!self.enStop.has(self.a.fold(run))) {
          out.push(Text(run));
        } else if (self.enHints.has(self.a.fold(run))) {
          out.push(Text(self.enHints.get(self.a.fold(run))));
        }
      } else if (kind === "kata") {
        out.push(Text(run));
        if (passive) {
          out.push(passive);
        }
      } else if (kind === "hira") {
        if (after === "han") {
          return;
        }
        var rest = mixed ? self.stripJa(run) : (self.jaStopSet.has(run) ? "" : run);
        if (chars(rest).length >= (mixed ? 3 : 2)) {
          out.push(Text(rest));
        }
      } else {
        if (han !== "zh-Hans" && self.jaHanStop.has(run)) {
          if (self.jaHints.has(run)) {
            out.push(Text(self.jaHints.get(run)));
          }
          return;
        }
        (han === "ja" ? [run] : self.stripZh(run, han)).forEach(function (piece) {
          self.hanPieces(piece).forEach(function (p) { out.push(Text(p)); });
        });
        if (han !== "ja") {
          self.zhHints.forEach(function (h) {
            if (run.indexOf(h[0]) >= 0) {
              out.push(Text(h[1]));
            }
          });
        }
        if (passive) {
          out.push(passive);
        }
      }
    });
    return out;
  };

  Words.prototype.stripJa = function (run) {
    var changed = true;
    while (run && changed) {
      changed = false;
      for (var i = 0; i < this.jaStop.length; i++) {
        var stop = this.jaStop[i];
        if (run.indexOf(stop) === 0) {
          run = run.slice(stop.length);
          changed = true;
          break;
        }
        if (endsWith(run, stop)) {
          run = run.slice(0, run.length - stop.length);
          changed = true;
          break;
        }
      }
    }
    return run;
  };

  Words.prototype.stripZh = function (run, han) {
    var self = this;
    var pieces = [run];
    this.zhStop.forEach(function (stop) {
      var next = [];
      pieces.forEach(function (piece) {
        piece.split(stop).forEach(function (p) {
          if (p) {
            next.push(p);
          }
        });
      });
      pieces = next;
    });
    var out = [];
    pieces.forEach(function (piece) {
      var cs = chars(piece);
      while (cs.length && self.zhLeading.has(cs[0])) {
        cs.shift();
      }
      while (cs.length && self.zhTrailing.has(cs[cs.length - 1])) {
        cs.pop();
      }
      piece = cs.join("");
      if (piece && !self.zhWhole.has(piece) && (han || !self.jaHanStop.has(piece))) {
        out.push(piece);
      }
    });
    return out;
  };

  /** A Han run of pairs_from characters or more, as its pairs; shorter runs whole. */
  Words.prototype.hanPieces = function (run) {
    var cs = chars(run);
    if (cs.length < this.pairsFrom) {
      return [run];
    }
    var out = [];
    for (var i = 0; i < cs.length - 1; i += 2) {
      out.push(cs[i] + cs[i + 1]);
    }
    if (cs.length % 2) {
      out.push(cs[cs.length - 2] + cs[cs.length - 1]);
    }
    return out;
  };

  // ================================================================ plans (plan.py)

  // expressions: {e: "phrase", tokens, prefix, column} {e: "near", left, right, distance}
  // {e: "any", nodes} {e: "all", nodes, nots}
  function Phrase(tokens, prefix, column) {
    return { e: "phrase", tokens: tokens, prefix: !!prefix, column: column || "" };
  }
  var NOTHING = Phrase(["_"]);

  function fts(expr) {
    if (expr.e === "phrase") {
      var body = "\"" + expr.tokens.join(" ") + "\"" + (expr.prefix ? " *" : "");
      return expr.column ? expr.column + " : " + body : body;
    }
    if (expr.e === "near") {
      return "NEAR(" + fts(expr.left) + " " + fts(expr.right) + ", " + expr.distance + ")";
    }
    if (expr.e === "any") {
      return expr.nodes.length === 1 ? fts(expr.nodes[0]) :
        "(" + expr.nodes.map(fts).join(" OR ") + ")";
    }
    return "(" + expr.nodes.map(fts).join(" AND ") + expr.nots.map(function (n) {
      return " NOT " + fts(n);
    }).join("") + ")";
  }
  function topFts(expr) {
    return expr.nodes.map(fts).join(" AND ") + expr.nots.map(function (n) {
      return " NOT " + fts(n);
    }).join("");
  }

  function metaToken(name, value) {
    return name + "_" + chars(value.toLowerCase()).map(function (c) {
      return /^[0-9a-z]$/.test(c) ? c : "_";
    }).join("");
  }

  function Plan() {
    this.concepts = [];
    this.near = []; // [i, j, expr]
    this.musts = [];
    this.nots = [];
    this.highlight = new Set();
    this.bareTerm = "";
    this.terms = []; // the glossary terms its words name, in order
  }
  /** The expression of every result (null when only NOT parts are left); with `keep`, of
   * those holding one of these words (plan.Plan.query). */
  Plan.prototype.query = function (keep) {
    var concepts = this.concepts.filter(function (c, i) {
      return !keep || keep.has(i);
    });
    var parts = [];
    if (concepts.length) {
      parts.push({ e: "any", nodes: concepts });
    }
    parts = parts.concat(this.musts);
    if (!parts.length) {
      return null;
    }
    return { e: "all", nodes: parts, nots: this.nots };
  };
  /** The neighbouring words looked for close together (plan.Plan.nears). */
  Plan.prototype.nears = function (keep, common) {
    common = common || new Set();
    return this.near.filter(function (n) {
      return (!keep || keep.has(n[0]) || keep.has(n[1])) &&
        !(common.has(n[0]) && common.has(n[1]));
    }).map(function (n) { return n[2]; });
  };
  Plan.prototype.complete = function () {
    return { e: "all", nodes: this.concepts.concat(this.musts), nots: this.nots };
  };
  Plan.prototype.describe = function () {
    var top = this.query();
    return (top ? topFts(top) : "") + " ; near: " + this.nears().map(fts).join(" | ") +
      " ; words: " + this.concepts.map(fts).join(" | ") + " ; term: " + this.bareTerm +
      " ; terms: " + this.terms.join(" ");
  };

  function samePhrase(a, b) {
    return a.prefix === b.prefix && a.column === b.column &&
      a.tokens.length === b.tokens.length && a.tokens.every(function (t, i) {
        return t === b.tokens[i];
      });
  }

  function Planner(engine) {
    this.x = engine;
  }
  Planner.prototype.phraseOf = function (text) {
    var tokens = this.x.a.queryTokens(text);
    if (!tokens.length) {
      return NOTHING;
    }
    var last = tokens[tokens.length - 1];
    var prefix = endsWith(last, PREFIX);
    if (prefix) {
      tokens[tokens.length - 1] = last.slice(0, -PREFIX.length);
    }
    return Phrase(tokens, prefix);
  };
  Planner.prototype.highlights = function (text) {
    var tokens = this.x.a.queryTokens(text);
    var latin = tokens.filter(function (t) { return !isCjk(t); });
    var out = latin.length === tokens.length && tokens.length > 1 ? [latin.join(" ")] : latin;
    return out.concat(tokenRuns(this.x.a.fold(text)).filter(isCjk));
  };
  Planner.prototype.fix = function (word) {
    var x = this.x;
    var folded = x.a.fold(word);
    if (!isAsciiAlpha(folded) || folded.length < x.def.typos.min_length ||
        x.words.enStop.has(folded)) {
      return null;
    }
    var token = x.a.latinToken(folded);
    if (x.glossary.words.has(token) || x.known(token)) {
      return null;
    }
    return x.suggest(folded);
  };
  /** Whether any result holds the query text `text` (as the phrase of its tokens). */
  Planner.prototype.holds = function (text) {
    var phrase = this.phraseOf(text);
    return phrase.tokens.length > 0 && this.x.phraseHits(phrase).rows.length > 0;
  };
  /** The katakana runs of a word that a typo correction may look at (fix_kana). */
  Planner.prototype.kanaRuns = function (word) {
    var x = this.x;
    var least = x.def.typos.kana_min_length || 0;
    if (!least) {
      return [];
    }
    return katakanaRuns(word).filter(function (r) {
      return r[0] && chars(r[1]).length >= least && !x.glossary.cjk.has(x.a.fold(r[1]));
    }).map(function (r) { return r[1]; });
  };
  /** The word with its unknown katakana runs corrected to glossary forms (fix_kana). */
  Planner.prototype.fixKana = function (word) {
    var self = this;
    var x = this.x;
    var doubtful = new Set(this.kanaRuns(word));
    if (!doubtful.size) {
      return null;
    }
    var changed = false;
    var out = katakanaRuns(word).map(function (r) {
      var run = r[1];
      if (r[0] && doubtful.has(run) && !self.holds(run)) {
        var better = suggestKana(x.a.fold(run), x.kanaKeys, x.def.typos);
        if (better !== null) {
          changed = true;
          return katakana(better);
        }
      }
      return run;
    }).join("");
    return changed ? out : null;
  };
  /**
   * The word with each dash between two katakana runs read as the prolonged sound mark where
   * results hold the runs so joined, else as nothing where they hold the runs written together,
   * else as a space (fix_dash); null when the word holds no such dash.
   */
  Planner.prototype.fixDash = function (word) {
    var self = this;
    var marks = this.x.def.fold.long_marks;
    var runs = katakanaRuns(word.normalize("NFKC"));
    var out = runs.map(function (r) { return r[1]; });
    var changed = false;
    for (var i = 1; i < runs.length - 1; i++) {
      if (runs[i][0] || chars(runs[i][1]).length !== 1 || marks.indexOf(runs[i][1]) < 0 ||
          !(runs[i - 1][0] && runs[i + 1][0])) {
        continue;
      }
      var left = runs[i - 1][1];
      var right = runs[i + 1][1];
      if (self.holds(left + "\u30fc" + right)) {
        continue;
      }
      out[i] = self.holds(left + right) ? "" : " ";
      changed = true;
    }
    return changed ? out.join("") : null;
  };
  /** The texts fixDash and fixHomophone may ask `holds` about for a word as typed. */
  Planner.prototype.slipTexts = function (word) {
    var out = [];
    var marks = this.x.def.fold.long_marks;
    var runs = katakanaRuns(word.normalize("NFKC"));
    for (var i = 1; i < runs.length - 1; i++) {
      if (!runs[i][0] && chars(runs[i][1]).length === 1 && marks.indexOf(runs[i][1]) >= 0 &&
          runs[i - 1][0] && runs[i + 1][0]) {
        out.push(runs[i - 1][1] + "\u30fc" + runs[i + 1][1], runs[i - 1][1] + runs[i + 1][1]);
      }
    }
    (this.x.def.typos.homophones || []).forEach(function (pair) {
      if (word.indexOf(pair[0]) >= 0) {
        out.push(pair[0], pair[1]);
      }
    });
    return out;
  };
  /** The word with the common slips of `[typos] homophones` replaced (fix_homophone). */
  Planner.prototype.fixHomophone = function (word) {
    var self = this;
    var out = word;
    (this.x.def.typos.homophones || []).forEach(function (pair) {
      if (out.indexOf(pair[0]) >= 0 && !self.holds(pair[0]) && self.holds(pair[1])) {
        out = out.split(pair[0]).join(pair[1]);
      }
    });
    return out !== word ? out : null;
  };
  /** Parse, correct and expand a query, and leave out its common words (the han pieces are
   * corrected by plan). */
  Planner.prototype.read = function (text, han) {
    var self = this;
    var x = this.x;
    var node = strip(text) ? parse(text) : null;
    var parsed = node !== null;
    var fixes = [];
    if (parsed) {
      var corrected = correct(node, function (w) { return self.fix(w); });
      var dash = correct(corrected[0], function (w) { return self.fixDash(w); });
      var kana = correct(dash[0], function (w) { return self.fixKana(w); });
      var homophone = correct(kana[0], function (w) { return self.fixHomophone(w); });
      node = x.words.refine(expand(homophone[0], x.glossary), han);
      fixes = corrected[1].concat(dash[1], kana[1], homophone[1]);
    }
    return { node: node, fixes: fixes, parsed: parsed };
  };
  /**
   * The correction of a refined piece of two Han characters no result holds (fix_han);
   * `swaps`: the characters replaced in the pieces before it (a Map), corrected alike.
   */
  Planner.prototype.fixHan = function (word, swaps) {
    var x = this.x;
    var folded = x.a.fold(word);
    if (!x.def.typos.han || !hanPair(folded) || x.known(folded)) {
      return null;
    }
    var typed = chars(folded);
    var swapped = typed.map(function (c) { return swaps.has(c) ? swaps.get(c) : c; }).join("");
    if (swapped !== folded) {
      return swapped;
    }
    var better = suggestHan(folded, x.hanPairs, function (c) { return !x.known(c + PREFIX); });
    if (better !== null) {
      chars(better).forEach(function (c, i) {
        if (c !== typed[i]) {
          swaps.set(typed[i], c);
        }
      });
    }
    return better;
  };
  Planner.prototype.plan = function (text, han, filters) {
    var self = this;
    var x = this.x;
    filters = filters || [];
    var read = this.read(text, han);
    var node = read.node;
    var fixes = read.fixes;
    if (read.parsed) {
      if (node !== null) {
        var swaps = new Map();
        var more = correct(node, function (w) { return self.fixHan(w, swaps); });
        node = more[0];
        fixes = fixes.concat(more[1]);
      }
      if (node === null && !filters.length) {
        throw new QueryError("nothing to search for in " + quote(text) +
          " (only common words?)");
      }
    }
    if (node === null && !filters.length) {
      throw new QueryError("the query is empty");
    }
    var plan = new Plan();
    var children = [];
    // plan.near_distance: near tokens between two words, near_cjk when either is CJK
    var nearDistance = function (left, right) {
      return left.tokens.concat(right.tokens).some(isCjk) ? x.def.ranking.near_cjk :
        x.def.ranking.near;
    };
    if (node !== null && node.t === "and" && node.soft) {
      children = node.nodes;
    } else if (node !== null) {
      children = [node];
    }
    var previous = null;
    var at = -1;
    children.forEach(function (child) {
      if (child.t === "not") {
        plan.nots.push(self.expr(child.node, plan, true));
      } else if (child.t === "field") {
        plan.musts.push(self.expr(child, plan, false));
      } else {
        plan.concepts.push(self.expr(child, plan, false));
        if (child.t === "expand") {
          plan.terms.push(child.term);
        }
        var written = child.t === "text" || child.t === "expand" ? self.phraseOf(child.text) :
          null;
        if (previous !== null && written !== null) {
          plan.near.push([at, plan.concepts.length - 1,
            { e: "near", left: previous, right: written,
              distance: nearDistance(previous, written) }]);
        }
        previous = written;
        at = plan.concepts.length - 1;
      }
    });
    filters.forEach(function (f) {
      plan.musts.push(self.expr(f, plan, false));
    });
    if (children.length === 1 && children[0].t === "expand" && !plan.musts.length) {
      plan.bareTerm = children[0].term;
    }
    var shown = filters.length ? { t: "and", nodes: (node ? [node] : []).concat(filters),
      soft: true } : node;
    return { node: shown, plan: plan, fixes: fixes };
  };
  Planner.prototype.expr = function (node, plan, negated) {
    var self = this;
    if (node.t === "text") {
      return this.text(node.text, plan, negated);
    }
    if (node.t === "expand") {
      var term = this.x.glossary.terms[node.term];
      var forms = [node.text];
      ["ja", "en", "zh-Hans"].forEach(function (lang) {
        if (has(term.names, lang)) {
          forms.push(term.names[lang]);
        }
      });
      var phrases = [];
      forms.forEach(function (f) {
        var p = self.text(f, plan, negated);
        if (!phrases.some(function (q) { return samePhrase(p, q); })) {
          phrases.push(p);
        }
      });
      return phrases.length === 1 ? phrases[0] : { e: "any", nodes: phrases };
    }
    if (node.t === "field") {
      return this.field(node);
    }
    if (node.t === "not") {
      throw new QueryError(quote(show(node)) + " needs something to search for beside it " +
        "(NOT cannot stand alone inside OR or parentheses)");
    }
    if (node.t === "or") {
      return { e: "any", nodes: node.nodes.map(function (n) {
        return self.expr(n, plan, negated);
      }) };
    }
    var positive = node.nodes.filter(function (n) { return n.t !== "not"; }).map(function (n) {
      return self.expr(n, plan, negated);
    });
    var negative = node.nodes.filter(function (n) { return n.t === "not"; }).map(function (n) {
      return self.expr(n.node, plan, !negated);
    });
    if (!positive.length) {
      throw new QueryError(quote(show(node)) + " needs something to search for beside NOT");
    }
    return { e: "all", nodes: positive, nots: negative };
  };
  Planner.prototype.text = function (text, plan, negated) {
    var phrase = this.phraseOf(text);
    if (!negated && !samePhrase(phrase, NOTHING)) {
      this.highlights(text).forEach(function (h) { plan.highlight.add(h); });
    }
    return phrase;
  };
  Planner.prototype.field = function (node) {
    var x = this.x;
    var value = node.value;
    if (node.name === "rules" && x.meta.rulesets.indexOf(value) < 0) {
      throw new QueryError("unknown rule set " + quote(value) + " (valid: " +
        x.meta.rulesets.join(", ") + ")");
    }
    if (node.name === "term") {
      var term = x.glossary.resolve(value);
      if (term === null) {
        throw new QueryError(quote(value) + " is not a glossary term (see data/glossary.toml)");
      }
      value = term.id;
    }
    if (node.name === "kind" && KINDS.indexOf(value.toLowerCase()) < 0) {
      throw new QueryError("unknown kind " + quote(value) + " (valid: " + KINDS.join(", ") + ")");
    }
    if (node.name === "basis" && BASES.indexOf(value.toLowerCase()) < 0) {
      throw new QueryError("unknown basis " + quote(value) + " (valid: " + BASES.join(", ") +
        ")");
    }
    if (node.name === "id" && endsWith(value, "*")) {
      return Phrase([metaToken("id", value.slice(0, -1))], true, "meta");
    }
    return Phrase([metaToken(node.name, value)], false, "meta");
  };

  // ================================================================ the index

  /** FNV-1a (32 bits) of a token's UTF-16 code units: its shard (judge/search/static.py). */
  function fnv(text) {
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      h ^= c & 0xff;
      h = Math.imul(h, 0x01000193) >>> 0;
      h ^= c >>> 8;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
  }

  /**
   * A token's posting list as the index file writes it (static.py): for each result holding
   * the token, by row: the distance from the previous row, the result's length, how many
   * columns hold the token, then for each column: its number, how many times, the distance
   * of each place from the previous one. Read once into rows, lengths and weighted counts;
   * the places of a row are read when a phrase or a pair of words needs them.
   */
  function Posting(list, weights, lengths) {
    var rows = [];
    var at = [];
    var freq = [];
    var index = new Map();
    var i = 0;
    var rowid = 0;
    while (i < list.length) {
      rowid += list[i];
      var length = list[i + 1];
      var columns = list[i + 2];
      lengths.set(rowid, length);
      index.set(rowid, rows.length);
      rows.push(rowid);
      at.push(i + 3);
      i += 3;
      var f = 0.0;
      for (var c = 0; c < columns; c++) {
        var count = list[i + 1];
        f += weights[list[i]] * count;
        i += 2 + count;
      }
      freq.push(f);
    }
    this.list = list;
    this.rows = rows;
    this.at = at;
    this.f = freq;
    this.index = index;
  }
  Posting.prototype.has = function (rowid) {
    return this.index.has(rowid);
  };
  /** The weighted count of the token in a result (0 when it does not hold it). */
  Posting.prototype.freq = function (rowid) {
    var i = this.index.get(rowid);
    return i === undefined ? 0.0 : this.f[i];
  };
  /** {column: [places]} of the token in a result (undefined when it does not hold it). */
  Posting.prototype.cols = function (rowid) {
    var i = this.index.get(rowid);
    if (i === undefined) {
      return undefined;
    }
    var list = this.list;
    var k = this.at[i];
    var columns = list[k - 1];
    var out = {};
    for (var c = 0; c < columns; c++) {
      var col = list[k];
      var count = list[k + 1];
      var positions = new Array(count);
      var pos = 0;
      for (var j = 0; j < count; j++) {
        pos += list[k + 2 + j];
        positions[j] = pos;
      }
      out[col] = positions;
      k += 2 + count;
    }
    return out;
  };

  /** Where a phrase of several tokens (or in the meta column only) is: rows, and per row its
   * places by column and its weighted count; the same interface as Posting. */
  function Hits(weights) {
    this.rows = [];
    this.found = new Map();
    this.weights = weights;
  }
  Hits.prototype.add = function (rowid, cols) {
    var f = 0.0;
    var w = this.weights;
    Object.keys(cols).forEach(function (c) {
      f += w[c] * cols[c].length;
    });
    this.rows.push(rowid);
    this.found.set(rowid, { cols: cols, f: f });
  };
  Hits.prototype.has = function (rowid) {
    return this.found.has(rowid);
  };
  Hits.prototype.freq = function (rowid) {
    var x = this.found.get(rowid);
    return x === undefined ? 0.0 : x.f;
  };
  Hits.prototype.cols = function (rowid) {
    var x = this.found.get(rowid);
    return x === undefined ? undefined : x.cols;
  };
  var NO_HITS = new Hits([]);

  // ================================================================ the engine

  var BIG = 4294967296; // a column's positions are apart from another's (FTS5's 64-bit ones)
  var EOF = Infinity;

  /**
   * The search over one site's index. `meta`: the index's meta file (search-index/meta.json);
   * `load(path)`: a Promise of the object in the index file at `path` (relative to the
   * index's folder), e.g. "s/1f.json". A file whose Promise rejects is not kept: a later
   * search that needs it calls `load` again (the search page says why it found nothing).
   */
  function Engine(meta, load) {
    this.meta = meta;
    this.def = meta.definition;
    this.load = load;
    this.a = new Analysis(this.def);
    this.words = new Words(this.def, this.a);
    this.glossary = new Glossary(meta.glossary, this.a);
    this.planner = new Planner(this);
    this.shards = new Map(); // shard number -> Promise of its object
    this.postings = new Map(); // token -> Posting (those loaded)
    this.lengths = new Map(); // row -> the result's length in tokens (of those loaded)
    this.vocab = null;
    this.ids = null;
    this.hanPairs = meta.han_pairs || [];
    // the glossary's forms written in kana, in code-point order (Planner.kana_keys)
    this.kanaKeys = Array.from(this.glossary.cjk.keys()).filter(kanaPiece).sort(compareStrings);
    var ranking = this.def.ranking;
    this.weights = ranking.weights;
    this.metaColumn = ranking.columns.indexOf("meta");
    this.kindWeights = ranking.kinds;
  }

  Engine.prototype.shardOf = function (token) {
    return fnv(token) % this.meta.shards;
  };
  Engine.prototype.shardPath = function (n) {
    return "s/" + n.toString(16) + ".json";
  };

  /** Fetch the postings of `tokens` (and their big files), once each. */
  Engine.prototype.fetchTokens = function (tokens) {
    var self = this;
    var wanted = Array.from(new Set(tokens)).filter(function (t) {
      return !self.postings.has(t);
    });
    var shards = Array.from(new Set(wanted.map(function (t) { return self.shardOf(t); })));
    return Promise.all(shards.map(function (n) {
      if (!self.shards.has(n)) {
        var loading = self.load(self.shardPath(n));
        self.shards.set(n, loading);
        // a shard that could not be fetched is forgotten, so the next search asks again
        loading.catch(function () {
          if (self.shards.get(n) === loading) {
            self.shards.delete(n);
          }
        });
      }
      return self.shards.get(n);
    })).then(function () {
      return Promise.all(wanted.map(function (t) {
        return self.shards.get(self.shardOf(t)).then(function (shard) {
          var entry = has(shard, t) ? shard[t] : null;
          if (entry === null) {
            self.postings.set(t, NO_HITS);
            return null;
          }
          if (!Array.isArray(entry)) { // a long list in a file of its own
            return self.load(entry.f).then(function (list) {
              self.postings.set(t, new Posting(list, self.weights, self.lengths));
            });
          }
          self.postings.set(t, new Posting(entry, self.weights, self.lengths));
          return null;
        });
      }));
    });
  };
  Engine.prototype.known = function (token) {
    var p = this.postings.get(token);
    if (p === undefined) {
      throw new Error("token not fetched: " + token);
    }
    return p.rows.length > 0;
  };
  Engine.prototype.suggest = function (folded) {
    var a = this.a;
    var limit = a.typoLimit(folded);
    if (!limit || !this.vocab) {
      return null;
    }
    var best = null;
    var n = chars(folded).length;
    for (var i = 0; i < this.vocab.length; i++) {
      var candidate = this.vocab[i][0];
      var docs = this.vocab[i][1];
      if (Math.abs(chars(candidate).length - n) > limit) {
        continue;
      }
      var d = editDistance(folded, candidate, limit);
      if (d <= limit && (best === null || d < best[0] || (d === best[0] && (docs > best[1] ||
          (docs === best[1] && compareStrings(candidate, best[2]) < 0))))) {
        best = [d, docs, candidate];
      }
    }
    return best ? best[2] : null;
  };

  /** The language the Han characters of a query are read in (engine.han_lang). */
  Engine.prototype.hanLang = function (query, lang) {
    if (/[\u3041-\u30ff]/.test(nfkc(query))) {
      return "ja";
    }
    if (lang === "ja" || lang === "zh-Hans") {
      return lang;
    }
    var guess = this.detectLang(query);
    return guess === "ja" || guess === "zh-Hans" ? guess : "zh-Hans";
  };
  Engine.prototype.detectLang = function (query) {
    var self = this;
    var folded = this.a.fold(query);
    if (/[\u3041-\u309f]/.test(folded)) {
      return "ja";
    }
    var han = chars(folded).filter(function (c) {
      return /[\u3400-\u9fff\uf900-\ufaff]/.test(c);
    });
    if (!han.length) {
      return "en";
    }
    var langs = new Set();
    tokenRuns(folded).forEach(function (run) {
      if (isCjk(run)) {
        var lang = self.glossary.langOf(run);
        if (lang) {
          langs.add(lang);
        }
      }
    });
    if (langs.size === 1) {
      return Array.from(langs)[0];
    }
    var sets = this.meta.charsets || {};
    var ja = han.filter(function (c) { return (sets.ja || "").indexOf(c) >= 0; }).length;
    var zh = han.filter(function (c) { return (sets["zh-Hans"] || "").indexOf(c) >= 0; }).length;
    return ja > zh ? "ja" : "zh-Hans";
  };

  /** Every token (and prefix) an expression looks up. */
  function exprTokens(expr, out) {
    if (expr.e === "phrase") {
      expr.tokens.forEach(function (t, i) {
        var last = i === expr.tokens.length - 1;
        out.push(last && expr.prefix ? t + PREFIX : t);
      });
    } else if (expr.e === "near") {
      exprTokens(expr.left, out);
      exprTokens(expr.right, out);
    } else {
      expr.nodes.forEach(function (n) { exprTokens(n, out); });
      (expr.nots || []).forEach(function (n) { exprTokens(n, out); });
    }
    return out;
  }

  /** Read a query and fetch what its ranking needs; a Promise of {node, plan, fixes}. */
  Engine.prototype.prepare = function (text, lang, filters) {
    var self = this;
    var han = this.hanLang(text, lang);
    var node = null;
    try {
      node = strip(text) ? parse(text) : null;
    } catch (error) {
      return Promise.reject(error);
    }
    // the words typo correction may ask about: is the token known, else the vocabulary
    var doubtful = [];
    if (node !== null) {
      plainWords(node, []).forEach(function (w) {
        var folded = self.a.fold(w);
        if (isAsciiAlpha(folded) && folded.length >= self.def.typos.min_length &&
            !self.words.enStop.has(folded)) {
          var token = self.a.latinToken(folded);
          if (!self.glossary.words.has(token)) {
            doubtful.push(token);
          }
        }
      });
    }
    // ... the katakana runs a slip may have made unknown (fix_kana), and what fix_dash and
    // fix_homophone ask about
    var kana = [];
    if (node !== null) {
      plainWords(node, []).forEach(function (w) {
        self.planner.kanaRuns(w).concat(self.planner.slipTexts(w)).forEach(function (run) {
          Array.prototype.push.apply(kana, self.a.queryTokens(run));
        });
      });
    }
    return this.fetchTokens(doubtful.concat(kana)).then(function () {
      var unknown = doubtful.some(function (t) { return !self.known(t); });
      return unknown && self.vocab === null ? self.load("vocab.json").then(function (v) {
        self.vocab = v;
      }) : null;
    }).then(function () {
      // ... and the pieces of two Han characters a slip may have made unknown (fix_han)
      var pairs = [];
      if (node !== null && self.def.typos.han) {
        var refined = self.planner.read(text, han).node;
        if (refined !== null) {
          hanPieces(refined, function (t) { return self.a.fold(t); }, pairs);
        }
      }
      // ... with the start of a token of each of their characters (is it a slip?)
      var starts = [];
      pairs.forEach(function (pair) {
        chars(pair).forEach(function (c) { starts.push(c + PREFIX); });
      });
      return self.fetchTokens(pairs.concat(starts));
    }).then(function () {
      var read = self.planner.plan(text, han, filters);
      var top = read.plan.query();
      var tokens = top ? exprTokens(top, []) : [];
      read.plan.nots.concat(read.plan.nears()).forEach(function (n) { exprTokens(n, tokens); });
      var metaPrefix = tokens.some(function (t) {
        return t.indexOf("id_") === 0 && endsWith(t, PREFIX);
      });
      return Promise.all([self.fetchTokens(tokens.filter(function (t) {
        return !(t.indexOf("id_") === 0 && endsWith(t, PREFIX));
      })), metaPrefix && self.ids === null ? self.load("ids.json").then(function (ids) {
        self.ids = ids;
      }) : null]).then(function () {
        return read;
      });
    });
  };

  // ---------------------------------------------------------------- matching (FTS5's)

  /** Where a phrase is (a Posting or Hits), every result holding it. */
  Engine.prototype.phraseHits = function (phrase) {
    var self = this;
    if (phrase._hits) {
      return phrase._hits;
    }
    var n = phrase.tokens.length;
    var meta = phrase.column === "meta";
    var out;
    if (meta && phrase.prefix && phrase.tokens[0].indexOf("id_") === 0) {
      var start = phrase.tokens[0];
      out = new Hits(this.weights);
      (this.ids || []).forEach(function (id, i) {
        if (id.indexOf(start) === 0) {
          var cols = {};
          cols[self.metaColumn] = [1];
          out.add(i + 1, cols);
        }
      });
      phrase._hits = out;
      return out;
    }
    var lists = phrase.tokens.map(function (t, i) {
      return self.postings.get(i === n - 1 && phrase.prefix ? t + PREFIX : t) || NO_HITS;
    });
    // a token is only ever in the meta column (a filter's) or only outside it (a text's)
    if (n === 1) {
      var only = lists[0];
      var metaToken = only.rows.length && only.cols(only.rows[0])[this.metaColumn] !== undefined;
      phrase._hits = metaToken === meta ? only : NO_HITS;
      return phrase._hits;
    }
    out = new Hits(this.weights);
    var first = lists[0];
    first.rows.forEach(function (rowid) {
      for (var k = 1; k < n; k++) {
        if (!lists[k].has(rowid)) {
          return;
        }
      }
      var starts = first.cols(rowid);
      var others = lists.slice(1).map(function (l) { return l.cols(rowid); });
      var found = null;
      Object.keys(starts).forEach(function (key) {
        var col = Number(key);
        if (meta !== (col === self.metaColumn)) {
          return;
        }
        var sets = others.map(function (o) { return o[key] ? new Set(o[key]) : null; });
        if (sets.some(function (x) { return x === null; })) {
          return;
        }
        var kept = starts[key].filter(function (p) {
          for (var k = 0; k < sets.length; k++) {
            if (!sets[k].has(p + k + 1)) {
              return false;
            }
          }
          return true;
        });
        if (kept.length) {
          found = found || {};
          found[col] = kept;
        }
      });
      if (found) {
        out.add(rowid, found);
      }
    });
    phrase._hits = out;
    return out;
  };

  /** FTS5's NEAR on one result: the positions of each phrase that take part in a match
   * (fts5ExprNearIsMatch, step for step), or null. */
  function nearMatch(left, right, leftLength, rightLength, distance) {
    function flat(cols) {
      var out = [];
      Object.keys(cols).map(Number).sort(function (a, b) { return a - b; }).forEach(function (c) {
        cols[c].forEach(function (p) { out.push(c * BIG + p); });
      });
      return out;
    }
    var readers = [flat(left), flat(right)].map(function (list) {
      return { list: list, i: 0, pos: list.length ? list[0] : EOF,
        ahead: list.length > 1 ? list[1] : EOF };
    });
    var lengths = [leftLength, rightLength];
    var outs = [[], []];
    function next(r) {
      r.pos = r.ahead;
      r.i += 1;
      r.ahead = r.i + 1 < r.list.length ? r.list[r.i + 1] : EOF;
      return r.pos === EOF;
    }
    if (readers[0].pos === EOF || readers[1].pos === EOF) {
      return null;
    }
    for (;;) {
      var max = readers[0].pos;
      var match;
      do {
        match = true;
        for (var i = 0; i < 2; i++) {
          var r = readers[i];
          var min = max - lengths[i] - distance;
          if (r.pos < min || r.pos > max) {
            match = false;
            while (r.pos < min) {
              if (next(r)) {
                return done();
              }
            }
            if (r.pos > max) {
              max = r.pos;
            }
          }
        }
      } while (!match);
      for (var k = 0; k < 2; k++) {
        var o = outs[k];
        if (!o.length || o[o.length - 1] !== readers[k].pos) {
          o.push(readers[k].pos);
        }
      }
      var adv = 0;
      var least = readers[0].ahead;
      for (var j = 0; j < 2; j++) {
        if (readers[j].ahead < least) {
          least = readers[j].ahead;
          adv = j;
        }
      }
      if (next(readers[adv])) {
        return done();
      }
    }
    function done() {
      if (!outs[0].length) {
        return null;
      }
      return outs.map(function (list) {
        var cols = {};
        list.forEach(function (p) {
          var c = Math.floor(p / BIG);
          (cols[c] = cols[c] || []).push(p - c * BIG);
        });
        return cols;
      });
    }
  }

  /** Where two phrases are close together: [Hits of the left one's places that take part,
   * Hits of the right one's]. */
  Engine.prototype.nearHits = function (near) {
    if (near._hits) {
      return near._hits;
    }
    var left = this.phraseHits(near.left);
    var right = this.phraseHits(near.right);
    var out = [new Hits(this.weights), new Hits(this.weights)];
    left.rows.forEach(function (rowid) {
      if (!right.has(rowid)) {
        return;
      }
      var m = nearMatch(left.cols(rowid), right.cols(rowid), near.left.tokens.length,
        near.right.tokens.length, near.distance);
      if (m) {
        out[0].add(rowid, m[0]);
        out[1].add(rowid, m[1]);
      }
    });
    near._hits = out;
    return out;
  };

  /** The set of results an expression matches. */
  Engine.prototype.matches = function (expr) {
    var self = this;
    if (expr._rows) {
      return expr._rows;
    }
    var out;
    if (expr.e === "phrase") {
      out = new Set(this.phraseHits(expr).rows);
    } else if (expr.e === "near") {
      out = new Set(this.nearHits(expr)[0].rows);
    } else if (expr.e === "any") {
      out = new Set();
      expr.nodes.forEach(function (n) {
        self.matches(n).forEach(function (r) { out.add(r); });
      });
    } else {
      var sets = expr.nodes.map(function (n) { return self.matches(n); });
      sets.sort(function (a, b) { return a.size - b.size; });
      out = new Set();
      sets[0].forEach(function (r) {
        for (var i = 1; i < sets.length; i++) {
          if (!sets[i].has(r)) {
            return;
          }
        }
        out.add(r);
      });
      expr.nots.forEach(function (n) {
        self.matches(n).forEach(function (r) { out.delete(r); });
      });
    }
    expr._rows = out;
    return out;
  };

  /** The phrases of an expression in FTS5's order, each with where it counts: [phrase,
   * hits] (the places of a NOT part never count in a result it matches). */
  Engine.prototype.phrases = function (expr, out, negated) {
    var self = this;
    if (expr.e === "phrase") {
      out.push([expr, negated ? NO_HITS : this.phraseHits(expr)]);
    } else if (expr.e === "near") {
      var near = this.nearHits(expr);
      out.push([expr.left, negated ? NO_HITS : near[0]]);
      out.push([expr.right, negated ? NO_HITS : near[1]]);
    } else {
      expr.nodes.forEach(function (n) { self.phrases(n, out, negated); });
      (expr.nots || []).forEach(function (n) { self.phrases(n, out, true); });
    }
    return out;
  };

  /** SQLite FTS5's bm25() of each result of `rows` for the expression (its phrases' IDF over
   * every result, their weighted counts in the result, the result's length). */
  Engine.prototype.bm25 = function (expr, rows) {
    var self = this;
    var n = this.meta.docs;
    var avgdl = this.meta.tokens / n;
    var k1 = 1.2;
    var b = 0.75;
    var phrases = this.phrases(expr, [], false).map(function (item) {
      var nHit = self.phraseHits(item[0]).rows.length;
      var idf = Math.log((n - nHit + 0.5) / (nHit + 0.5));
      if (idf <= 0.0) {
        idf = 1e-6;
      }
      return [idf, item[1]];
    });
    var scores = new Map();
    rows.forEach(function (rowid) {
      var length = self.lengthOf(rowid);
      var score = 0.0;
      for (var i = 0; i < phrases.length; i++) {
        var freq = phrases[i][1].freq(rowid);
        score += phrases[i][0] * ((freq * (k1 + 1.0)) / (freq + k1 * (1 - b + b * length / avgdl)));
      }
      scores.set(rowid, score);
    });
    return scores;
  };

  Engine.prototype.lengthOf = function (rowid) {
    var found = this.lengths.get(rowid);
    if (found === undefined) {
      throw new Error("no length for result " + rowid);
    }
    return found;
  };

  Engine.prototype.kindOf = function (rowid) {
    var kinds = this.meta.kinds;
    var kind = kinds[0][1];
    for (var i = 0; i < kinds.length; i++) {
      if (rowid >= kinds[i][0]) {
        kind = kinds[i][1];
      }
    }
    return kind;
  };

  function coordination(held, words, power) {
    var share = held / words;
    var factor = 1.0;
    for (var i = 0; i < power; i++) {
      factor *= share;
    }
    return factor;
  }

  /** The ranking of a prepared query (engine.SearchIndex.collect, every match): {rows:
   * [[score, rowid]...] best first, total, complete}. */
  Engine.prototype.rank = function (plan) {
    var self = this;
    var docs = this.meta.docs;
    var query = plan.query();
    if (query === null) {
      var excluded = new Set();
      plan.nots.forEach(function (n) {
        self.matches(n).forEach(function (r) { excluded.add(r); });
      });
      var rest = [];
      for (var r = 1; r <= docs; r++) {
        if (!excluded.has(r)) {
          rest.push([0.0, r]);
        }
      }
      return { rows: rest, total: rest.length, complete: rest.length };
    }
    var matched = this.matches(query);
    var total = matched.size;
    var n = plan.concepts.length;
    var complete = n < 2 ? total : this.matches(plan.complete()).size;
    var conceptSets = plan.concepts.map(function (c) { return self.matches(c); });
    var holders = new Map(); // row -> how many of the words it holds
    if (n >= 2) {
      conceptSets.forEach(function (set) {
        set.forEach(function (rowid) { holders.set(rowid, (holders.get(rowid) || 0) + 1); });
      });
    }
    var counts = n >= 2 ? conceptSets.map(function (s) { return s.size; }) : [total];
    var found = counts.filter(function (k) { return k; }).length;
    var share = this.def.ranking.common;
    var weighty = new Set();
    var common = new Set();
    counts.forEach(function (k, i) {
      if (k > 0 && k <= docs * share) {
        weighty.add(i);
      }
      if (k > docs * share) {
        common.add(i);
      }
    });
    var keep = n >= 2 && weighty.size && weighty.size < found ? weighty : null;
    var scoring = plan.query(keep) || query;
    var scoringRows = scoring === query ? matched : this.matches(scoring);
    var scores = this.bm25(scoring, scoringRows);
    plan.nears(keep, common).forEach(function (near) {
      var bonus = self.bm25(near, self.nearHits(near)[0].rows);
      bonus.forEach(function (value, rowid) {
        if (scores.has(rowid)) {
          scores.set(rowid, scores.get(rowid) + value);
        }
      });
    });
    var held = function (rowid) {
      return n < 2 ? n : holders.get(rowid) || 0;
    };
    var power = this.def.ranking.coordination;
    // the main rulings of the terms the query names (engine.SearchIndex._mains)
    var mains = new Set();
    if (!plan.bareTerm) {
      plan.terms.forEach(function (term) {
        var rows = self.meta.terms[term] || [];
        if (rows[0]) {
          mains.add(rows[0]);
        }
      });
    }
    var mainWeight = this.def.ranking.main;
    var scored = [];
    scores.forEach(function (bm, rowid) {
      var factor = n >= 2 ? coordination(held(rowid), n, power) : 1.0;
      var kind = self.kindOf(rowid);
      var weight = has(self.kindWeights, kind) ? self.kindWeights[kind] : 1.0;
      scored.push([bm * factor * weight * (mains.has(rowid) ? mainWeight : 1.0), rowid]);
    });
    scored.sort(function (x, y) {
      return y[0] - x[0] || x[1] - y[1];
    });
    // a bare glossary term: its main ruling, then its entry, first (those that are scored)
    var first = [];
    if (plan.bareTerm) {
      first = (this.meta.terms[plan.bareTerm] || []).filter(function (rowid) {
        return rowid && scores.has(rowid);
      });
    }
    var pinned = first.map(function (rowid) {
      return scored.find(function (item) { return item[1] === rowid; });
    });
    var out = pinned.concat(scored.filter(function (item) {
      return first.indexOf(item[1]) < 0;
    }));
    if (scores.size < total) {
      var rest = [];
      matched.forEach(function (rowid) {
        if (!scores.has(rowid)) {
          rest.push(rowid);
        }
      });
      rest.sort(function (x, y) {
        return held(y) - held(x) || x - y;
      });
      rest.forEach(function (rowid) { out.push([0.0, rowid]); });
    }
    return { rows: out, total: total, complete: complete };
  };

  /** Search: a Promise of {query (as read), rows, total, complete, words, corrections,
   * highlight, plan}; `filters`: field nodes ({t: "field", name, value}) of the page's
   * filters. A query that cannot be read rejects with a QueryError. */
  Engine.prototype.search = function (text, lang, filters) {
    var self = this;
    return this.prepare(text, lang, filters).then(function (read) {
      var ranked = self.rank(read.plan);
      return { query: read.node ? show(read.node) : "", rows: ranked.rows,
        total: ranked.total, complete: ranked.complete, words: read.plan.concepts.length,
        corrections: read.fixes, highlight: read.plan.highlight, plan: read.plan };
    });
  };

  // ================================================================ snippets (engine.py)

  /** The character ranges (code points) of `text` that match the highlight terms. */
  Engine.prototype.matchSpans = function (text, terms) {
    var a = this.a;
    var norm = a.normalize(text);
    var folded = norm[0];
    var starts = norm[1];
    var ends = norm[2];
    var list = Array.from(terms);
    var latin = new Set(list.filter(function (t) { return !isCjk(t) && t.indexOf(" ") < 0; }));
    var phrases = list.filter(function (t) { return !isCjk(t) && t.indexOf(" ") >= 0; })
      .map(function (t) { return t.split(" "); });
    var runs = list.filter(isCjk);
    var spans = [];
    var words = latin.size || phrases.length ? tokenRunsAt(folded).filter(function (r) {
      return !CJK_START.test(r[0]);
    }).map(function (r) {
      return [a.latinToken(r[0]), starts[r[1]], ends[r[2] - 1]];
    }) : [];
    words.forEach(function (w) {
      if (latin.has(w[0])) {
        spans.push([w[1], w[2]]);
      }
    });
    phrases.forEach(function (phrase) {
      for (var i = 0; i + phrase.length <= words.length; i++) {
        var ok = phrase.every(function (t, k) { return words[i + k][0] === t; });
        if (ok) {
          spans.push([words[i][1], words[i + phrase.length - 1][2]]);
        }
      }
    });
    var foldedChars = chars(folded);
    runs.forEach(function (run) {
      var runChars = chars(run);
      for (var at = 0; at + runChars.length <= foldedChars.length; at++) {
        var ok = true;
        for (var k = 0; k < runChars.length; k++) {
          if (foldedChars[at + k] !== runChars[k]) {
            ok = false;
            break;
          }
        }
        if (ok) {
          spans.push([starts[at], ends[at + runChars.length - 1]]);
        }
      }
    });
    spans.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
    var merged = [];
    spans.forEach(function (s) {
      var last = merged[merged.length - 1];
      if (last && s[0] <= last[1]) {
        last[1] = Math.max(s[1], last[1]);
      } else {
        merged.push([s[0], s[1]]);
      }
    });
    return merged;
  };

  /** A window of `text` around the most matches ({text, marks: [[start, end]...]}, in code
   * points; engine.make_snippet). */
  Engine.prototype.snippet = function (text, terms, wide) {
    var flat = strip(text).split(new RegExp("[" + SPACE + "]+")).filter(Boolean).join(" ");
    var cs = chars(flat);
    var width = wide ? this.def.snippets.wide : this.def.snippets.narrow;
    var spans = terms.size ? this.matchSpans(flat, terms) : [];
    if (cs.length <= width) {
      return { text: flat, marks: spans };
    }
    if (!spans.length) {
      return { text: cs.slice(0, width).join("") + "…", marks: [] };
    }
    var best = 0;
    var bestCount = 0;
    spans.forEach(function (s, i) {
      var count = spans.slice(i).filter(function (x) { return x[1] <= s[0] + width; }).length;
      if (count > bestCount) {
        best = i;
        bestCount = count;
      }
    });
    var lead = Math.floor(width / 5);
    var start = Math.max(0, spans[best][0] - lead);
    var i;
    if (wide && start > 0) {
      var space = -1;
      for (i = Math.min(start, cs.length - 1); i >= 0; i--) {
        if (cs[i] === " ") {
          space = i;
          break;
        }
      }
      start = space >= 0 && start - space < 20 ? space + 1 : start;
    }
    var end = Math.min(cs.length, start + width);
    if (wide && end < cs.length) {
      var after = -1;
      for (i = end; i < cs.length; i++) {
        if (cs[i] === " ") {
          after = i;
          break;
        }
      }
      end = after >= 0 && after < end + 20 ? after : end;
    }
    var head = start > 0 ? "…" : "";
    var marks = spans.filter(function (s) { return s[1] > start && s[0] < end; })
      .map(function (s) {
        return [Math.max(s[0], start) - start + head.length, Math.min(s[1], end) - start +
          head.length];
      });
    return { text: head + cs.slice(start, end).join("") + (end < cs.length ? "…" : ""),
      marks: marks };
  };

  return {
    Engine: Engine,
    QueryError: QueryError,
    porter: porter,
    fnv: fnv,
    chars: chars,
    fts: fts,
    topFts: topFts,
  };
}));
