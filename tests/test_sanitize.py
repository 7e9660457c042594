"""Ruling Markdown is sanitized: an injection corpus must come out harmless."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from judge.site.markup import TAGS, TermLinker, render_markdown, sanitize

#: Attempts to put script, handlers, styles, frames or foreign links into a page.
INJECTIONS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)><circle r=1 /></svg>",
    "<math><mtext><script>alert(1)</script></mtext></math>",
    "<iframe src=\"https://evil.example/\"></iframe>",
    "<frameset><frame src=\"https://evil.example/\"></frameset>",
    "<object data=\"https://evil.example/x.swf\"></object>",
    "<embed src=\"https://evil.example/x.swf\">",
    "<form action=\"https://evil.example/\"><input name=q><button>go</button></form>",
    "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/\">",
    "<base href=\"https://evil.example/\">",
    "<link rel=stylesheet href=\"https://evil.example/x.css\">",
    "<style>body{display:none}</style>",
    "<p style=\"position:fixed;top:0\">x</p>",
    "<p onclick=\"alert(1)\">click</p>",
    "<a href=\"javascript:alert(1)\">js</a>",
    "<a href=\"JaVaScRiPt:alert(1)\">js</a>",
    "<a href=\"java&#x09;script:alert(1)\">js</a>",
    "<a href=\"&#106;avascript:alert(1)\">js</a>",
    "<a href=\" javascript:alert(1)\">js</a>",
    "<a href=\"vbscript:msgbox(1)\">vb</a>",
    "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">data</a>",
    "<a href=\"//evil.example/\">protocol-relative</a>",
    "<a href=\"/\\evil.example/\">backslash</a>",
    "<a href=\"https://evil.example/\" onmouseover=\"alert(1)\" target=\"_blank\">away</a>",
    "<a href=\"http://evil.example/\">plain http</a>",
    "[md js](javascript:alert(1))",
    "[md data](data:text/html,<script>alert(1)</script>)",
    "[md https](https://evil.example/ \"title\")",
    "[md title](../ok/ \"x\\\" onmouseover=\\\"alert(1)\")",
    "<https://evil.example/autolink>",
    "![img](https://evil.example/pixel.png)",
    "<!--[if IE]><script>alert(1)</script><![endif]-->",
    "<div><details open ontoggle=alert(1)>x</details></div>",
    "<video><source onerror=\"alert(1)\"></video>",
    "<table><tr><td background=\"javascript:alert(1)\">x</td></tr></table>",
    "<textarea><script>alert(1)</script></textarea>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
    "<template><script>alert(1)</script></template>",
]
#: Text that mentions the dangerous words must survive as text.
HARMLESS = "a ruling about `<script>` tags? no: about **refresh** and 1 &lt; 2"


class Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def assert_harmless(out: str, allow_external: bool) -> None:
    parser = Collector()
    parser.feed(out)
    parser.close()
    for tag, attrs in parser.tags:
        assert tag in TAGS, (tag, out)
        for name, value in attrs:
            assert not name.startswith("on"), (name, out)
            lowered_value = html.unescape(value or "").lower().replace("\t", "")
            for scheme in ("javascript:", "vbscript:", "data:"):
                assert scheme not in lowered_value or name == "title", (name, value, out)
            assert name in ("href", "title", "rel", "align", "start", "class"), (name, out)
            if name == "href":
                assert value is not None
                target = html.unescape(value).strip().lower()
                if allow_external and target.startswith("https://"):
                    continue
                assert not re.match(r"^[a-z][a-z0-9+.\-]*:", target), (value, out)
                assert not target.startswith(("//", "/\\", "\\")), (value, out)
    lowered = out.lower()  # text is escaped, so a raw "<tag" can only be markup
    for word in ("<script", "<iframe", "<object", "<embed", "<style", "<form", "<svg", "<img",
                 "<meta", "<base", "<link", "<frame", "<math", "<video", "<template",
                 "<textarea", "<noscript", "<input", "<button"):
        assert word not in lowered, (word, out)


@pytest.mark.parametrize("payload", INJECTIONS)
@pytest.mark.parametrize("allow_external", [False, True])
def test_injection_is_sanitized(payload: str, allow_external: bool) -> None:
    assert_harmless(render_markdown(payload, allow_external=allow_external), allow_external)
    assert_harmless(sanitize(payload, allow_external=allow_external), allow_external)


def test_the_whole_corpus_at_once() -> None:
    text = "\n\n".join(INJECTIONS)
    assert_harmless(render_markdown(text), False)


def test_external_links_only_when_allowed() -> None:
    inside = render_markdown("[a](https://example.org/page)")
    assert "href" not in inside and "a" in inside
    allowed = render_markdown("[a](https://example.org/page)", allow_external=True)
    assert 'href="https://example.org/page"' in allowed and 'rel="noopener"' in allowed
    relative = render_markdown("[x](../other-ruling/#answer)")
    assert 'href="../other-ruling/#answer"' in relative


def test_markdown_still_works() -> None:
    out = render_markdown("**bold** and *it*\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |"
                          "\n\n`code` > quote")
    for tag in ("<strong>bold</strong>", "<em>it</em>", "<li>one</li>", "<table>",
                "<td>1</td>", "<code>code</code>"):
        assert tag in out, out
    harmless = render_markdown(HARMLESS)
    assert "<code>&lt;script&gt;</code>" in harmless and "<strong>refresh</strong>" in harmless
    assert "1 &lt; 2" in harmless


def test_term_links_are_the_only_markup_added() -> None:
    linker = TermLinker({"refresh": "refresh", "trash": "trash"},
                        {"refresh": "../../glossary/#t-refresh", "trash": "g/#t-trash"})
    out = linker.link(render_markdown(
        "<script>refresh</script> refresh, refresh and `trash` and trash\n\n"
        "[refresh](../x/) trash"))
    # first per paragraph, never inside a or code; a plain link (no class: the pages style
    # none of them, and a class on every term of every text was 0.6 KB a ruling)
    assert out.count('<a href="../../glossary/#t-refresh">refresh</a>') == 1, out
    assert out.count('<a href="g/#t-trash">trash</a>') == 2, out
    assert out.count("<a ") == 4, out  # and the author's own link
    assert_harmless(out, False)


def test_class_notation_is_text() -> None:
    """English card texts write a SIGNI class in angle brackets; it stays on the page as text
    (the sanitizer used to drop it as an unknown tag: "another  SIGNI")."""
    out = render_markdown("Banish another <Weapon> SIGNI, or an <Ancient Weapon>, "
                          "not `<Weapon>`.")
    assert "another &lt;Weapon&gt; SIGNI" in out, out
    assert "an &lt;Ancient Weapon&gt;" in out, out
    assert "<code>&lt;Weapon&gt;</code>" in out, out
    assert_harmless(out, False)
    upper = render_markdown("<SCRIPT>alert(1)</SCRIPT><IMG SRC=x ONERROR=alert(1)>")
    assert_harmless(upper, False)
    assert "&lt;SCRIPT&gt;" in upper, upper
