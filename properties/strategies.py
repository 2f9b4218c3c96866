"""Hypothesis strategies shared by every property suite, one headed section per topic."""

from __future__ import annotations

from hypothesis import strategies as st

# --- seed 000: split_section / assemble ----------------------------------------------------


# --- seed 001 / 003: Markdown documents, block lists, sentences (issue 5) -------------------

_md_words = st.sampled_from(
    ["alpha", "beta", "#", "##", "|", "-", "*", "```", "~~~", "x.", "Yes!", "(a)", ":"]
)


@st.composite
def md_fragment(draw: st.DrawFn) -> str:
    """One Markdown construct: heading (ATX or setext), paragraph, fence, table, list..."""
    words = draw(st.lists(_md_words, min_size=1, max_size=6))
    text = " ".join(words)
    kind = draw(st.integers(0, 11))
    if kind == 0:
        return "#" * draw(st.integers(1, 7)) + " " + text
    if kind == 1:
        return text + "\n" + draw(st.sampled_from(["===", "---", "-"]))
    if kind == 2:
        fence = draw(st.sampled_from(["```", "~~~", "````", "~~~~~"]))
        body = draw(st.sampled_from(["# not a heading", "```", "| a |", text]))
        closed = draw(st.booleans())
        return f"{fence}\n{body}\n{text}" + (f"\n{fence}" if closed else "")
    if kind == 3:
        return "    " + text + "\n    # code"
    if kind == 4:
        rows = draw(st.integers(0, 4))
        return "| a | b |\n|---|---|" + "".join(f"\n| {text} | {r} |" for r in range(rows))
    if kind == 5:
        return "\n".join(f"- {w}" for w in words)
    if kind == 6:
        return "> " + text + "\n> # quoted"
    if kind == 7:
        return "[ref]: /url"
    if kind == 8:
        return f"{words[0]}\n: {text}"
    if kind == 9:
        return draw(st.sampled_from([" ", "\t", "\u00a0", "\x0c", "***"]))
    return text


@st.composite
def markdown_documents(draw: st.DrawFn) -> str:
    """A Markdown document of random fragments joined by one or two line breaks."""
    parts = draw(st.lists(md_fragment(), max_size=12))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    out = ""
    for part in parts:
        out += part + newline * draw(st.integers(1, 2))
    return out.replace("\n", newline) if newline != "\n" else out


#: Text for the sentence splitter: terminators, closers, whitespace and letters.
sentence_text = st.text(alphabet=st.sampled_from([*list("ab .!?)\"'\n\t…。"), "\xa0"]), max_size=60)
