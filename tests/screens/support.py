"""A small HTML reader for the screen tests: find an element, its text, the field a message
stands next to. Standard library only (``html.parser``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

from audit.models import AuditEvent

# The cards of the hand the fixtures play (conftest.py), deterministic once the DP is known
# (R1: 21 distinct cards).
# The dealer qualifies with a three-card K-9-4 flush (R4); the first spot has a four-card heart
# flush (it beats the dealer, R2), the second a two-card flush (it folds).
DEALER_CARDS = "Ks 9s 4s 2c 7h 8c 3c"
STRONG = "Ah Th 6h 2h Jd 5c 9c"
WEAK = "Qh 8h 3d 4c Td 6s Js"

# A high-card draw (R16) that gives the button to seat 3: the ace is the highest card.
DRAW_SEAT_3 = {1: "2c", 3: "Ah", 5: "Kd"}

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    @property
    def text(self) -> str:
        """The text inside, whitespace collapsed."""
        return re.sub(r"\s+", " ", "".join(self._texts())).strip()

    def _texts(self) -> Iterator[str]:
        for child in self.children:
            if isinstance(child, str):
                yield child
            else:
                yield from child._texts()

    def iter(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(self, tag: str | None = None, **attrs: str) -> list[Node]:
        """Descendants by tag and exact attribute values (``class_`` for ``class``; a class
        matches any one of the element's classes)."""
        found = []
        for node in self.iter():
            if tag is not None and node.tag != tag:
                continue
            if all(_matches(node, name.rstrip("_"), value) for name, value in attrs.items()):
                found.append(node)
        return found

    def find(self, tag: str | None = None, **attrs: str) -> Node:
        """The one descendant that matches; fails the test when there is none or several."""
        found = self.find_all(tag, **attrs)
        assert len(found) == 1, f"{len(found)} <{tag or '*'} {attrs}> found, expected 1"
        return found[0]

    def by_id(self, id_: str) -> Node:
        return self.find(id=id_)

    def closest(self, tag: str) -> Node:
        node = self.parent
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None, f"no <{tag}> around {self!r}"
        return node


def _matches(node: Node, name: str, value: str) -> bool:
    if name == "class":
        return value in node.attrs.get("class", "").split()
    return node.attrs.get(name) == value


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v if v is not None else "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(
            Node(tag, {k: v if v is not None else "" for k, v in attrs}, self.current)
        )

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:  # a stray end tag is ignored
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(html: str | bytes) -> Node:
    builder = _Builder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    builder.close()
    return builder.root


def cells(row: Node) -> list[Node]:
    """A table row's own cells (``th`` and ``td``), not those of a table nested in one."""
    return [c for c in row.children if isinstance(c, Node) and c.tag in ("th", "td")]


def table_rows(table: Node) -> list[Node]:
    """A table's own rows, not those of a table nested in one of its cells."""
    return [row for row in table.find_all("tr") if row.closest("table") is table]


def paytable_cells(table: Node) -> list[list[str]]:
    """A paytable as the screen shows it (``table.paytable``), row by row, cell by cell:
    ``[["Flush of", "Pays"], ["4 cards", "2 to 1"], …]``."""
    assert "paytable" in table.attrs.get("class", "").split(), table
    return [[cell.text for cell in cells(row)] for row in table_rows(table)]


def paytable_read(table: Node) -> str:
    """A paytable shown as a table, read back as the floor types it: ``4:2, 5:10``. Checks
    its header (``… of``, ``Pays``), then one data row per size: its size and what it pays."""
    header, *lines = table_rows(table)
    assert [c.tag for c in cells(header)] == ["th", "th"]
    assert cells(header)[0].text.endswith(" of") and cells(header)[1].text == "Pays"
    read = []
    for row in lines:
        size, pays = cells(row)
        assert (size.tag, pays.tag) == ("td", "td")
        read.append(f"{size.text.removesuffix(' cards')}:{pays.text.removesuffix(' to 1')}")
    return ", ".join(read)


def field_errors(form: Node, name: str) -> list[str]:
    """The messages shown next to the field ``name`` of ``form``: the error list in the same
    box (``<div>``) as the input. The input is marked invalid and points at that list."""
    field = form.find(name=name)
    box = field.parent
    assert box is not None
    lists = box.find_all("ul", class_="errorlist")
    described = field.attrs.get("aria-describedby", "").split()
    assert not lists or any(ul.attrs.get("id") in described for ul in lists), (
        f"{name}: the input does not point at its error list"
    )
    return [li.text for ul in lists for li in ul.find_all("li")]


def error_summary(page: Node) -> list[str]:
    found = page.find_all(id="error-summary")
    return [li.text for li in found[0].find_all("li")] if found else []


def last_seq() -> int:
    event = AuditEvent.objects.order_by("-seq").first()
    return event.seq if event else 0


def form_values(form: Node) -> dict[str, str]:
    """What a browser would post for ``form`` as it stands: its text, hidden and number inputs,
    textareas and selected options (buttons and unchecked boxes left out)."""
    values: dict[str, str] = {}
    for node in form.iter():
        name = node.attrs.get("name")
        if not name:
            continue
        if node.tag == "input" and node.attrs.get("type", "text") in (
            "text",
            "hidden",
            "number",
            "password",
            "date",
            "datetime-local",
        ):
            values[name] = node.attrs.get("value", "")
        elif node.tag == "input" and node.attrs.get("type") in ("checkbox", "radio"):
            if "checked" in node.attrs:
                values[name] = node.attrs.get("value", "on")
        elif node.tag == "textarea":
            values[name] = "".join(c for c in node.children if isinstance(c, str)).lstrip("\n")
        elif node.tag == "select":
            chosen = [o for o in node.find_all("option") if "selected" in o.attrs]
            values[name] = chosen[0].attrs.get("value", "") if chosen else ""
    return values
