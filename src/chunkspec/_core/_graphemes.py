"""Extended grapheme clusters: UAX #29's rules GB3..GB999 without ICU (rules SCRIPT-4, SCRIPT-5).

The property data comes from :mod:`unicodedata` (general categories, at
``unicodedata.unidata_version``, 14.0.0 on Python 3.11) plus four short tables written out
here, so a port builds exactly the same boundaries: Hangul syllable types (arithmetic on
U+AC00..U+D7A3 and the jamo ranges), Prepend, the Myanmar/Tai Tham marks that are not
SpacingMark, and Extended_Pictographic (emoji-data 14.0, ranges merged). Unicode 14 has no
rule GB9c (Indic conjuncts, added in 15.1), so neither do we (HAZ-18).
"""

from __future__ import annotations

import bisect
import re
import unicodedata

__all__ = ["UNICODE_VERSION", "grapheme_bounds", "is_simple"]

#: The Unicode version of the general categories the rules read (SCRIPT-4).
UNICODE_VERSION = unicodedata.unidata_version

# The break classes of UAX #29 table 2, as small ints.
_OTHER, _CR, _LF, _CONTROL, _EXTEND, _ZWJ, _RI, _PREPEND, _SPACING = range(9)
_L, _V, _T, _LV, _LVT = range(9, 14)

#: Prepend (Grapheme_Cluster_Break=Prepend, Unicode 14.0), rule GB9b.
_PREPEND_RANGES = (
    (0x0600, 0x0605),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x0D4E, 0x0D4E),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x111C2, 0x111C3),
    (0x1193F, 0x1193F),
    (0x11941, 0x11941),
    (0x11A3A, 0x11A3A),
    (0x11A84, 0x11A89),
    (0x11D46, 0x11D46),
)

#: Spacing marks (gc=Mc) that UAX #29 does not count as SpacingMark: a cluster breaks before them.
_NOT_SPACING = (
    (0x102B, 0x102C),
    (0x1038, 0x1038),
    (0x1062, 0x1064),
    (0x1067, 0x106D),
    (0x1083, 0x1083),
    (0x1087, 0x108C),
    (0x108F, 0x108F),
    (0x109A, 0x109C),
    (0x1A61, 0x1A61),
    (0x1A63, 0x1A64),
    (0xAA7B, 0xAA7B),
    (0xAA7D, 0xAA7D),
    (0x11720, 0x11721),
)

#: Extended_Pictographic (emoji-data 14.0, adjacent ranges merged), rule GB11.
EXTENDED_PICTOGRAPHIC = (
    (0x00A9, 0x00A9),
    (0x00AE, 0x00AE),
    (0x203C, 0x203C),
    (0x2049, 0x2049),
    (0x2122, 0x2122),
    (0x2139, 0x2139),
    (0x2194, 0x2199),
    (0x21A9, 0x21AA),
    (0x231A, 0x231B),
    (0x2328, 0x2328),
    (0x2388, 0x2388),
    (0x23CF, 0x23CF),
    (0x23E9, 0x23F3),
    (0x23F8, 0x23FA),
    (0x24C2, 0x24C2),
    (0x25AA, 0x25AB),
    (0x25B6, 0x25B6),
    (0x25C0, 0x25C0),
    (0x25FB, 0x25FE),
    (0x2600, 0x2605),
    (0x2607, 0x2612),
    (0x2614, 0x2685),
    (0x2690, 0x2705),
    (0x2708, 0x2712),
    (0x2714, 0x2714),
    (0x2716, 0x2716),
    (0x271D, 0x271D),
    (0x2721, 0x2721),
    (0x2728, 0x2728),
    (0x2733, 0x2734),
    (0x2744, 0x2744),
    (0x2747, 0x2747),
    (0x274C, 0x274C),
    (0x274E, 0x274E),
    (0x2753, 0x2755),
    (0x2757, 0x2757),
    (0x2763, 0x2767),
    (0x2795, 0x2797),
    (0x27A1, 0x27A1),
    (0x27B0, 0x27B0),
    (0x27BF, 0x27BF),
    (0x2934, 0x2935),
    (0x2B05, 0x2B07),
    (0x2B1B, 0x2B1C),
    (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
    (0x3030, 0x3030),
    (0x303D, 0x303D),
    (0x3297, 0x3297),
    (0x3299, 0x3299),
    (0x1F000, 0x1F0FF),
    (0x1F10D, 0x1F10F),
    (0x1F12F, 0x1F12F),
    (0x1F16C, 0x1F171),
    (0x1F17E, 0x1F17F),
    (0x1F18E, 0x1F18E),
    (0x1F191, 0x1F19A),
    (0x1F1AD, 0x1F1E5),
    (0x1F201, 0x1F20F),
    (0x1F21A, 0x1F21A),
    (0x1F22F, 0x1F22F),
    (0x1F232, 0x1F23A),
    (0x1F23C, 0x1F23F),
    (0x1F249, 0x1F3FA),
    (0x1F400, 0x1F53D),
    (0x1F546, 0x1F64F),
    (0x1F680, 0x1F6FF),
    (0x1F774, 0x1F77F),
    (0x1F7D5, 0x1F7FF),
    (0x1F80C, 0x1F80F),
    (0x1F848, 0x1F84F),
    (0x1F85A, 0x1F85F),
    (0x1F888, 0x1F88F),
    (0x1F8AE, 0x1F8FF),
    (0x1F90C, 0x1F93A),
    (0x1F93C, 0x1F945),
    (0x1F947, 0x1FAFF),
    (0x1FC00, 0x1FFFD),
)

#: Unassigned default-ignorable code points: Control, as UAX #29 says.
_IGNORABLE_UNASSIGNED = (
    (0x2065, 0x2065),
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE0000),
    (0xE0002, 0xE001F),
    (0xE0080, 0xE00FF),
    (0xE01F0, 0xE0FFF),
)


def _table(ranges: tuple[tuple[int, int], ...]) -> tuple[list[int], list[int]]:
    """Return the starts and ends of sorted disjoint ranges, for bisection."""
    return [a for a, _ in ranges], [b for _, b in ranges]


def _in(table: tuple[list[int], list[int]], cp: int) -> bool:
    """Return True if ``cp`` lies in one of the table's ranges."""
    i = bisect.bisect_right(table[0], cp) - 1
    return i >= 0 and cp <= table[1][i]


_PREPEND_TABLE = _table(_PREPEND_RANGES)
_NOT_SPACING_TABLE = _table(_NOT_SPACING)
_PICTOGRAPHIC = _table(EXTENDED_PICTOGRAPHIC)
_IGNORABLE = _table(_IGNORABLE_UNASSIGNED)


def _break_class(ch: str) -> int:
    """Return the Grapheme_Cluster_Break class of ``ch`` (SCRIPT-4's property table)."""
    cp = ord(ch)
    if cp == 0x0D:
        return _CR
    if cp == 0x0A:
        return _LF
    if cp == 0x200D:
        return _ZWJ
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return _RI
    if 0xAC00 <= cp <= 0xD7A3:
        return _LV if (cp - 0xAC00) % 28 == 0 else _LVT
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return _L
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return _V
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return _T
    if (
        cp == 0x200C
        or 0xFF9E <= cp <= 0xFF9F
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
    ):
        return _EXTEND
    if _in(_PREPEND_TABLE, cp):
        return _PREPEND
    if cp in (0x0E33, 0x0EB3):
        return _SPACING
    category = unicodedata.category(ch)
    if category in ("Mn", "Me"):
        return _EXTEND
    if category == "Mc":
        return _OTHER if _in(_NOT_SPACING_TABLE, cp) else _SPACING
    if category in ("Cc", "Zl", "Zp", "Cf", "Cs"):
        return _CONTROL
    if category == "Cn" and _in(_IGNORABLE, cp):
        return _CONTROL
    return _OTHER


_CLASSES: dict[str, int] = {}

#: Characters that may join the one before them or the one after (all but Other/Control
#: with no pictograph): a text without them has a boundary at every code point.
_JOINERS = re.compile(
    "[\r\u200c\u200d\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0600-\u0605\u0610-\u061a"
    "\u064b-\u065f\u0670\u06d6-\u06ed\u0700-\u1fff\u20d0-\u20ff\u2cef-\u2cf1\u2d7f"
    "\u2de0-\u2dff\u302a-\u302f\u3099\u309a\ua000-\uabff\uac00-\ud7ff\ufb1e\ufe00-\ufe0f"
    "\ufe20-\ufe2f\uff9e\uff9f\U00010000-\U0010ffff]"
)


def is_simple(text: str, start: int = 0, end: int | None = None) -> bool:
    """Return True if every code point of ``text[start:end]`` is a cluster of its own.

    A fast test with false negatives only: it says no for anything that might join.
    """
    stop = len(text) if end is None else end
    return _JOINERS.search(text, start, stop) is None


def _class(ch: str) -> int:
    """Return the cached break class of ``ch``."""
    found = _CLASSES.get(ch)
    if found is None:
        found = _CLASSES[ch] = _break_class(ch)
    return found


def grapheme_bounds(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """Return the cluster boundaries of ``text[start:end]``: ``start``, ..., ``end``.

    Rule SCRIPT-4: UAX #29 extended grapheme clusters, rules GB3 to GB13 and GB999
    (no GB9c); the first and last offsets are always boundaries, so a region that starts
    inside a cluster is read as if the text began there.
    """
    stop = len(text) if end is None else end
    if start >= stop:
        return [start]
    if is_simple(text, start, stop):
        return list(range(start, stop + 1))
    bounds = [start]
    previous = _class(text[start])
    pictograph = _in(_PICTOGRAPHIC, ord(text[start]))  # ExtPict Extend* so far (GB11)
    after_zwj = False  # the cluster so far is ExtPict Extend* ZWJ
    regional = 1 if previous == _RI else 0  # RIs in a row before here (GB12, GB13)
    for i in range(start + 1, stop):
        ch = text[i]
        current = _class(ch)
        joined = _joins(previous, current)
        if not joined and current == _RI and previous == _RI and regional % 2 == 1:
            joined = True  # GB12, GB13: a pair of regional indicators
        is_pict = current == _OTHER and _in(_PICTOGRAPHIC, ord(ch))
        if not joined and after_zwj and is_pict:
            joined = True  # GB11
        if joined:
            after_zwj = pictograph and current == _ZWJ
            if current != _EXTEND:
                pictograph = is_pict
        else:
            bounds.append(i)
            pictograph = is_pict
            after_zwj = False
        regional = regional + 1 if current == _RI else 0
        previous = current
    bounds.append(stop)
    return bounds


def _joins(previous: int, current: int) -> bool:
    """Rules GB3 to GB9b: True when there is no boundary between the two classes."""
    if previous == _CR:
        return current == _LF  # GB3, GB4
    if previous in (_LF, _CONTROL) or current in (_CR, _LF, _CONTROL):
        return False  # GB4, GB5
    if previous == _L:
        if current in (_L, _V, _LV, _LVT):
            return True  # GB6
    elif previous in (_LV, _V):
        if current in (_V, _T):
            return True  # GB7
    elif previous in (_LVT, _T) and current == _T:
        return True  # GB8
    if current in (_EXTEND, _ZWJ, _SPACING):
        return True  # GB9, GB9a
    return previous == _PREPEND  # GB9b
