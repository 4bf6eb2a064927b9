"""What players type and others read (chat lines, display names): the rule that keeps a
stack of combining marks from drawing over the neighbouring text, shared by both."""
import unicodedata

MAX_COMBINING = 2  # combining marks kept after one base character


def cap_combining(text, limit=MAX_COMBINING):
    """`text` (str) with at most `limit` combining marks after each base character (the
    rest dropped); str. A flood of marks draws over the lines above and below."""
    out, marks = [], 0
    for char in text:
        if unicodedata.combining(char):
            marks += 1
            if marks > limit:
                continue
        else:
            marks = 0
        out.append(char)
    return "".join(out)
