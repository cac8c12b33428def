"""The rows of an sqlite3 database file, read from its pages without sqlite.

sqlite refuses a database file that was cut short ("database disk image is
malformed"), yet every page before the cut still holds its rows. This walker
reads the file page by page, parses the table b-tree leaf pages (type 0x0D) and
decodes their records, following overflow chains as far as the file goes. It
knows nothing of bags or ROS: :mod:`.recovery` picks the rosbag2 tables out of
the rows by their column shapes.

Format: https://www.sqlite.org/fileformat2.html. Every loop is bounded by the
file size and every offset is checked, so garbage gives :class:`PageError` or
fewer rows, never a hang or another exception.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from typing import Iterator, Union

MAGIC = b"SQLite format 3\x00"
FILE_HEADER = 100  # bytes before page 1's b-tree header
TABLE_LEAF = 0x0D
_LOCK_BYTE = 1 << 30  # the page holding this byte is never used by sqlite

Value = Union[int, float, str, bytes, None]
Buffer = Union[bytes, mmap.mmap]

_U16 = struct.Struct(">H").unpack_from
_U32 = struct.Struct(">I").unpack_from
_F64 = struct.Struct(">d").unpack_from
_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 7: 8, 8: 0, 9: 0}
_CODECS = {1: "utf-8", 2: "utf-16-le", 3: "utf-16-be"}


class PageError(ValueError):
    """The file is not an sqlite3 database whose pages can be read (bad header)."""


class _OutOfRange(Exception):
    """A varint or value runs past the bytes it must lie in."""


@dataclass(frozen=True)
class Cell:
    """One row of a table leaf page: where its payload lies (the record is decoded on demand)."""

    page: int
    rowid: int
    offset: int  # byte offset in the file of the payload's first byte
    size: int  # payload bytes in all
    local: int  # of which on the leaf page itself
    overflow: int  # first overflow page (0: the payload is all local)


def varint(buf: Buffer, pos: int, end: int) -> tuple[int, int]:
    """sqlite's 1-9 byte big-endian varint at ``pos`` (as a signed 64-bit value) and the position after it."""
    value = 0
    for i in range(9):
        if pos + i >= end:
            raise _OutOfRange
        byte = buf[pos + i]
        if i == 8:
            value = (value << 8) | byte
            return value - (1 << 64) if value >= 1 << 63 else value, pos + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, pos + i + 1
    raise AssertionError("unreachable")  # pragma: no cover


def serial_size(serial_type: int) -> int:
    """Bytes a value of this serial type takes in the record body (-1: not a valid serial type)."""
    if serial_type >= 12:
        return (serial_type - 12) // 2
    if serial_type == 0:
        return 0
    return _INT_SIZES.get(serial_type, -1)


class SqliteFile:
    """An sqlite3 file's pages over bytes or an mmap; raises :class:`PageError` if the header is unusable."""

    def __init__(self, data: Buffer) -> None:
        self.data = data
        self.size = len(data)
        if not MAGIC.startswith(bytes(data[:16])) or (self.size >= 16 and data[:16] != MAGIC):
            raise PageError("not an sqlite3 file (no 'SQLite format 3' header)")
        if self.size < FILE_HEADER:
            raise PageError(f"file ends inside the sqlite3 header (byte {self.size})")
        raw = _U16(data, 16)[0]
        self.page_size = 65536 if raw == 1 else raw
        if self.page_size < 512 or self.page_size & (self.page_size - 1):
            raise PageError(f"page size {raw} in the sqlite3 header is invalid (byte 16)")
        self.usable = self.page_size - data[20]
        if self.usable < 480:
            raise PageError(f"{data[20]} reserved bytes per page in the sqlite3 header is invalid (byte 20)")
        encoding = _U32(data, 56)[0]
        if encoding not in (0, 1, 2, 3):  # 0: not yet set (an empty database)
            raise PageError(f"text encoding {encoding} in the sqlite3 header is invalid (byte 56)")
        self.codec = _CODECS.get(encoding, "utf-8")
        # the database size in pages, valid only if written by a version that keeps it (change counter check)
        counted = _U32(data, 28)[0]
        self.header_pages = counted if counted and _U32(data, 24)[0] == _U32(data, 92)[0] else None
        in_file = -(-self.size // self.page_size)  # pages at least partly present
        self.pages = min(in_file, self.header_pages) if self.header_pages else in_file
        self._free = self._freelist()

    @property
    def expected_size(self) -> int | None:
        """The file's size according to its header, when the header says."""
        return self.header_pages * self.page_size if self.header_pages else None

    @property
    def truncated(self) -> bool:
        expected = self.expected_size
        return self.size % self.page_size != 0 or (expected is not None and self.size < expected)

    def _page_start(self, page: int) -> int:
        return (page - 1) * self.page_size

    def _freelist(self) -> set[int]:
        """Pages on the freelist (their old content is stale, not rows); as far as the chain can be read."""
        free: set[int] = set()
        trunk = _U32(self.data, 32)[0]
        leaf_max = (self.usable - 8) // 4
        while 1 < trunk <= self.pages and trunk not in free:
            start = self._page_start(trunk)
            if start + 8 > self.size:
                break
            free.add(trunk)
            nxt, count = _U32(self.data, start)[0], _U32(self.data, start + 4)[0]
            for i in range(min(count, leaf_max)):
                pos = start + 8 + 4 * i
                if pos + 4 > self.size:
                    break
                free.add(_U32(self.data, pos)[0])
            trunk = nxt
        return free

    # --- cells ----------------------------------------------------------------------------
    def cells(self) -> Iterator[Cell]:
        """Every cell of every whole table leaf page, in page order (rows of all tables, mixed).

        A page cut by the file's end is left out: a leaf fills from its end, so the cut
        takes its oldest rows and keeps newer ones, which would leave a gap in the rows.
        """
        lock_page = _LOCK_BYTE // self.page_size + 1
        for page in range(1, min(self.pages, self.size // self.page_size) + 1):
            if page in self._free or page == lock_page:
                continue
            yield from self.page_cells(page)

    def page_cells(self, page: int) -> Iterator[Cell]:
        """The cells of one page if it is a table leaf page; those cut off by the file's end are left out."""
        base = self._page_start(page)
        head = base + (FILE_HEADER if page == 1 else 0)
        end = min(base + self.usable, self.size)  # a cut page is read as far as it goes
        if head + 8 > end or self.data[head] != TABLE_LEAF:
            return
        count = _U16(self.data, head + 3)[0]
        pointers = head + 8
        if pointers + 2 * count > base + self.usable:
            return  # more cells than fit: not a real leaf page
        first_cell = pointers + 2 * count - base
        for i in range(count):
            if pointers + 2 * i + 2 > end:
                return
            ptr = _U16(self.data, pointers + 2 * i)[0]
            if ptr < first_cell or base + ptr >= end:
                continue
            try:
                cell = self._cell(page, base + ptr, end)
            except _OutOfRange:
                continue
            if cell is not None:
                yield cell

    def _cell(self, page: int, pos: int, end: int) -> Cell | None:
        size, pos = varint(self.data, pos, end)
        rowid, pos = varint(self.data, pos, end)
        if size < 0 or size > self.size:
            return None
        local = self._local_size(size)
        if pos + local > end:
            return None
        overflow = 0
        if local < size:
            if pos + local + 4 > end:
                return None
            overflow = _U32(self.data, pos + local)[0]
        return Cell(page, rowid, pos, size, local, overflow)

    def _local_size(self, size: int) -> int:
        """Payload bytes kept on a table leaf page (the file format's max local / min local rule)."""
        usable = self.usable
        max_local = usable - 35
        if size <= max_local:
            return size
        min_local = (usable - 12) * 32 // 255 - 23
        k = min_local + (size - min_local) % (usable - 4)
        return k if k <= max_local else min_local

    # --- payloads and records -------------------------------------------------------------
    def payload(self, cell: Cell, limit: int | None = None) -> bytes | None:
        """The first ``limit`` bytes of the payload (all of it by default); None if an overflow page is missing."""
        want = cell.size if limit is None else min(limit, cell.size)
        if want <= cell.local:
            return bytes(self.data[cell.offset : cell.offset + want])
        parts = [bytes(self.data[cell.offset : cell.offset + cell.local])]
        have = cell.local
        page, seen = cell.overflow, 0
        chunk = self.usable - 4
        while have < want:
            seen += 1
            if not 1 < page <= self.pages or seen > self.pages:
                return None  # the chain leaves the file (cut off) or loops
            start = self._page_start(page)
            take = min(chunk, cell.size - have)
            data = bytes(self.data[start + 4 : start + 4 + take])
            if len(data) < take:
                return None
            parts.append(data)
            have += take
            page = _U32(self.data, start)[0]
        return b"".join(parts)[:want]

    def record_types(self, cell: Cell) -> tuple[tuple[int, ...], int] | None:
        """The record's serial types and header size; None if the header is not a valid record header."""
        first = self.payload(cell, 9)
        if first is None:
            return None
        try:
            header_size, pos = varint(first, 0, len(first))
            if header_size < pos or header_size > cell.size:
                return None
            head = first if header_size <= len(first) else self.payload(cell, header_size)
            if head is None:
                return None
            types = []
            body = 0
            while pos < header_size:
                serial_type, pos = varint(head, pos, header_size)
                size = serial_size(serial_type)
                if size < 0:
                    return None
                types.append(serial_type)
                body += size
        except _OutOfRange:
            return None
        if pos != header_size or header_size + body != cell.size:
            return None
        return tuple(types), header_size

    def record(self, cell: Cell, columns: int | None = None) -> list[Value] | None:
        """The record's values (the first ``columns`` of them); None if it is not a valid record or is cut off."""
        parsed = self.record_types(cell)
        if parsed is None:
            return None
        types, pos = parsed
        types = types[:columns] if columns is not None else types
        data = self.payload(cell, pos + sum(serial_size(t) for t in types))
        if data is None:
            return None
        values: list[Value] = []
        for serial_type in types:
            size = serial_size(serial_type)
            raw = data[pos : pos + size]
            pos += size
            if serial_type == 0:
                values.append(None)
            elif serial_type == 7:
                values.append(_F64(raw)[0])
            elif serial_type in (8, 9):
                values.append(serial_type - 8)
            elif serial_type < 12:
                values.append(int.from_bytes(raw, "big", signed=True))
            elif serial_type % 2:
                values.append(raw.decode(self.codec, errors="replace"))
            else:
                values.append(raw)
        return values

    def rows(self) -> Iterator[tuple[Cell, list[Value]]]:
        """Every decodable row of every table leaf page, with its cell (page, rowid)."""
        for cell in self.cells():
            values = self.record(cell)
            if values is not None:
                yield cell, values
