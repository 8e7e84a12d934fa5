"""The ship designer page: build a design system by system, see mass and points as you go.

One form holds the whole design (``sys-<n>-<field>`` for the systems). Every answer is
server-rendered from ``app.rules``: the page never holds a second copy of a mass rule.

- ``GET /designer[?from=<id>]``: a blank design, or a copy of a preset or saved design.
- ``POST /designer``: add / remove / move a system, import JSON, recalculate; the whole page,
  or (htmx) the form block. Works without JavaScript.
- ``POST /designer/summary``: (htmx, on every edit) the totals and problems block alone.
- ``POST /designer/export``: the design as a JSON download.
- ``POST /designer/save``: save (CSRF-checked) → the id and the owner token, shown once.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from markupsafe import Markup, escape
from starlette.datastructures import FormData, UploadFile

from app.deps import DbDep
from app.play import designs as play_designs
from app.play import errors as E
from app.play import inputs
from app.rules.designs import PRESET_DESIGNS, Design, design_summary
from app.rules.errors import DesignError
from app.rules.geometry import ARCS, BROADSIDE_ARCS, arc_span
from app.rules.systems import BAY_GROUPS, LOAD_MASS, SENSOR_GRADES, SYSTEMS, SystemType
from app.web import forms
from app.web.routes import NO_STORE, _page
from app.web.security import check_csrf

router = APIRouter(include_in_schema=False)

TEMPLATE = "designer.html"
MAX_SYSTEMS = 60
MAX_IMPORT_BYTES = 64 * 1024
FAMILIES = (
    ("weapon", "Weapons"),
    ("ordnance", "Missiles and torpedoes"),
    ("bay", "Fighter and drone bays"),
    ("defence", "Defences"),
    ("electronics", "Electronics"),
    ("hull", "Hull"),
)
FRAME_FIELDS = ("id", "name", "class", "mass", "thrust", "hull", "hull_rows", "armour", "stealth")
# the form's names for them: "f_" + the design's key. Never a bare "id", "name" or "remove":
# a form control's name shadows the form element's own property of that name in the DOM
# (form.remove would be a button), which breaks scripts that swap the form.
FIELD = "f_"
NUMBER_FIELDS = ("mass", "thrust", "hull", "hull_rows", "armour", "stealth")
BLANK = Design(id="my-design", name="New design", hull_class="frigate", mass=30, thrust=4, hull=8)
_SYS_KEY = re.compile(r"^sys-([0-9]{1,4})-type$")
MAGAZINE = "magazine"
# how the page names the loads (the JSON keeps the table's names)
LOAD_LABELS = {
    "salvo": "salvo",
    "er_salvo": "extended-range salvo",
    "af_salvo": "anti-fighter salvo",
    "long_lance": "long lance",
    "standard": "standard heavy missile",
    "misericorde": "misericorde",
    "emp": "EMP missile",
    "needle": "needle missile",
    "ecm": "ECM missile",
}
# what a button or select that changes the form's shape does with htmx: post the whole form
# and swap the whole form (the server draws it again)
ACT = Markup(
    'hx-post="/designer" hx-target="#designer" hx-swap="outerHTML" '
    'hx-encoding="multipart/form-data"'
)


def keep_option(value: str, choices: list[str]) -> Markup:
    """A select's option for a value the choices lack (from imported JSON), so that the form
    shows it (and the problems name it) instead of silently picking another."""
    if not value or value in choices:
        return Markup("")
    return Markup('<option value="{0}" selected>{0} (not allowed)</option>').format(escape(value))


# -- the form's contents ---------------------------------------------------------------------
@dataclass
class SystemDraft:
    """One system as the form holds it: raw strings, kept as typed."""

    id: str
    type: str
    cls: str = ""
    arcs: list[str] = field(default_factory=list)
    weak_arcs: list[str] = field(default_factory=list)
    mode: str = ""
    level: str = ""
    grade: str = ""
    load: str = ""  # a rack's load
    magazine: str = ""  # a launcher's magazine id
    loads: dict[str, str] = field(default_factory=dict)  # a magazine's counts, as typed
    capacity: str = ""  # only in a public copy: shown so that it can be cleared

    @classmethod
    def from_spec(cls, data: Mapping[str, Any]) -> SystemDraft:
        def text(key: str) -> str:
            value = data.get(key)
            return "" if value is None else str(value)

        return cls(
            id=text("id"),
            type=text("type"),
            cls=text("class"),
            arcs=[str(a) for a in data.get("arcs") or ()],
            weak_arcs=[str(a) for a in data.get("weak_arcs") or ()],
            mode=text("mode"),
            level=text("level"),
            grade=text("grade"),
            load=text("load"),
            magazine=text("magazine"),
            loads={str(k): str(v) for k, v in (data.get("loads") or {}).items()},
            capacity=text("capacity"),
        )

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.cls.strip():
            out["class"] = _number(self.cls)
        if self.arcs or (self.type in SYSTEMS and SYSTEMS[self.type].max_arcs):
            out["arcs"] = list(self.arcs)
        if self.weak_arcs:
            out["weak_arcs"] = list(self.weak_arcs)
        if self.mode.strip():
            out["mode"] = self.mode.strip()
        if self.level.strip():
            out["level"] = _number(self.level)
        if self.grade.strip():
            out["grade"] = self.grade.strip()
        return out | self._ordnance_data()

    def _ordnance_data(self) -> dict[str, Any]:
        """``load``, ``magazine``, ``loads`` (a count left empty or 0 is no load of that
        name), ``capacity``: as typed, so that the reader names what is not a number."""
        out: dict[str, Any] = {}
        if self.load.strip():
            out["load"] = self.load.strip()
        if self.magazine.strip():
            out["magazine"] = self.magazine.strip()
        loads = {
            name: _number(count) for name, count in self.loads.items() if count.strip() not in _NONE
        }
        if loads:
            out["loads"] = loads
        if self.capacity.strip():
            out["capacity"] = _number(self.capacity)
        return out


_NONE = ("", "0")


@dataclass
class Draft:
    """The whole form: the frame fields as typed, the orientation, the systems in order."""

    fields: dict[str, str]
    broadside: bool = False
    systems: list[SystemDraft] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # fields holding text none may hold

    @classmethod
    def from_design(cls, design: Design) -> Draft:
        data = design.to_dict()
        return cls(
            fields={k: str(data.get(k, 0 if k == "stealth" else "")) for k in FRAME_FIELDS},
            broadside=design.broadside,
            systems=[SystemDraft.from_spec(s) for s in data["systems"]],
        )

    @classmethod
    def from_form(cls, form: FormData) -> Draft:
        # a field the form does not send at all is left out (the reader then says it is
        # missing, or takes the default of an optional one); an empty one is kept as typed
        fields = {k: _text(form, FIELD + k) for k in FRAME_FIELDS if FIELD + k in form}
        indices = sorted({int(m.group(1)) for key in form if (m := _SYS_KEY.match(key))})[
            :MAX_SYSTEMS
        ]
        systems = []
        for n in indices:
            p = f"sys-{n}-"
            spec = SystemDraft(
                id=_text(form, p + "id"),
                type=_text(form, p + "type"),
                cls=_text(form, p + "class"),
                arcs=_texts(form, p + "arc"),
                weak_arcs=_texts(form, p + "weak"),
                mode=_text(form, p + "mode"),
                level=_text(form, p + "level"),
                grade=_text(form, p + "grade"),
                load=_text(form, p + "load"),
                magazine=_text(form, p + "magazine"),
                loads=_loads(form, p + "loads-"),
                capacity=_text(form, p + "capacity"),
            )
            row = SYSTEMS.get(spec.type)
            was = form.get(p + "was")
            if row and row.all_arcs and spec.cls == "1" and isinstance(was, str) and was != "1":
                # just made class 1, which fires all round: the arcs picked for the old class
                # (and its weak arcs) go, rather than stand as a problem nobody asked for
                spec.arcs, spec.weak_arcs = [], []
            systems.append(spec)
        return cls(
            fields=fields,
            broadside=form.get(FIELD + "broadside") == "on",
            systems=systems,
            refused=_refused(form),
        )

    def to_data(self) -> dict[str, Any]:
        """The design object ``Design.from_dict`` reads: numbers where the text is one, the
        text itself otherwise (so the reader names the field that is not a number)."""
        out: dict[str, Any] = {}
        for key in FRAME_FIELDS:
            if key in self.fields:
                value = self.fields[key]
                out[key] = _number(value) if key in NUMBER_FIELDS else value
        out["broadside"] = self.broadside
        out["systems"] = [s.to_data() for s in self.systems]
        return out

    def read(self) -> tuple[Design | None, list[str]]:
        """The design, or the reasons it cannot be read (each naming its field)."""
        if self.refused:
            return None, list(self.refused)
        try:
            return Design.from_dict(self.to_data()), []
        except DesignError as error:
            return None, list(error.problems)

    def new_system_id(self, system_type: str) -> str:
        taken = {s.id for s in self.systems}
        stem = system_type.replace("_", "-")
        n = 1
        while f"{stem}-{n}" in taken:
            n += 1
        return f"{stem}-{n}"


def _refused(form: FormData) -> list[str]:
    """A problem for each field whose text no design may hold (a NUL: forms cannot carry a
    lone surrogate), named as the problems name it; the pasted import is ``import_design``'s."""
    out = []
    for key, value in form.multi_items():
        if key in ("csrf", "import_json") or not isinstance(value, str):
            continue
        fault = inputs.text_fault(value)
        if fault is not None:
            m = re.fullmatch(r"sys-([0-9]{1,4})-(.+)", key)
            where = f"system {int(m.group(1)) + 1} {m.group(2)}" if m else key.removeprefix(FIELD)
            out.append(f"{where}: {fault}")
    return out


def _text(form: FormData, key: str) -> str:
    value = form.get(key)
    return value.strip()[:200] if isinstance(value, str) else ""


def _loads(form: FormData, prefix: str) -> dict[str, str]:
    """A magazine's counts: ``sys-<n>-loads-<load name>`` fields, in the form's order."""
    out: dict[str, str] = {}
    for key, value in form.multi_items():
        if key.startswith(prefix) and isinstance(value, str) and len(out) < 20:
            out[key.removeprefix(prefix)[:40]] = value.strip()[:20]
    return out


def _texts(form: FormData, key: str) -> list[str]:
    return [v.strip()[:20] for v in form.getlist(key) if isinstance(v, str) and v.strip()]


def _number(text: str) -> int | str:
    value = forms.whole(text)
    return text.strip() if value is None else value


def new_system(draft: Draft, system_type: str) -> SystemDraft:
    """A fresh system of a type with the table's first sensible choices: a class that takes
    arcs (class 2 where class 1 fires all round), the first level, grade or mode; no arcs yet."""
    row = SYSTEMS[system_type]
    spec = SystemDraft(id=draft.new_system_id(system_type), type=system_type)
    if row.classes:
        above_one = [c for c in row.classes if c > 1]
        spec.cls = str(above_one[0] if row.all_arcs and above_one else row.classes[0])
    if row.levels:
        spec.level = str(row.levels[0])
    if row.grades:
        spec.grade = next(iter(row.grades))
    if row.rack:
        spec.load = row.fires[0]
    if row.holds:
        spec.load = row.holds[0]
    magazines = [s.id for s in draft.systems if s.type == MAGAZINE]
    if row.fed and magazines:
        spec.magazine = magazines[0]
    if row.stores:  # it feeds every launcher that has no magazine yet
        for other in draft.systems:
            fed = SYSTEMS.get(other.type)
            if fed is not None and fed.fed and not other.magazine:
                other.magazine = spec.id
    return spec


# -- what the page draws -----------------------------------------------------------------------
def _point(angle: float, radius: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return round(radius * math.sin(rad), 2), round(-radius * math.cos(rad), 2)


def rosette(ring: tuple[str, ...], full: list[str], weak: list[str]) -> list[dict[str, Any]]:
    """The six wedges of an arc ring, drawn as the arcs lie around the ship (bow up)."""
    wedges = []
    for arc in ring:
        start, end = arc_span(arc)
        if end <= start:
            end += 360.0
        x0, y0 = _point(start, 40)
        x1, y1 = _point(end, 40)
        lx, ly = _point((start + end) / 2, 27)
        state = "full" if arc in full else "weak" if arc in weak else "off"
        wedges.append(
            {
                "arc": arc,
                "path": f"M0,0 L{x0},{y0} A40,40 0 0 1 {x1},{y1} Z",
                "lx": lx,
                "ly": ly,
                "state": state,
            }
        )
    return wedges


@dataclass
class SystemView:
    n: int
    draft: SystemDraft
    row: SystemType | None
    label: str
    ring: tuple[str, ...]
    all_round: bool  # a class-1 beam-like weapon: all six arcs, nothing to pick
    arc_choices: list[str]
    weak_allowed: bool
    weak_choices: list[str]
    show: dict[str, bool]
    wedges: list[dict[str, Any]]
    load_choices: list[str] = field(default_factory=list)  # a rack's, or a bay's group types
    load_labels: dict[str, str] = field(default_factory=dict)  # how the page names them
    magazine_choices: list[str] = field(default_factory=list)  # the design's magazines
    load_rows: list[dict[str, Any]] = field(default_factory=list)  # a magazine's counts
    mass: int | None = None
    points: int | None = None


def system_views(draft: Draft, summary: Mapping[str, Any] | None) -> list[SystemView]:
    ring = BROADSIDE_ARCS if draft.broadside else ARCS
    rows = summary["systems"] if summary else []
    views = []
    for n, s in enumerate(draft.systems):
        row = SYSTEMS.get(s.type)
        cls = _number(s.cls)
        takes_arcs = bool(row and row.max_arcs)
        full_ring = set(s.arcs) in (set(), set(ring))
        all_round = bool(row and row.all_arcs and cls == 1 and full_ring)
        # every arc of the ring, then any arc the system has from outside it (so that it can
        # be seen, and unticked, rather than silently dropped)
        arc_choices = (
            ([] if all_round else [*ring, *[a for a in s.arcs if a not in ring]])
            if takes_arcs or s.arcs
            else []
        )
        weak_allowed = bool(row and row.weak_arcs and isinstance(cls, int) and cls >= 2)
        weak_choices = (
            [*ring, *[a for a in s.weak_arcs if a not in ring]]
            if weak_allowed or s.weak_arcs
            else []
        )
        takes = set(row.fields) if row else set()
        show = {
            "class": "class" in takes or bool(s.cls),
            "mode": "mode" in takes or bool(s.mode),
            "level": "level" in takes or bool(s.level),
            "grade": "grade" in takes or bool(s.grade),
            "load": "load" in takes or bool(s.load),
            "magazine": "magazine" in takes or bool(s.magazine),
            "loads": "loads" in takes or bool(s.loads),
            "capacity": bool(s.capacity),
        }
        wedges = rosette(ring, list(ring) if all_round else s.arcs, s.weak_arcs)
        view = SystemView(
            n=n,
            draft=s,
            row=row,
            label=row.label if row else s.type,
            ring=ring,
            all_round=all_round,
            arc_choices=arc_choices,
            weak_allowed=weak_allowed,
            weak_choices=weak_choices,
            show=show,
            wedges=wedges if takes_arcs else [],
            load_choices=list(row.fires) if row and row.rack else list(row.holds) if row else [],
            load_labels=group_labels(s.type) or LOAD_LABELS,
            magazine_choices=[x.id for x in draft.systems if x.type == MAGAZINE and x.id],
            load_rows=load_rows(s) if show["loads"] else [],
        )
        if n < len(rows):
            view.mass, view.points = rows[n]["mass"], rows[n]["points"]
        views.append(view)
    return views


def load_rows(s: SystemDraft) -> list[dict[str, Any]]:
    """One count box per load a magazine may hold, then any other name it was given (from
    imported JSON, so that it can be seen and cleared)."""
    names = [*LOAD_MASS, *(n for n in s.loads if n not in LOAD_MASS)]
    return [
        {
            "name": name,
            "label": LOAD_LABELS.get(name, name),
            "mass": LOAD_MASS.get(name),
            "count": s.loads.get(name, ""),
            "slug": re.sub(r"[^a-z0-9_]", "-", name.lower()),
        }
        for name in names
    ]


def group_labels(system_type: str) -> dict[str, str]:
    """A bay's group types as the select shows them, with the group's points; {} for others."""
    return {
        name: f"{g.label} (+{g.group_points} pts)"
        for name, g in BAY_GROUPS.get(system_type, {}).items()
    }


def picker() -> list[dict[str, Any]]:
    return [
        {"family": fam, "title": title, "rows": [r for r in SYSTEMS.values() if r.family == fam]}
        for fam, title in FAMILIES
    ]


def context(
    draft: Draft,
    *,
    notice: str | None = None,
    import_error: str | None = None,
    import_text: str = "",
    from_error: str | None = None,
    start: str = "",
) -> dict[str, Any]:
    design, read_problems = draft.read()
    summary = design_summary(design) if design is not None else None
    problems = read_problems if summary is None else summary["problems"]
    return {
        "draft": draft,
        "design": design,
        "summary": summary,
        "problems": problems,
        "labels": {t: r.label for t, r in SYSTEMS.items()}
        | {"main_drive": "main drive", "power_core": "power core", "bridge": "bridge"}
        | {"life_support": "life support"},
        "systems": system_views(draft, summary),
        "json_text": json.dumps(design.to_dict(), indent=2) if design is not None else "",
        "picker": picker(),
        "presets": list(PRESET_DESIGNS.values()),
        "grades": list(SENSOR_GRADES),
        "load_labels": LOAD_LABELS,
        "max_systems": MAX_SYSTEMS,
        "notice": notice,
        "import_error": import_error,
        "import_text": import_text,
        "from_error": from_error,
        "start": start,
        "act": ACT,
        "keep_option": keep_option,
    }


# -- actions -----------------------------------------------------------------------------------
def _index(form: FormData, name: str, count: int) -> int | None:
    value = form.get(name)
    index = forms.whole(value) if isinstance(value, str) else None
    return index if index is not None and 0 <= index < count else None


async def _import_text(form: FormData) -> str:
    upload = form.get("import_file")
    if isinstance(upload, UploadFile) and upload.filename:
        try:
            raw = await upload.read(MAX_IMPORT_BYTES + 1)
        finally:
            await upload.close()
        if len(raw) > MAX_IMPORT_BYTES:
            raise ValueError(f"the file is larger than {MAX_IMPORT_BYTES // 1024} KiB")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("the file is not UTF-8 text") from None
    value = form.get("import_json")
    return value if isinstance(value, str) else ""


def import_design(text: str) -> Design:
    """JSON text → a design (``ValueError`` saying what is wrong; rules are not checked)."""
    if not text.strip():
        raise ValueError("paste a design's JSON or choose a file first")
    if inputs.too_deep(text):  # before parsing: the parser recurses once per level
        raise ValueError(inputs.TOO_DEEP)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"this is not JSON ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    for where, fault in inputs.text_faults(data, limit=1):
        raise ValueError(f"this JSON is not a design: {where}: {fault}")
    try:  # a design as the API gives it out (with its read-only points, summary) imports too
        return Design.from_dict(play_designs.without_read_only(data))
    except DesignError as error:
        raise ValueError("this JSON is not a design: " + "; ".join(error.problems)) from None


async def apply(form: FormData) -> tuple[dict[str, Any], int]:
    """Carry out the button the form was sent with; the page's context and status."""
    draft = Draft.from_form(form)
    count = len(draft.systems)
    notice = None
    add = form.get("sys_add")
    if form.get("do_import"):
        try:
            imported = import_design(await _import_text(form))
        except ValueError as error:
            pasted = form.get("import_json")
            return context(
                draft,
                import_error=str(error),
                import_text=pasted if isinstance(pasted, str) else "",
            ), 422
        return context(Draft.from_design(imported), notice=f"Imported {imported.name}."), 200
    if isinstance(add, str) and add:
        if add not in SYSTEMS:
            return context(draft, notice=f"there is no system type {add!r} to add"), 422
        if count >= MAX_SYSTEMS:
            return context(draft, notice=f"a design holds at most {MAX_SYSTEMS} systems"), 422
        draft.systems.append(new_system(draft, add))
        notice = f"Added {SYSTEMS[add].label} {draft.systems[-1].id}."
    elif (i := _index(form, "sys_remove", count)) is not None:
        gone = draft.systems.pop(i)
        notice = f"Removed {gone.id or gone.type}."
    elif (i := _index(form, "sys_up", count)) is not None and i > 0:
        draft.systems[i - 1], draft.systems[i] = draft.systems[i], draft.systems[i - 1]
    elif (i := _index(form, "sys_down", count)) is not None and i < count - 1:
        draft.systems[i + 1], draft.systems[i] = draft.systems[i], draft.systems[i + 1]
    return context(draft, notice=notice), 200


# -- routes ------------------------------------------------------------------------------------
def _htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


@router.get("/designer", response_model=None)
async def designer(request: Request, db: DbDep) -> Response:
    start = request.query_params.get("from", "").strip()
    if not start:
        return _page(request, TEMPLATE, context(Draft.from_design(BLANK)))
    try:
        design = await play_designs.load(db, start)
    except E.Problem as error:
        ctx = context(Draft.from_design(BLANK), from_error=error.detail, start=start[:64])
        return _page(request, TEMPLATE, ctx, status=error.status)
    except DesignError as error:  # a stored design the rules no longer read
        ctx = context(Draft.from_design(BLANK), from_error=error.detail, start=start[:64])
        return _page(request, TEMPLATE, ctx, status=422)
    return _page(request, TEMPLATE, context(Draft.from_design(design), start=start))


@router.post("/designer", response_model=None)
async def edit(request: Request) -> Response:
    form = await request.form()
    check_csrf(request, _csrf(form))
    ctx, status = await apply(form)
    return _page(request, TEMPLATE, ctx, status=status, block="editor" if _htmx(request) else None)


@router.post("/designer/summary", response_model=None)
async def summary(request: Request) -> Response:
    form = await request.form()
    check_csrf(request, _csrf(form))
    ctx = {**context(Draft.from_form(form)), "oob": True}  # and each system's mass and points
    return _page(request, TEMPLATE, ctx, block="summary")


@router.post("/designer/export", response_model=None)
async def export(request: Request) -> Response:
    form = await request.form()
    check_csrf(request, _csrf(form))
    draft = Draft.from_form(form)
    design, _ = draft.read()
    if design is None:
        ctx = context(draft, notice="Fix the fields the problems name, then download again.")
        return _page(request, TEMPLATE, ctx, status=422)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", design.id).strip("-.") or "design"
    return JSONResponse(
        design.to_dict(),
        headers={**NO_STORE, "Content-Disposition": f'attachment; filename="{name}.json"'},
    )


@router.post("/designer/save", response_model=None)
async def save(request: Request, db: DbDep) -> Response:
    form = await request.form()
    check_csrf(request, _csrf(form))
    draft = Draft.from_form(form)
    design, _ = draft.read()
    if design is None or design.problems():
        ctx = context(draft, notice="Not saved: fix the problems listed, then save again.")
        return _page(request, TEMPLATE, ctx, status=422)
    saved = await play_designs.save(db, design.to_dict())
    return _page(
        request,
        "designer_saved.html",
        {
            "design_id": saved["id"],
            "owner_token": saved["owner_token"],
            "design": design,
            "points": design.points(),
        },
        status=201,
    )


def _csrf(form: FormData) -> str | None:
    value = form.get("csrf")
    return value if isinstance(value, str) else None
