"""The map of one game: which Places exist, what each die face names, what is adjacent.

Built once from the catalog and the game's modules. Dig In Places take the id of the Place
they cover everywhere (DI-2), Team mode splits the Cell Block in two (TEAM-1/2), and the
Warden's Office is added beside the Cell Block or the Showers (OFF-1, TEAM-7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .catalog import Catalog, PlaceInfo
from .ruleset import Ruleset

BASE_ROLES = ("cell_block", "cafeteria", "recreational_area", "infirmary", "showers", "solitary")


@dataclass(frozen=True)
class Board:
    places: Mapping[str, PlaceInfo]  # in display order
    by_role: Mapping[str, tuple[str, ...]]
    faces: Mapping[int, tuple[str, ...]]
    adjacent: Mapping[str, frozenset[str]]
    solitary: str
    office: str | None
    search: Mapping[str, int]

    def role(self, place: str) -> str:
        return self.places[place].role

    def is_role(self, place: str, role: str) -> bool:
        return self.places[place].role == role

    def first(self, role: str) -> str | None:
        ids = self.by_role.get(role)
        return ids[0] if ids else None

    def destinations(self, current: str, face: int, *, office_allowed: bool = True) -> tuple[str, ...]:
        """Where a Simple move with this die face may end (MOVE-1, MOVE-2, OFF-1)."""
        named = self.faces[face]
        if current not in named:
            return named
        others = tuple(p for p in named if p != current)
        if office_allowed and self.office is not None:
            others += (self.office,)
        return others


def build_board(catalog: Catalog, ruleset: Ruleset, chosen: tuple[str, ...], warden: bool, team: bool) -> Board:
    """The Places of a game; the caller has validated `chosen` (DI-1, TEAM-7)."""
    replacement = {catalog.places[p].role: p for p in chosen}
    ids: list[str] = []
    for role in BASE_ROLES:
        if role == "cell_block" and team:
            ids += ["cell_block_a", "cell_block_b"]
        else:
            ids.append(replacement.get(role, role))
    office = None
    if warden:
        office = "wardens_office"
        ids.append(office)
    places = {pid: catalog.places[pid] for pid in ids}
    by_role: dict[str, tuple[str, ...]] = {}
    for pid, info in places.items():
        by_role[info.role] = by_role.get(info.role, ()) + (pid,)

    table = ruleset.team_die_faces if team else catalog.die_faces
    faces = {face: tuple(p if p in places else replacement.get(p, p) for p in named) for face, named in table.items()}

    adjacent: dict[str, set[str]] = {pid: set() for pid in places}
    for named in faces.values():
        for a in named:
            adjacent[a].update(b for b in named if b != a)
    if office is not None:
        beside = by_role[catalog.office_beside["team" if team else "standard"]]
        for b in beside:
            adjacent[office].add(b)
            adjacent[b].add(office)
    solitary = by_role["solitary"][0]
    search = {pid: ruleset.search.get(pid, info.search) for pid, info in places.items()}
    return Board(
        places=places,
        by_role=by_role,
        faces=faces,
        adjacent={pid: frozenset(s) for pid, s in adjacent.items()},
        solitary=solitary,
        office=office,
        search=search,
    )
