"""A tiny DOM built with the standard library's HTML parser, enough to check rendered pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"meta", "link", "br", "hr", "img", "input", "source", "wbr", "col", "area", "base", "embed", "track"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    parent: "Node | None" = None
    children: list["Node | str"] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self, skip: frozenset[str] = frozenset()) -> str:
        """Concatenated text, leaving out the subtrees of elements with any class in ``skip``."""
        out = []
        for c in self.children:
            if isinstance(c, str):
                out.append(c)
            elif not (c.classes & skip):
                out.append(c.text(skip))
        return "".join(out)

    def iter(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list["Node"]:
        return [n for n in self.iter() if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.cur = self.root
        self.unclosed: list[str] = []

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, dict(attrs), self.cur))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.cur.tag != tag:  # a renderer bug: report it instead of guessing
            self.unclosed.append(f"</{tag}> closes <{self.cur.tag}>")
            return
        self.cur = self.cur.parent or self.root

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(page: str) -> Node:
    b = _Builder()
    b.feed(page)
    b.close()
    assert not b.unclosed, b.unclosed[:5]
    assert b.cur is b.root, f"<{b.cur.tag}> never closed"
    return b.root
