"""Optional accounts: a name and a password, sessions, and the seats an account owns.

Nobody needs an account: a table is still played by its links with only a name.
An account lets a player find their games again (the seats it owns, with their
keys, so the owner can return from any device), keep statistics and a rating per
game (:mod:`.profiles`), and show them on a profile page.

Storage: new tables in the database of :mod:`.storage` (``create_all`` makes them in
an older database; nothing existing is altered), so SQLite and PostgreSQL alike.

- Passwords are hashed with argon2id (``argon2-cffi``, its default parameters); the
  hash is re-made when those defaults change (``check_needs_rehash``).
- Sessions are server-side: the cookie holds a random token (``secrets``), the
  database its SHA-256.  Chosen over signed cookies because a session in the
  database can be ended: signing out, a password reset and a deletion end every
  session of the account at once, in every server process, and no new signing
  secret has to be kept and shared between processes.  The cookie is ``HttpOnly``
  (no script reads it), ``SameSite=Lax`` (another site's POST does not carry it;
  the API also takes JSON only, which a cross-site form cannot send) and
  ``Secure`` when the page came over HTTPS.
- A seat an account owns is a row (table, seat) → account, with the seat's key: made
  when a signed-in player opens a seat's link (or claims it afterwards by its key).
  The key is kept so that the owner can go back to an unfinished table or to a
  finished game's replay and review from any device; a reader of the database could
  act for those seats, as they could already rewrite the tables themselves.
- Deleting an account renames its seats in the stored games to :data:`FORMER_PLAYER`
  and forgets everything else of it.  A record's digest covers the game, players,
  options, result and moves, never the seat names (docs/records.md), and records are
  made from the stored table when asked for: no digest changes and none is rewritten.

Names: :data:`NAME_MIN`..:data:`NAME_MAX` characters, letters, digits, spaces, ``-``,
``_`` and ``.``, unique regardless of case, and no name may look like another's: the
TR39 skeleton of each (:func:`.skeleton.name_key`: "Аlice" with a Cyrillic А, "Ａｌｉｃｅ"
in full width, "AIice" with a capital I all meet "Alice") is stored under a unique
index, so two processes signing up look-alikes at once cannot both pass (an older
database gets the column and the index from :func:`ensure_tables`); passwords :data:`PASSWORD_MIN`..
:data:`PASSWORD_MAX` characters.  Every function runs one short transaction: call
them from a worker thread.
"""

from __future__ import annotations

import datetime as _dt
import logging
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    delete,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.inspection import inspect
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..core.reason import Quoted, reason
from .attempts import AttemptRow
from .chat import check_plain
from .roomstore import ChatRow, RoomRow
from .skeleton import name_key
from .storage import FORMER_PLAYER as FORMER_PLAYER  # what a deleted account's seats are called
from .storage import Base, SeatRow, Storage, TableRow
from .tables import TableError, hash_key

NAME_MIN = 2
NAME_MAX = 24
#: The longest case-folded name and skeleton the accounts' table holds (:func:`clean_account_name`).
FOLDED_MAX = 4 * NAME_MAX
SKELETON_MAX = 10 * NAME_MAX
PASSWORD_MIN = 8
PASSWORD_MAX = 200
#: A session lasts this long after sign-in (the cookie's Max-Age too).
SESSION_DAYS = 30
#: Letters and digits of any script, spaces, and - _ . (no markup, no look-alike punctuation).
_NAME = re.compile(r"^[\w .\-]+$")

_hasher = PasswordHasher()

log = logging.getLogger("atout.server")

#: The unique index on the accounts' skeletons (made by :func:`ensure_tables` in an older database).
SKELETON_INDEX = "ix_atout_accounts_skeleton"


class AccountRow(Base):
    __tablename__ = "atout_accounts"
    __table_args__ = (Index(SKELETON_INDEX, "skeleton", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    #: ``name`` case-folded and NFKC-normalized: unique, so "Ann" and "ANN" are one account.
    folded: Mapped[str] = mapped_column(String(FOLDED_MAX), unique=True)
    #: :func:`.skeleton.name_key` of ``name``: unique, so no name looks like another's.  Nullable:
    #: added to older databases (:func:`ensure_tables` fills it in).
    skeleton: Mapped[str | None] = mapped_column(String(SKELETON_MAX), nullable=True)
    password: Mapped[str] = mapped_column(String(200))
    created: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))
    #: The profile is shown to others only when its owner says so.
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Listed on the leaderboards (opt-in).
    leaderboard: Mapped[bool] = mapped_column(Boolean, default=False)


class SessionRow(Base):
    __tablename__ = "atout_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("atout_accounts.id", ondelete="CASCADE"), index=True)
    expires: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))


class OwnedSeatRow(Base):
    """Seat ``seat`` of table ``table_id`` is account ``account_id``'s; ``key`` opens it.

    ``result``: the seat's figures once the game is over (:mod:`.profiles` fills it).
    """

    __tablename__ = "atout_owned_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("atout_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("atout_accounts.id", ondelete="CASCADE"), index=True)
    key: Mapped[str] = mapped_column(String(64))
    claimed: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)


class RatingRow(Base):
    """An account's OpenSkill rating in one game."""

    __tablename__ = "atout_ratings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("atout_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatedRow(Base):
    """A finished table whose accounts' seats have been counted (each table once, whatever process)."""

    __tablename__ = "atout_rated"

    table_id: Mapped[str] = mapped_column(ForeignKey("atout_tables.id"), primary_key=True)
    at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))


ACCOUNT_TABLES = [AccountRow, SessionRow, OwnedSeatRow, RatingRow, RatedRow, AttemptRow]


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    public: bool
    leaderboard: bool
    created: _dt.datetime

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "public": self.public, "leaderboard": self.leaderboard}


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.public, row.leaderboard, row.created)


def ensure_tables(storage: Storage) -> None:
    """Create the accounts' tables in a database made before them, and bring older ones up to date
    (idempotent, and safe with several processes starting at once).

    An ``atout_accounts`` made before the skeletons gets the column (:meth:`.Storage.migrate`),
    each account's skeleton, then the unique index.  Two accounts made back then whose names
    look alike keep both their names: the older one gets the skeleton (a new look-alike of it
    is refused), the newer none (logged).
    """
    Base.metadata.create_all(storage.engine, tables=[t.__table__ for t in ACCOUNT_TABLES])  # type: ignore[misc]
    storage.migrate()
    with Session(storage.engine) as session, session.begin():
        rows = session.execute(select(AccountRow.id, AccountRow.name, AccountRow.skeleton)).all()
        taken = {key for _, _, key in rows if key is not None}
        for account_id, name, key in sorted(rows):
            if key is not None:
                continue
            new = name_key(name)
            if new in taken:
                log.warning("account %s looks like an older account's name: left without a skeleton", name)
                continue
            taken.add(new)
            session.execute(update(AccountRow).where(AccountRow.id == account_id).values(skeleton=new))
    try:
        with storage.engine.begin() as conn:
            conn.execute(
                text(f"CREATE UNIQUE INDEX IF NOT EXISTS {SKELETON_INDEX} ON atout_accounts (skeleton)")
            )
    except (OperationalError, ProgrammingError, IntegrityError):  # another process made it meanwhile
        with storage.engine.connect() as conn:
            if SKELETON_INDEX not in {i["name"] for i in inspect(conn).get_indexes("atout_accounts")}:
                raise


def fold(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def clean_account_name(name: object) -> str:
    """The name to store, or :class:`TableError` ``bad_name`` saying what is wrong."""
    if not isinstance(name, str):
        raise TableError("bad_name", reason("server.account_name_text"))
    clean = " ".join(unicodedata.normalize("NFC", name).split())
    if not NAME_MIN <= len(clean) <= NAME_MAX:
        raise TableError("bad_name", reason("server.account_name_length", least=NAME_MIN, most=NAME_MAX))
    check_plain(clean, name=True)
    if not _NAME.match(clean):
        raise TableError("bad_name", reason("server.account_name_chars"))
    # A letter's compatibility form can be many letters (U+FDFA is 18): past what the columns
    # hold, the name is refused here rather than by the database.
    if len(fold(clean)) > FOLDED_MAX or len(name_key(clean)) > SKELETON_MAX:
        raise TableError("bad_name", reason("server.account_name_length", least=NAME_MIN, most=NAME_MAX))
    return clean


def check_password(password: object) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise TableError(
            "bad_password", reason("server.password_length", least=PASSWORD_MIN, most=PASSWORD_MAX)
        )
    return password


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC)


def _aware(when: _dt.datetime) -> _dt.datetime:
    """SQLite gives back naive datetimes (stored as UTC)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=_dt.UTC)


def _taken(storage: Storage, clean: str) -> TableError:
    """Why ``clean`` cannot be an account's name (its insert or update broke a unique index):
    someone has it (regardless of case), or a name that looks like it."""
    with Session(storage.engine) as session:
        if session.scalar(select(AccountRow.id).where(AccountRow.folded == fold(clean))) is not None:
            return TableError("name_taken", reason("server.account_name_taken"))
    return TableError("name_lookalike", reason("server.account_name_lookalike", name=Quoted(clean)))


def create_account(storage: Storage, name: object, password: object) -> Account:
    """A new account; ``name_taken`` when the name (regardless of case) is someone's,
    ``name_lookalike`` when it looks like someone's (:mod:`.skeleton`)."""
    clean = clean_account_name(name)
    hashed = _hasher.hash(check_password(password))
    try:
        with Session(storage.engine) as session, session.begin():
            row = AccountRow(
                name=clean, folded=fold(clean), skeleton=name_key(clean), password=hashed, created=_now()
            )
            session.add(row)
            session.flush()
            return _account(row)
    except IntegrityError:
        raise _taken(storage, clean) from None


# A hash to verify against when the name is unknown, so that an unknown name takes as long
# to refuse as a wrong password (the time would otherwise tell which names exist).  Computed at
# the first sign-in, not at import: every process that imports the server (each `atout serve`,
# each test worker) would pay for an argon2 hash (0.3 s of CPU) most of them never use.
_DUMMY: str | None = None


def _dummy() -> str:
    """The unknown name's hash (see _DUMMY), made on first use."""
    global _DUMMY
    if _DUMMY is None:
        _DUMMY = _hasher.hash(secrets.token_hex(16))
    return _DUMMY


def authenticate(storage: Storage, name: object, password: object) -> Account | None:
    """The account if ``password`` is its password, else ``None`` (same cost either way)."""
    if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
        return None
    dummy = _dummy()  # (made before the name is looked up: the first sign-in's extra hash tells nothing)
    with Session(storage.engine) as session, session.begin():
        row = session.scalar(select(AccountRow).where(AccountRow.folded == fold(name)))
        try:
            _hasher.verify(row.password if row is not None else dummy, password)
        except (VerificationError, InvalidHashError):
            return None
        if row is None:
            return None
        if _hasher.check_needs_rehash(row.password):
            row.password = _hasher.hash(password)
        return _account(row)


def open_session(storage: Storage, account: Account) -> str:
    """A new session of ``account``; returns its token (the cookie's value)."""
    token = secrets.token_urlsafe(32)
    with Session(storage.engine) as session, session.begin():
        session.execute(delete(SessionRow).where(SessionRow.expires < _now()))
        session.add(
            SessionRow(
                token_hash=hash_key(token),
                account_id=account.id,
                expires=_now() + _dt.timedelta(days=SESSION_DAYS),
            )
        )
    return token


def session_account(storage: Storage, token: str | None) -> Account | None:
    """The account of a live session token, or ``None``."""
    if not token or len(token) > 100:
        return None
    with Session(storage.engine) as session:
        row = session.get(SessionRow, hash_key(token))
        if row is None or _aware(row.expires) < _now():
            return None
        account = session.get(AccountRow, row.account_id)
        return None if account is None else _account(account)


def close_session(storage: Storage, token: str | None) -> None:
    if token:
        with Session(storage.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.token_hash == hash_key(token)))


def find(storage: Storage, name: str) -> Account | None:
    with Session(storage.engine) as session:
        row = session.scalar(select(AccountRow).where(AccountRow.folded == fold(name)))
        return None if row is None else _account(row)


def all_accounts(storage: Storage) -> list[tuple[Account, int]]:
    """Every account with the number of seats it owns, by name."""
    with Session(storage.engine) as session:
        rows = session.scalars(select(AccountRow).order_by(AccountRow.folded)).all()
        counts: dict[int, int] = {}
        for account_id in session.scalars(select(OwnedSeatRow.account_id)).all():
            counts[account_id] = counts.get(account_id, 0) + 1
        return [(_account(r), counts.get(r.id, 0)) for r in rows]


def set_privacy(storage: Storage, account: Account, public: object, leaderboard: object) -> Account:
    if not isinstance(public, bool) or not isinstance(leaderboard, bool):
        raise TableError("bad_request", reason("server.privacy_bool"))
    with Session(storage.engine) as session, session.begin():
        row = session.get(AccountRow, account.id)
        if row is None:
            raise TableError("not_found", reason("server.no_such_account"))
        row.public, row.leaderboard = public, leaderboard
        return _account(row)


def rename(storage: Storage, name: str, new: str) -> Account:
    """Operator: rename an account (its seats in stored games keep the names they were played under)."""
    clean = clean_account_name(new)
    try:
        with Session(storage.engine) as session, session.begin():
            row = session.scalar(select(AccountRow).where(AccountRow.folded == fold(name)))
            if row is None:
                raise TableError("not_found", reason("server.no_account_named", name=Quoted(name)))
            row.name, row.folded, row.skeleton = clean, fold(clean), name_key(clean)
            session.flush()
            return _account(row)
    except IntegrityError:
        raise _taken(storage, clean) from None


def reset_password(storage: Storage, name: str, password: str) -> None:
    """Operator: give an account a new password and end its sessions."""
    hashed = _hasher.hash(check_password(password))
    with Session(storage.engine) as session, session.begin():
        row = session.scalar(select(AccountRow).where(AccountRow.folded == fold(name)))
        if row is None:
            raise TableError("not_found", reason("server.no_account_named", name=Quoted(name)))
        row.password = hashed
        session.execute(delete(SessionRow).where(SessionRow.account_id == row.id))


def delete_account(storage: Storage, name: str) -> int:
    """Delete an account; its seats in the stored games become :data:`FORMER_PLAYER`.

    The seats' rows keep their keys' hashes (a link still opens the seat, now
    nameless) and the chat lines said from them are renamed too.  Returns the
    number of seats renamed.  The serving processes are told (:meth:`.Storage.changed_outside`:
    PostgreSQL's notices, SQLite's outside changes), so a table one of them holds in
    memory shows the new name at its next read, and its sockets are sent it.
    """
    with Session(storage.engine) as session, session.begin():
        row = session.scalar(select(AccountRow).where(AccountRow.folded == fold(name)))
        if row is None:
            raise TableError("not_found", reason("server.no_account_named", name=Quoted(name)))
        seats = session.execute(
            select(OwnedSeatRow.table_id, OwnedSeatRow.seat).where(OwnedSeatRow.account_id == row.id)
        ).all()
        for table_id, seat in seats:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(name=FORMER_PLAYER)
            )
            session.execute(
                update(ChatRow)
                .where(ChatRow.table_id == table_id, ChatRow.seat == seat)
                .values(name=FORMER_PLAYER)
            )
            storage.changed_outside(session, table_id)  # the seats
            storage.changed_outside(session, table_id, "names")  # the chat's speakers
        for model in (OwnedSeatRow, SessionRow, RatingRow):
            session.execute(delete(model).where(model.account_id == row.id))
        session.delete(row)
        return len(seats)


def _seat_of_key(session: Session, table_id: object, key: object) -> tuple[str, str, int]:
    """The table, key and seat number ``key`` opens; :class:`TableError` for anything else."""
    if not isinstance(table_id, str) or not isinstance(key, str) or not key or len(key) > 64:
        raise TableError("bad_request", reason("server.table_and_key"))
    seat = session.scalar(
        select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.key_hash == hash_key(key))
    )
    if seat is None:
        raise TableError("bad_key", reason("server.key_opens_no_seat"))
    return table_id, key, seat


def seat_owner(storage: Storage, account: Account, table_id: object, key: object) -> tuple[int, str | None]:
    """The seat ``key`` opens, and whose it is: ``"me"`` (``account``'s), ``"other"`` or ``None``."""
    with Session(storage.engine) as session:
        table_id, key, seat = _seat_of_key(session, table_id, key)
        row = session.get(OwnedSeatRow, (table_id, seat))
        if row is None:
            return seat, None
        return seat, "me" if row.account_id == account.id else "other"


def claim(storage: Storage, account: Account, table_id: object, key: object) -> int:
    """The seat whose key is ``key`` becomes ``account``'s; returns its number.

    Claiming a seat already the account's is a no-op; another account's seat is refused, and
    so is a lesson's (server/lessons.py): a guided deal is no game, never in a profile or a rating.
    """
    with Session(storage.engine) as session, session.begin():
        table_id, key, seat = _seat_of_key(session, table_id, key)
        room = session.get(RoomRow, table_id)
        if room is not None and room.settings.get("lesson"):
            raise TableError("lesson", reason("server.lesson_not_rated"))
        row = session.get(OwnedSeatRow, (table_id, seat), with_for_update=True)
        if row is not None:
            if row.account_id != account.id:
                raise TableError("owned", reason("server.seat_owned"))
            row.key = key
            return seat
        session.add(
            OwnedSeatRow(table_id=table_id, seat=seat, account_id=account.id, key=key, claimed=_now())
        )
        return seat


@dataclass(frozen=True)
class OwnedGame:
    table_id: str
    seat: int
    game: str
    key: str
    finished: bool
    created: _dt.datetime
    result: dict[str, Any] | None
    names: list[str]

    def to_dict(self, owner: bool) -> dict[str, Any]:
        """The game as its owner sees it, or (``owner`` false) a public profile's reader: without
        the seat's key, and without the other players' names (they did not choose to be shown)."""
        out: dict[str, Any] = {
            "table": self.table_id,
            "seat": self.seat,
            "game": self.game,
            "finished": self.finished,
            "created": _aware(self.created).isoformat(),
            "result": self.result,
            "names": self.names if owner else [],
        }
        if owner:
            out["key"] = self.key
        return out


def owned_result(
    storage: Storage, account_id: int, table_id: str
) -> tuple[int, dict[str, Any] | None] | None:
    """The account's seat at ``table_id`` and its figures (``None`` until counted); ``None`` if it has none."""
    with Session(storage.engine) as session:
        row = session.scalar(
            select(OwnedSeatRow).where(
                OwnedSeatRow.table_id == table_id, OwnedSeatRow.account_id == account_id
            )
        )
        if row is None:
            return None
        return row.seat, dict(row.result) if row.result is not None else None


def table_ratings(storage: Storage, table_id: str, reader: Account | None) -> list[dict[str, Any]]:
    """The rating changes at a finished table that ``reader`` may see, by seat.

    Each seat an account owns and whose game was rated (:mod:`.profiles`): the reader's own
    seats, and the seats of accounts whose profile is public (it lists that game and its
    rating change to anyone already).  A private account's seat is left out, nothing saying
    it is an account's.  ``profile``: the account's name, for a link to its profile.
    """
    with Session(storage.engine) as session:
        rows = session.execute(
            select(OwnedSeatRow.seat, OwnedSeatRow.result, AccountRow.id, AccountRow.name, AccountRow.public)
            .join(AccountRow, AccountRow.id == OwnedSeatRow.account_id)
            .where(OwnedSeatRow.table_id == table_id)
            .order_by(OwnedSeatRow.seat)
        ).all()
    out = []
    for seat, result, account_id, name, public in rows:
        mine = reader is not None and reader.id == account_id
        rating = (result or {}).get("rating")
        if rating is None or not (mine or public):
            continue
        out.append(
            {
                "seat": seat,
                "before": rating["before"],
                "after": rating["after"],
                "mine": mine,
                "profile": name,
            }
        )
    return out


#: A profile lists at most this many games (newest first).
GAMES_SHOWN = 200


def owned_games(storage: Storage, account_id: int, limit: int = GAMES_SHOWN) -> list[OwnedGame]:
    """The account's seats, newest table first."""
    with Session(storage.engine) as session:
        rows = session.execute(
            select(OwnedSeatRow, TableRow)
            .join(TableRow, TableRow.id == OwnedSeatRow.table_id)
            .where(OwnedSeatRow.account_id == account_id)
            .order_by(TableRow.created.desc())
            .limit(limit)
        ).all()
        out = []
        for owned, table in rows:
            names = [s.name for s in table.seats]
            out.append(
                OwnedGame(
                    owned.table_id,
                    owned.seat,
                    table.game,
                    owned.key,
                    table.finished,
                    table.created,
                    dict(owned.result) if owned.result is not None else None,
                    names,
                )
            )
        return out
