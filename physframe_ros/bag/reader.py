"""Raw TF and stamped messages out of ROS 1 and ROS 2 bags, through ``rosbags`` but without its deserializer.

A bag yields ``(topic, receive_time_s, static, raw_bytes, format)`` per TF message,
``format`` being ``"cdr"`` (ROS 2) or ``"ros1"``: the bytes go straight to the core's
struct-based decoders, so no Python message object is ever built.

Opens a rosbag2 directory (``metadata.yaml``; sqlite3 or MCAP storage, split and
zstd-compressed bags included), a single ``.db3`` or ``.mcap`` file, or a ROS 1
``.bag``. A bag whose index is missing (cut short) is read from the front as far as
it goes; the error that ends it names the file and the byte where it broke. A
``.db3`` that sqlite refuses (cut short) is read from its pages, in time order.

Nothing is lost silently: after a whole-bag read the TF messages read per topic are
compared with the bag's own counts (``BagInfo.losses``), any reader failure is a
one-line :class:`BagError`, and an MCAP or ROS 1 bag that lost messages can be read
again message by message through its indexes (``reread_past_damage``).
"""

from __future__ import annotations

import struct
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Iterator

from ..core.stamped import StampedType, stamped_type
from .errors import BagError, NoTfTopics
from .mcap_index import IndexUnusable, McapIndex, read_indexed
from .recovery import (
    Db3Recovery,
    RecoveredMessage,
    db3_files,
    db3_topic_rows,
    db3_unattributed_rows,
    has_sqlite_header,
    is_sqlite_refusal,
    metadata_topics,
    rosbag2_metadata,
    scan_mcap,
    scan_rosbag1,
)
from .ros1_index import Ros1Index, Ros1IndexUnusable, read_ros1_indexed
from .topics import ALL_TOPICS, DEFAULT_TF_TOPICS, TF_MESSAGE_TYPES, TopicSelection, is_static_topic, is_tf_type, stamped_kind

CDR = "cdr"
ROS1 = "ros1"
RawTfMessage = tuple[str, float, bool, bytes, str]  # topic, receive time (s), static, bytes, format
ALL_DATA = TopicSelection(ALL_TOPICS)


@dataclass(frozen=True)
class TopicInfo:
    name: str
    msgtype: str
    messages: int | None = None  # None where the bag's index could not be read

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.msgtype, "messages": self.messages}


@dataclass(frozen=True)
class Loss:
    """TF messages of one topic the bag's index lists but the reader did not deliver."""

    topic: str
    listed: int  # what the bag's own index (MCAP summary, metadata.yaml, ROS 1 index) counts
    read: int

    @property
    def lost(self) -> int:
        return self.listed - self.read


@dataclass
class BagInfo:
    path: str
    storage: str  # "rosbag2 sqlite3", "rosbag2 mcap", "rosbag1"
    start: float | None = None  # seconds, bag time of the first message
    end: float | None = None
    topics: list[TopicInfo] = field(default_factory=list)
    recovered: str | None = None  # why the bag was read from the front instead of through its index
    losses: list[Loss] = field(default_factory=list)  # after a whole-bag read: topics with fewer messages than listed

    def describe_topics(self) -> str:
        if not self.topics:
            return "it has no topics at all"
        return "its topics are: " + ", ".join(f"{t.name} [{t.msgtype}]" for t in self.topics)


def _storage_of(path: Path) -> str:
    if path.suffix == ".bag":
        return "rosbag1"
    if path.is_dir():
        meta = path / "metadata.yaml"
        if meta.is_file() and "storage_identifier: mcap" in meta.read_text(encoding="utf-8", errors="replace"):
            return "rosbag2 mcap"
        return "rosbag2 sqlite3"
    return {".mcap": "rosbag2 mcap", ".db3": "rosbag2 sqlite3"}.get(path.suffix, "")


class TfBag:
    """One bag opened for its TF topics and the stamped topics ``data`` selects (none: ``data=None``);
    use as a context manager. Stamped topics' messages come out of :meth:`messages` beside the TF ones,
    named in :attr:`data_topics`."""

    def __init__(self, path: str | Path, selection: TopicSelection | None = None, data: TopicSelection | None = ALL_DATA) -> None:
        self.path = Path(path)
        self.selection = selection or TopicSelection()
        self.data_selection = data
        self.data_topics: dict[str, StampedType] = {}
        storage = _storage_of(self.path) if self.path.exists() else ""
        self.info = BagInfo(str(path), storage)
        self.format = ROS1 if storage == "rosbag1" else CDR
        self._reader: Any = None
        self._connections: list[Any] = []
        self._scanners: list[Callable[[], Iterator[RecoveredMessage]]] = []
        self._db3: Db3Recovery | None = None
        self._listed: Counter[str] = Counter()  # messages per topic the chunks' own indexes list, seen reading from the front
        self._unnamed: Counter[int] = Counter()  # ROS 1: messages per connection id whose connection record is lost

    # --- opening -------------------------------------------------------------------------
    def __enter__(self) -> TfBag:
        self.open()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def open(self) -> None:
        if not self.path.exists():
            raise BagError(self.path, "no such file or directory")
        if not self.info.storage:
            raise BagError(self.path, "not a bag: expected a rosbag2 directory (metadata.yaml), a .db3 or .mcap file, or a ROS 1 .bag")
        try:
            if self.format == ROS1:
                from rosbags.rosbag1 import Reader as Reader1

                self._reader = Reader1(self.path)
            else:
                from rosbags.rosbag2 import Reader as Reader2

                self._reader = Reader2(self.path)
            self._reader.open()
        except ModuleNotFoundError as exc:
            raise BagError(self.path, f"reading bags needs the Python package 'rosbags' ({exc}); pip install rosbags") from None
        except Exception as exc:  # rosbags raises many kinds; each means "the index is unusable"
            self._reader = None
            try:
                self._start_recovery(exc)
            except BagError:
                raise
            except Exception as again:  # the pages or records are damaged beyond what recovery expects
                self.close()
                raise BagError(self.path, f"cannot open: {exc}; nor read it without its index: {type(again).__name__}: {again}") from None
            return
        try:
            self._read_index()
        except BagError:
            raise
        except Exception as exc:  # an index that opened but does not hold together
            self.close()
            raise BagError(self.path, f"damaged index: {type(exc).__name__}: {exc}") from None

    def _read_index(self) -> None:
        reader = self._reader
        self.info.topics = [TopicInfo(name, t.msgtype or "?", t.msgcount) for name, t in sorted(reader.topics.items())]
        if reader.message_count:
            self.info.start = reader.start_time * 1e-9
            self.info.end = (reader.end_time - 1) * 1e-9  # rosbags' end is one nanosecond past the last message
        ros1 = self.format == ROS1
        self._connections = []
        for c in reader.connections:
            if self._is_tf(c.topic, c.msgtype):
                self._connections.append(c)
            elif self.data_selection is not None and self.data_selection.matches(c.topic):
                kind = self.data_topics.get(c.topic) or stamped_kind(c.msgtype, c.msgdef, ros1)
                if kind is not None:
                    self.data_topics[c.topic] = kind
                    self._connections.append(c)
        if not self._connections:
            raise self._nothing_to_read()

    def _is_tf(self, topic: str, msgtype: str) -> bool:
        return self.selection.matches(topic) and is_tf_type(msgtype)

    def _maybe_tf(self, topic: str, msgtype: str) -> bool:
        """TF by its topic or by its type alone: a connection record that may be a TF one with a damaged field."""
        return self.selection.matches(topic) or is_tf_type(msgtype)

    def _wanted(self, topic: str, msgtype: str) -> bool:
        """A recovered message worth yielding: TF, or a stamped topic the data selection takes (by the type table)."""
        if self._is_tf(topic, msgtype):
            return True
        if self.data_selection is None or not self.data_selection.matches(topic):
            return False
        if topic not in self.data_topics:
            kind = stamped_type(msgtype)
            if kind is None:
                return False
            self.data_topics[topic] = kind
        return True

    def _nothing_to_read(self) -> NoTfTopics:
        data = " or stamped topics (a std_msgs/Header first)" if self.data_selection is not None else ""
        tf = f"no TF topics matching {self.selection} with type tf2_msgs/TFMessage or tf/tfMessage"
        return NoTfTopics(self.path, f"{tf}{data}; {self.info.describe_topics()}")

    def _start_recovery(self, exc: Exception) -> None:
        why = " ".join(str(exc).split()) or type(exc).__name__
        if self._db3_recoverable(exc):
            self._recover_db3(why)
            return
        files: list[Path]
        if self.path.is_dir():
            files = sorted(self.path.glob("*.mcap"))
        else:
            files = [self.path] if self.path.suffix in (".mcap", ".bag") else []
        if not files:
            raise BagError(self.path, f"cannot open: {why}")
        scan = scan_rosbag1 if self.format == ROS1 else scan_mcap
        self._scanners = [partial(scan, f, self._listed) for f in files]
        self.info.recovered = f"its index is unusable ({why}); read from the front"
        if self.path.is_dir():  # metadata.yaml's counts are what the read is compared with
            self.info.topics = [TopicInfo(name, msgtype, count) for name, msgtype, count in metadata_topics(rosbag2_metadata(self.path))]

    def reread_past_damage(self) -> bool:
        """After a read that lost messages or broke: read the MCAP files or the ROS 1 bag again message
        by message through their indexes, skipping only what is damaged. False where that is not possible."""
        if self._scanners:
            return False
        if self.info.storage == "rosbag1":
            try:
                Ros1Index(self.path)
                self._scanners = [partial(read_ros1_indexed, self.path, self._unnamed)]
            except (Ros1IndexUnusable, OSError):  # an index rosbags took but that does not hold together: from the front
                self._scanners = [partial(scan_rosbag1, self.path, self._listed)]
        elif self.info.storage == "rosbag2 mcap":
            files = sorted(self.path.glob("*.mcap")) if self.path.is_dir() else [self.path]
            try:
                for f in files:
                    McapIndex(f)
            except (IndexUnusable, OSError, struct.error, UnicodeDecodeError, ValueError):
                return False
            self._scanners = [partial(read_indexed, files)]
        else:
            return False
        self.info.recovered = "reading through its index lost messages; read again message by message through its chunk and message indexes"
        return True

    def _db3_recoverable(self, exc: Exception) -> bool:
        """sqlite refused a .db3 that looks like an sqlite file: its pages can still be read."""
        if self.info.storage != "rosbag2 sqlite3" or not is_sqlite_refusal(exc):
            return False
        return any(has_sqlite_header(f) for f in db3_files(self.path))

    def _recover_db3(self, why: str) -> None:
        """Read the .db3 files' pages now (time order needs them all); raises BagError if they hold no rosbag2 rows."""
        self._db3 = Db3Recovery(self.path, db3_files(self.path), why, self._wanted)
        if not self.info.topics:
            counts = {name: n for name, _, n in metadata_topics(rosbag2_metadata(self.path))} if self.path.is_dir() else {}
            self.info.topics = [TopicInfo(name, msgtype, counts.get(name)) for name, msgtype in self._db3.topics]
        if self._db3.start_ns is not None and self.info.start is None:
            self.info.start = self._db3.start_ns * 1e-9
            self.info.end = (self._db3.end_ns or self._db3.start_ns) * 1e-9
        self._scanners = [self._db3.messages]
        self.info.recovered = f"sqlite cannot read it ({why}); its pages were read directly, without sqlite"
        if self.info.topics and not self.tf_topics and not self._db3.unnamed and not any(self._wanted(t.name, t.msgtype) for t in self.info.topics):
            self.close()
            raise self._nothing_to_read()

    def close(self) -> None:
        if self._reader is not None:
            reader, self._reader = self._reader, None
            try:
                reader.close()
            except Exception:  # a damaged file can fail even here; what was read stands
                pass
        if self._db3 is not None:
            self._db3.close()
            self._db3 = None

    @property
    def tf_topics(self) -> list[str]:
        if self._scanners:
            return [t.name for t in self.info.topics if self._is_tf(t.name, t.msgtype)]
        return sorted({c.topic for c in self._connections if c.topic not in self.data_topics})

    # --- reading ------------------------------------------------------------------------
    def messages(self, start: float | None = None, stop: float | None = None, static_only: bool = False) -> Iterator[RawTfMessage]:
        """TF and stamped messages with bag time in [start, stop) seconds, in time order (file order when
        recovered); ``static`` is False for stamped data; ``static_only``: only the static TF topics.
        After a whole read, TF messages the bag's own counts list but that could not be read are in
        ``info.losses``."""
        whole = start is None and stop is None and not static_only
        read: Counter[str] = Counter()
        last: float | None = None
        try:
            for message in self._messages(start, stop, static_only):
                if not isinstance(message[3], (bytes, bytearray, memoryview)):
                    continue  # a NULL data column: not read, so counted as lost below
                read[message[0]] += 1
                last = message[1]
                yield message
        except BagError:
            if whole:
                self._count_losses(read)
            raise
        except Exception as exc:  # whatever else a damaged file makes a reader raise: one line, never a traceback
            if whole:
                self._count_losses(read)
            where = self._position(sum(read.values()), None if last is None else round(last * 1e9))
            raise BagError(self.path, f"damaged: {type(exc).__name__}: {exc}", where) from None
        if whole:
            self._count_losses(read)

    def _count_losses(self, read: Counter[str]) -> None:
        """Compare what was read with the bag's own per-topic counts (where it has them). An index that
        counts fewer than were read is itself damaged: then the records are counted from the front.
        TF topics only: the counts from the front walk TF records (data topics' losses are not counted)."""
        read = Counter({name: n for name, n in read.items() if name in self.tf_topics})
        listed = {t.name: t.messages for t in self.info.topics if t.messages is not None and t.name in self.tf_topics}
        for name, n in self._listed.items():  # read from the front: the index records met on the way
            if name in self.tf_topics:
                listed[name] = max(n, listed.get(name) or 0)
        hidden: list[Loss] = []  # ROS 1 connections a damaged index record hides from the reader
        if self.format == ROS1:
            try:
                index = Ros1Index(self.path)
            except Ros1IndexUnusable:
                if not self._scanners:  # rosbags took an index that does not hold together: count from the front
                    for topic, n in self._count_from_front().items():
                        listed[topic] = max(n, listed.get(topic) or 0)
            else:
                self._unnamed = self._unnamed | index.orphans  # rosbags skips messages whose connection record is lost
                hidden = [
                    Loss(f"{topic} (connection {conn}: its record in the index is damaged; its copy in the chunk names {topic}, {msgtype})"
                         if copied else f"(connection {conn}: {topic}, {msgtype} in the index, maybe TF, damaged; its chunk holds no intact copy)", n, 0)
                    for conn, (topic, msgtype, copied) in sorted(index.hidden(self._is_tf, self._maybe_tf).items())
                    if (n := index.counts[conn]) and conn not in self._unnamed
                ]
                indexed = index.indexed_counts()
                for conn in index.counts.keys() | indexed.keys():  # the chunk infos may count wrong; the index data too
                    topic, msgtype = index.connections.get(conn, ("", ""))
                    # a TF topic by the index even when the copy the reader met (in a damaged chunk) says otherwise
                    if topic in self.tf_topics or self._is_tf(topic, msgtype):
                        listed[topic] = max(index.counts[conn], indexed[conn], listed.get(topic) or 0)
        elif self.info.storage == "rosbag2 mcap":
            summary_listed, summary_hidden = self._mcap_summaries()
            for topic, n in summary_listed.items():  # the summary's own counts, whatever the reader met on its way
                listed[topic] = max(n, listed.get(topic) or 0)
            for topic, n, what in summary_hidden:
                if read[topic]:  # some were read under its topic: the shortfall against its count is the loss
                    listed[topic] = max(n, listed.get(topic) or 0)
                else:
                    hidden.append(Loss(what, n, 0))
        if any(read[name] > n for name, n in listed.items()) or any(name not in listed for name in read):
            front = self._count_from_front()  # beside, not instead of, what the index says of other topics
            listed = {name: max(front.get(name, 0), listed.get(name) or 0) for name in front.keys() | listed.keys()}
        self.info.losses = [Loss(name, n, read[name]) for name, n in sorted(listed.items()) if read[name] < n]
        # messages whose topic is lost with its connection record: maybe TF, certainly not read
        self.info.losses += [Loss(f"(connection {conn}: its topic is lost with its connection record)", n, 0) for conn, n in sorted(self._unnamed.items())]
        self.info.losses += hidden
        if self.info.storage == "rosbag2 sqlite3" and not self._scanners:  # sqlite read it: rows that lost their topic id
            # a shortfall against metadata.yaml already names the topic of such rows: count only the rows it leaves unexplained
            # (only metadata.yaml counts such rows under a topic: a lone .db3's own counts leave them out)
            explained = sum(loss.lost for loss in self.info.losses) if self.path.is_dir() else 0
            for f in db3_files(self.path):
                n = db3_unattributed_rows(f)
                if n > explained:
                    self.info.losses.append(Loss(f"({f.name}: rows whose topic id is damaged)", n - explained, 0))
                explained = max(0, explained - n)
                if not self.path.is_dir():  # a lone .db3: no metadata.yaml names its topics a second time
                    self.info.losses += [
                        Loss(f"({name!r}, {msgtype!r} in the topics table of {f.name}: TF but for one damaged field; not read)", rows, 0)
                        for name, msgtype, rows in db3_topic_rows(f)
                        if rows and not read[name] and not self._is_tf(name, msgtype) and self._damaged_tf(name, msgtype)
                    ]

    def _damaged_tf(self, topic: str, msgtype: str) -> bool:
        """A topic and type that are TF but for a few characters of one or both (bits flipped, bytes zeroed):
        with no second copy to compare, that closeness is the sign of damage."""
        tf_topic = self.selection.matches(topic) or any(_near(topic, t) for t in _TF_TOPIC_NAMES)
        tf_type = is_tf_type(msgtype) or any(_near(msgtype, t) for t in _TF_TYPE_SPELLINGS)
        return tf_topic and tf_type

    def _mcap_summaries(self) -> tuple[Counter[str], list[tuple[str, int, str]]]:
        """From each MCAP file's summary: TF messages per topic (the Statistics record's count or the message
        indexes', whichever is more), and the channels a damaged summary hides (see :meth:`McapIndex.hidden`)
        as (topic, count, what to report)."""
        listed: Counter[str] = Counter()
        hidden: list[tuple[str, int, str]] = []
        for f in sorted(self.path.glob("*.mcap")) if self.path.is_dir() else [self.path]:
            try:
                index = McapIndex(f)
                indexed = index.indexed_counts()
            except (IndexUnusable, OSError):
                continue  # no summary to compare with: the counts from the front stand
            for cid, (topic, schema) in index.channels.items():
                if self._is_tf(topic, schema):
                    listed[topic] += max(index.counts.get(cid, 0), indexed.get(cid, 0))
            for cid, (topic, schema, copied) in sorted(index.hidden(self._is_tf, self._maybe_tf).items()):
                where = f"channel {cid} of {f.name}"
                if copied:
                    what = f"{topic} ({where}: its summary record is damaged; its copy in the chunk names {topic}, {schema})"
                elif topic or schema:
                    what = f"({where}: {topic}, {schema} in the summary, maybe TF, damaged; its chunk holds no intact copy)"
                else:
                    what = f"({where}: counted by the summary, its record lost)"
                hidden.append((topic, max(index.counts.get(cid, 0), indexed.get(cid, 0)), what))
        return listed, hidden

    def _count_from_front(self) -> Counter[str]:
        """TF messages per topic in the records of the files, as far as they can be walked (MCAP and ROS 1),
        or as the index records met on the way count them, whichever is more."""
        counts: Counter[str] = Counter()
        indexed: Counter[str] = Counter()
        files = sorted(self.path.glob("*.mcap")) if self.path.is_dir() else [self.path]
        scan = scan_rosbag1 if self.format == ROS1 else scan_mcap
        for f in files:
            if f.suffix not in (".mcap", ".bag"):
                continue
            try:
                for topic, msgtype, _stamp, _data in scan(f, indexed):
                    if self.selection.matches(topic) and is_tf_type(msgtype):
                        counts[topic] += 1
            except Exception:  # the count of what could be walked stands
                pass
        return counts | Counter({t: n for t, n in indexed.items() if t in self.tf_topics})

    def _messages(self, start: float | None, stop: float | None, static_only: bool) -> Iterator[RawTfMessage]:
        start_ns = None if start is None else int(start * 1e9)
        stop_ns = None if stop is None else int(stop * 1e9)
        if self._scanners:
            yield from self._recovered(start_ns, stop_ns, static_only)
            return
        data = self.data_topics
        conns = [c for c in self._connections if not static_only or (c.topic not in data and is_static_topic(c.topic))]
        if not conns:
            return
        static_of = {c.topic: c.topic not in data and is_static_topic(c.topic) for c in conns}
        fmt = self.format
        count, last, same = 0, None, 0  # same: how many of them at the last time
        broken: Exception | None = None
        try:
            for conn, stamp, data in self._reader.messages(conns, start_ns, stop_ns):
                topic = conn.topic
                yield topic, stamp * 1e-9, static_of[topic], data, fmt
                count += 1
                same = same + 1 if stamp == last else 1
                last = stamp
        except Exception as exc:  # a damaged chunk, page or record somewhere inside the bag
            if not self._db3_recoverable(exc):
                raise BagError(self.path, f"damaged: {type(exc).__name__}: {exc}", self._position(count, last)) from None
            broken = exc
        if broken is not None:  # sqlite broke midway through a .db3: go on from its pages, after what was yielded
            try:
                self._recover_db3(" ".join(str(broken).split()) or type(broken).__name__)
            except BagError as exc:
                raise exc.at(self._position(count, last)) from None
            yield from self._recovered(start_ns, stop_ns, static_only, (count, last, same))

    def _position(self, count: int, last_ns: int | None) -> str:
        if last_ns is None:
            return "before the first TF message"
        since = f" (t=+{last_ns * 1e-9 - self.info.start:.3f} s)" if self.info.start is not None else ""
        return f"after {count} TF messages, the last at bag time {last_ns * 1e-9:.3f} s{since}"

    def _recovered(
        self, start_ns: int | None, stop_ns: int | None, static_only: bool, resume: tuple[int, int | None, int] = (0, None, 0)
    ) -> Iterator[RawTfMessage]:
        """The scanners' messages; ``resume`` = (count, last time, how many at it) already yielded through sqlite."""
        seen: dict[str, TopicInfo] = {t.name: t for t in self.info.topics}
        self._listed.clear()  # counted again on every read
        fmt = self.format
        count, last, skip = resume
        resume_at = last
        for scanner in self._scanners:
            try:
                for topic, msgtype, stamp, data in scanner():
                    if topic not in seen:
                        seen[topic] = TopicInfo(topic, msgtype)
                        self.info.topics = sorted(seen.values(), key=lambda t: t.name)
                    if self.info.start is None or stamp * 1e-9 < self.info.start:
                        self.info.start = stamp * 1e-9
                    if self.info.end is None or stamp * 1e-9 > self.info.end:
                        self.info.end = stamp * 1e-9
                    if not self._wanted(topic, msgtype):
                        continue
                    static = topic not in self.data_topics and is_static_topic(topic)
                    if (static_only and not static) or (start_ns is not None and stamp < start_ns) or (stop_ns is not None and stamp >= stop_ns):
                        continue
                    if resume_at is not None and (stamp < resume_at or (stamp == resume_at and skip > 0)):
                        if stamp == resume_at:
                            skip -= 1
                        continue  # already yielded through sqlite
                    yield topic, stamp * 1e-9, static, data, fmt
                    count += 1
                    last = stamp
            except BagError as exc:
                raise exc.at(self._position(count, last)) from None
        if not self.tf_topics and not self.data_topics:
            raise self._nothing_to_read()


def open_bag(path: str | Path, selection: TopicSelection | None = None, data: TopicSelection | None = ALL_DATA) -> TfBag:
    """Open a bag for its TF and stamped topics (raises :class:`BagError`); close it, or use ``with``."""
    bag = TfBag(path, selection, data)
    bag.open()
    return bag


# every spelling of the TF types (ROS 1 pkg/Name, ROS 2 pkg/msg/Name) and the TF topics that are names, not patterns
_TF_TYPE_SPELLINGS = (*TF_MESSAGE_TYPES, *(t.replace("/", "/msg/", 1) for t in TF_MESSAGE_TYPES))
_TF_TOPIC_NAMES = tuple(t for t in DEFAULT_TF_TOPICS if "*" not in t)


def _near(text: str, name: str) -> bool:
    """Same length and at most 3 characters different, or any control character: a damaged copy of ``name``."""
    if any(ord(c) < 32 for c in text):
        return len(text) == len(name) or text.strip("\x00") in name
    return len(text) == len(name) and sum(a != b for a, b in zip(text, name)) <= 3
