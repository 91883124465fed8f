"""Playing from phones, as stored: each game's join-link secret and the devices bound to its seats.

    devices = store.devices
    secret = devices.secret(game_id)                   # made on first use; shown in the QR code
    device = devices.bind(game_id, secret=presented, token_hash=token_hash(token), seat=2, label="Pixel")
    devices.find(token_hash(token))                    # the device again, when the browser comes back
    devices.rotate(game_id)                            # a new secret: old links stop working

The secret is stored as it is (the table screen must be able to show it again); a device's
token never is: only its SHA-256 hash, so a copy of the database cannot act as a device.
Binding checks the secret and takes the seat in one write transaction, and the unique
(game_id, seat) index is the final guard when two phones reach for the same seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from .database import Database
from .errors import GameNotFound, LinkRefused, SeatTaken
from .models import DeviceRow, GameRow, JoinLinkRow, SeatRow, ServerSecretRow

SECRET_BYTES = 16  # 22 URL-safe characters: 128 bits, typed by nobody (it travels in a QR code)
TOKEN_BYTES = 32  # a device's token: 256 bits, kept in that browser's storage
MAX_LABEL = 80
_DUMMY = "-" * 22  # compared against when a game has no link, so a miss costs what a hit costs


def new_secret() -> str:
    """A join-link secret: URL-safe base64 (A-Z a-z 0-9 - _), never `+ / = %` (they break in URLs)."""
    return secrets.token_urlsafe(SECRET_BYTES)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_secret(expected: str, presented: str) -> bool:
    """Constant-time comparison (a wrong guess takes as long as a nearly right one)."""
    return hmac.compare_digest(expected.encode("utf-8"), presented.encode("utf-8"))


@dataclass(frozen=True)
class Device:
    id: str
    game_id: str
    seat: int | None  # None: a spectator
    label: str
    joined: datetime
    seen: datetime


def _now() -> datetime:
    return datetime.now(UTC)


_DEVICE = select(
    col(DeviceRow.id),
    col(DeviceRow.game_id),
    col(DeviceRow.seat),
    col(DeviceRow.label),
    col(DeviceRow.joined),
    col(DeviceRow.seen),
)
_SECRET = select(col(JoinLinkRow.secret))


class Devices:
    """The join links and devices of the games in one database (thread-safe, like the store)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def server_secret(self, name: str) -> str:
        """The server's secret `name`, made the first time it is asked for (every instance on
        this database then reads the same one)."""
        with self.db.transaction() as conn:
            found = conn.execute(select(col(ServerSecretRow.secret)).where(col(ServerSecretRow.name) == name)).scalar()
        if found is not None:
            return found
        try:
            with self.db.transaction(write=True) as conn:
                conn.execute(insert(ServerSecretRow).values(name=name, secret=new_secret(), created=_now()))
        except IntegrityError:  # another instance made it first: theirs stands
            pass
        return self.server_secret(name)

    # --- the link ----------------------------------------------------------------------------

    def secret(self, game_id: str) -> str:
        """The game's current join secret, made the first time a link is asked for."""
        with self.db.transaction() as conn:
            found = conn.execute(_SECRET.where(col(JoinLinkRow.game_id) == game_id)).scalar()
        if found is not None:
            return found
        try:
            with self.db.transaction(write=True) as conn:
                self._game(conn, game_id)
                found = conn.execute(_SECRET.where(col(JoinLinkRow.game_id) == game_id)).scalar()
                if found is None:
                    found = new_secret()
                    conn.execute(insert(JoinLinkRow).values(game_id=game_id, secret=found, created=_now(), rotations=0))
        except IntegrityError:  # another process made it first: theirs stands
            return self.secret(game_id)
        return found

    def rotate(self, game_id: str) -> str:
        """A new secret for the game: every link and QR code shown before stops working.

        Devices already bound keep their seats (their tokens, not the link, bring them back).
        """
        self.secret(game_id)
        fresh = new_secret()
        with self.db.transaction(write=True) as conn:
            conn.execute(
                update(JoinLinkRow)
                .where(col(JoinLinkRow.game_id) == game_id)
                .values(secret=fresh, created=_now(), rotations=col(JoinLinkRow.rotations) + 1)
            )
        return fresh

    def secret_matches(self, game_id: str, presented: str) -> bool:
        """Whether `presented` is the game's current secret; an unknown game is just a mismatch."""
        with self.db.transaction() as conn:
            found = conn.execute(_SECRET.where(col(JoinLinkRow.game_id) == game_id)).scalar()
        return same_secret(found or _DUMMY, presented) and found is not None

    # --- devices -----------------------------------------------------------------------------

    def bind(self, game_id: str, *, secret: str, token_hash: str, seat: int | None, label: str) -> Device:
        """Give a seat (None: a spectator's place) to the device with this token hash.

        The secret is checked in the same transaction (a link rotated a moment ago is refused:
        LinkRefused); a seat held by another device is SeatTaken. A device already known (the
        same browser coming back, or a spectator taking a seat) keeps its id and moves.
        """
        label = " ".join(str(label).split())[:MAX_LABEL]
        try:
            with self.db.transaction(write=True) as conn:
                found = conn.execute(_SECRET.where(col(JoinLinkRow.game_id) == game_id)).scalar()
                if not same_secret(found or _DUMMY, secret) or found is None:
                    raise LinkRefused(game_id)
                if seat is not None:
                    seats = (
                        conn.execute(select(col(SeatRow.seat)).where(col(SeatRow.game_id) == game_id)).scalars().all()
                    )
                    if seat not in seats:
                        raise ValueError(f"game {game_id} has no seat {seat}")
                    holder = conn.execute(
                        select(col(DeviceRow.token_hash)).where(
                            col(DeviceRow.game_id) == game_id, col(DeviceRow.seat) == seat
                        )
                    ).scalar()
                    if holder is not None and holder != token_hash:
                        raise SeatTaken(game_id, seat)
                now = _now()
                mine = conn.execute(
                    select(col(DeviceRow.id), col(DeviceRow.game_id)).where(col(DeviceRow.token_hash) == token_hash)
                ).first()
                if mine is not None and mine.game_id != game_id:
                    raise ValueError("a device token belongs to one game")
                if mine is None:
                    device_id = secrets.token_hex(8)
                    conn.execute(
                        insert(DeviceRow).values(
                            id=device_id,
                            game_id=game_id,
                            token_hash=token_hash,
                            seat=seat,
                            label=label,
                            joined=now,
                            seen=now,
                        )
                    )
                else:
                    device_id = mine.id
                    conn.execute(
                        update(DeviceRow).where(col(DeviceRow.id) == device_id).values(seat=seat, label=label, seen=now)
                    )
                row = conn.execute(_DEVICE.where(col(DeviceRow.id) == device_id)).one()
        except IntegrityError:  # the unique (game_id, seat) index: another phone won the race
            raise SeatTaken(game_id, seat if seat is not None else -1) from None
        return Device(*row)

    def find(self, token_hash: str, *, touch: bool = True) -> Device | None:
        """The device this token hash belongs to (its last visit recorded), or None."""
        with self.db.transaction() as conn:
            row = conn.execute(_DEVICE.where(col(DeviceRow.token_hash) == token_hash)).first()
        if row is None:
            return None
        device = Device(*row)
        if touch:
            now = _now()
            with self.db.transaction(write=True) as conn:
                conn.execute(update(DeviceRow).where(col(DeviceRow.id) == device.id).values(seen=now))
            device = Device(device.id, device.game_id, device.seat, device.label, device.joined, now)
        return device

    def get(self, device_id: str) -> Device | None:
        with self.db.transaction() as conn:
            row = conn.execute(_DEVICE.where(col(DeviceRow.id) == device_id)).first()
        return None if row is None else Device(*row)

    def devices(self, game_id: str) -> list[Device]:
        """The game's devices: seats in order, then the spectators by arrival."""
        with self.db.transaction() as conn:
            rows = conn.execute(
                _DEVICE.where(col(DeviceRow.game_id) == game_id).order_by(
                    col(DeviceRow.seat).is_(None), col(DeviceRow.seat), col(DeviceRow.joined), col(DeviceRow.id)
                )
            ).all()
        return [Device(*r) for r in rows]

    def free_seat(self, game_id: str, seat: int) -> list[str]:
        """Unbind whatever device holds the seat; its token then opens nothing. The ids removed."""
        with self.db.transaction(write=True) as conn:
            ids = (
                conn.execute(
                    select(col(DeviceRow.id)).where(col(DeviceRow.game_id) == game_id, col(DeviceRow.seat) == seat)
                )
                .scalars()
                .all()
            )
            conn.execute(delete(DeviceRow).where(col(DeviceRow.game_id) == game_id, col(DeviceRow.seat) == seat))
        return list(ids)

    def remove(self, game_id: str, device_id: str) -> bool:
        """Unbind one device (a spectator the host sends away)."""
        with self.db.transaction(write=True) as conn:
            done = conn.execute(
                delete(DeviceRow).where(col(DeviceRow.game_id) == game_id, col(DeviceRow.id) == device_id)
            )
        return bool(done.rowcount)

    @staticmethod
    def _game(conn: Connection, game_id: str) -> None:
        if conn.execute(select(col(GameRow.id)).where(col(GameRow.id) == game_id)).first() is None:
            raise GameNotFound(game_id)
