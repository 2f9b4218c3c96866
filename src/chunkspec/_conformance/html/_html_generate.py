"""Generated ``read_html`` cases (CONF-10): broken markup, one input class a case.

A page is ONE integer draw and ONE byte-string draw. The integer picks the case's class and
options; each byte of the string picks a fragment of markup: from the class's own table when
its low bit is set, else from the well-formed table (so a class's fragments sit among
ordinary content, as on real pages); the first fragment is always the class's own. The
classes and their shares (a class is drawn for ``1 / len(classes)`` of the cases; the
profile's classes are stated in docs/spec/conformance.md, CONF-13):

* well-formed markup only (HTML-3..HTML-14);
* unclosed tags: implied end tags, an unclosed cell or list (HTML-6, HTML-8);
* misnested inline tags: the adoption agency and the reconstruction of the active
  formatting elements (HTML-6, HTML-19);
* stray end tags (``</p>``, ``</br>``, ``</>``: HTML-6, HTML-19);
* tables with stray text or elements: foster parenting (HTML-10, HTML-20);
* comments, bogus comments and processing instructions inside text (HTML-19);
* character references: named, legacy without ``;``, numeric and the replaced ones (HTML-19);
* (hazards) CRLF, CR and NUL (HTML-18, HTML-19);
* (hazards) astral and other non-ASCII characters (HTML-18, SOURCE-2).

In the hazards profile one case in 32 holds a lone surrogate between two fragments (HAZ-4;
not inside a tag: turbohtml refuses one in an attribute name, a UnicodeDecodeError). One
case in eight opens with a doctype, one in four keeps the furniture (HTML-11), one in
sixteen passes a markup or ``keep_furniture`` of the wrong type (CONF-10). ``select`` is left
out: turbohtml parses it by the 2025 customizable-select rules, parse5 8 by the earlier ones
(docs/portability.md), and its content is never text either way.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

__all__ = ["CLASSES", "html_cases"]

_WELL = [
    "<p>a b</p>",
    "<h1>Title</h1>",
    '<h2 id=s>Sub <a href="#s">\u00b6</a></h2>',
    "<ul><li>one</li><li>two<ul><li>in</li></ul></li></ul>",
    "<ol><li>x</li></ol>",
    "<table><thead><tr><th>h</th><th>k</th></tr></thead><tbody><tr><td>1</td><td>2</td>"
    "</tr></tbody></table>",
    "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td></td></tr></table>",
    "<table><tr><th>a</th></tr><tr><td>1</td></tr><tr><th>b</th></tr></table>",
    "<table><thead><tr><td>h</td></tr></thead><tr><td>1</td></tr></table>",
    "<pre>\n  code\n\tx  y\n</pre>",
    "<blockquote><p>q r</p></blockquote>",
    "<div>d <span>s</span>  e</div>",
    "<dl><dt>t</dt><dd>d</dd></dl>",
    "words here",
    "  \n  ",
    "<br>",
    "<p>a<br>b</p>",
    "<h3>a<br>b</h3>",
    "<nav>menu</nav>",
    "<header>Site</header>",
    "<footer>Foot</footer>",
    "<aside>side</aside>",
    "<main><p>main</p></main>",
    "<article><header>own</header>art</article>",
    "<title> The  title </title>",
    '<meta name=description content=" D  d ">',
    "<html lang=fr>",
    "<figure>f<figcaption>cap</figcaption></figure>",
    "<script>var x = '<p>';</script>",
    "<p hidden>gone</p>",
    '<div style="display: none">gone</div>',
    '<h2>Q<a class=headerlink href="#q">#</a></h2>',
    '<h3>fn(x) <a href="https://example.org/src/x.js#L3">[src]</a></h3>',
    "<ul><li><pre>p  \n</pre>after</li></ul>",
    "<p>  spaced   out  </p>",
    "<textarea> t  a</textarea>",
    "<div role=heading aria-level=3>R</div>",
    "<noscript>ns</noscript>",
    "<button>Copy</button>",
    '<div id="cookie-consent">ok</div>',
    "<hr>",
    "<section><p>in section</p></section>",
]
_UNCLOSED = [
    "<p>open",
    "<li>item",
    "<b>bold",
    "<div>",
    "<td>cell",
    "<h2>head",
    "<ul><li>a<li>b",
    "<table><tr><td>a<td>b",
    "<pre>pre",
    '<a href="#">link',
    "<dl><dt>t<dd>d",
    "<span>",
    "<table><tr><th>x<th>y<tr><td>1",
]
_MISNESTED = [
    "<b>1<i>2</b>3</i>",
    "<b><p>x</b>y</p>",
    "<a href=x>1<a href=y>2</a>",
    "<i>a<div>b</i>c</div>",
    "<p><table><tr><td>t</table>",
    "<em>e<strong>s</em>t</strong>",
    "<font><p>f</font>g",
    "<p><b>x</p>y</b>",
    "<nobr>n<nobr>m",
    "<b><table><td>c</b></table>",
]
_STRAY = [
    "</p>",
    "</div>",
    "</b>",
    "</br>",
    "</li>",
    "</table>",
    "</>",
    "</h1>",
    '</x y=">">',
    "</td>",
    "</html>",
    "</body>",
]
_TABLE_STRAY = [
    "<table>stray<tr><td>c</td></tr></table>",
    "<table><tr>t<td>c</td></tr>u</table>",
    "<table> <tr><td>a</td></tr> x</table>",
    "<table><b>b</b><tr><td>c</table>",
    "<table><tr><td>c</td></tr><p>p</p></table>",
    "<table><caption>cap</caption>text<tr><td>d</table>",
    "<table><tbody>s<tr><td>1</td></tr></tbody></table>",
]
_COMMENTS = [
    "a<!-- c -->b",
    "<!---->",
    "x<!-->y",
    "<!-- unclosed",
    "<?pi x?>",
    "<!bogus>",
    "a<!--c--!>b",
    "<p>x<!--\n-->y</p>",
    "<p>a <!-- c --> b</p>",
    "<h2>h<!-- c -->i</h2>",
]
_ENTITIES = [
    "&amp;",
    "&lt;b&gt;",
    "&copy 2024",
    "&notit;",
    "&#x41;",
    "&#65",
    "&#128;",
    "&#0;",
    "&#x110000;",
    "&nbsp;x",
    "<p>&nbsp;</p>",
    "&AMP",
    "&ampx",
    "&eacute;t&eacute;",
    "&#xD800;",
    "&unknown;",
    "& alone",
    "&#x1F600;",
    "<p>a &amp; b</p>",
    "<pre>&lt;x&gt;\n&amp;</pre>",
    "<td>&hellip;",
]
_CRLF_NUL = [
    "\r\n",
    "\r",
    "a\r\nb",
    "<pre>\r\n\r\nx\r\ny</pre>",
    "x\0y",
    "<p>\0</p>",
    "<textarea>\0t</textarea>",
    "<p>a\r\n  b</p>",
    "<table>\r\n<tr><td>c\r\n</table>",
    "<!--\r\n-->",
]
_ASTRAL = [
    "\U0001f600",
    "<p>x\U0001f600y</p>",
    "<h1>\U0001d413</h1>",
    "<pre>\U0001f600\n</pre>",
    "<td>\U00010348",
    "&#x1F600;",
    "\u00e9",
    "<p>\u00a0\u3000</p>",
    "<p>\U0001f600 \U0001f600</p>",
    "<title>\U0001f600</title>",
]

#: The input classes of the generator, each with its fragment table, in draw order.
CLASSES: tuple[tuple[str, list[str]], ...] = (
    ("well-formed", _WELL),
    ("unclosed tags", _UNCLOSED),
    ("misnested inline tags", _MISNESTED),
    ("stray end tags", _STRAY),
    ("tables with stray text", _TABLE_STRAY),
    ("comments in text", _COMMENTS),
    ("entities", _ENTITIES),
    ("CRLF and NUL", _CRLF_NUL),
    ("astral characters", _ASTRAL),
)
#: The portable profile's classes: all but the last two.
_PORTABLE = 7

#: HAZ-4: a lone high and a lone low surrogate.
_LONE = ("\ud800", "\udc00")

_BAD_VALUES: list[Any] = [None, 3, ["<p>"], {"markup": "<p>"}, True]


def html_cases(hazards: bool) -> dict[str, st.SearchStrategy[tuple[str, dict[str, Any]]]]:
    """``read_html``'s generated cases in the profile."""
    count = len(CLASSES) if hazards else _PORTABLE

    def build(args: tuple[int, bytes]) -> tuple[str, dict[str, Any]]:
        pick, raw = args
        _, own = CLASSES[pick % count]
        rest = pick // count
        parts = [own[raw[0] % len(own)] if raw else own[0]]
        for byte in raw[1:]:
            table = own if byte & 1 else _WELL
            parts.append(table[(byte >> 1) % len(table)])
        if hazards and rest % 32 == 5:  # a lone surrogate (HAZ-4) between two fragments
            parts.insert(len(parts) // 2, _LONE[rest // 32 % 2])
        markup = "".join(parts)
        if rest % 8 == 1:
            markup = "<!DOCTYPE html>" + markup
        data: dict[str, Any] = {"markup": markup}
        if rest % 4 == 3:
            data["keep_furniture"] = True
        bad = rest // 8
        if bad % 16 == 15:
            wrong = _BAD_VALUES[(bad // 16) % len(_BAD_VALUES)]
            if (bad // 16) % 2:
                data["markup"] = wrong
            else:
                data["keep_furniture"] = "yes" if wrong is True else wrong
        return "read_html", data

    return {
        "read_html": st.tuples(st.integers(0, 2**20 - 1), st.binary(min_size=1, max_size=14)).map(
            build
        )
    }
