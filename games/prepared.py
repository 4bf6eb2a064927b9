"""The SQL every game version runs, built once: the reads (`Prepared`, querysets of a fixed
shape compiled once per process) and the two writes (`save_row`, `insert_rows`).

Django compiles a queryset's SQL anew each time it runs. For the game row locked with its
table, match and round (some sixty columns) that costs about 2 ms of CPU, several times
what PostgreSQL spends answering it, and it is paid on every move, computer step and timer
(bench/commit_cost.py). `Prepared` compiles the queryset once in each process and
afterwards only runs the SQL with the new parameters on the calling thread's connection,
building the model instances the way Django's `ModelIterable` does: the same columns,
converters and `select_related` objects (an instance of a model without init signals'
receivers is made without running `Model.__init__`, and a JSON column is read by orjson:
the same values, `json_loads`). Its two writes (`save_row`, `insert_rows`) write their
JSON columns with orjson too (`json_dumps`: the same stored value).

Only for querysets whose parameters are exactly the call's arguments, in order (ids:
`filter(pk=...)`; a slice is fine, it is written into the SQL), without annotations;
anything else raises ValueError when first compiled, so a shape that would not fit is
found by the tests, not in production.

It builds on Django's compiler internals (`klass_info`, `get_related_populators`,
`get_converters`), which are not a public API: Django is pinned in pyproject.toml, and
every read registered here (`REGISTERED`) is compared with the ORM's own result, field by
field, by tests/games/play/test_prepared.py. A Django upgrade must pass that test and
bench/commit_cost.py (whether plain ORM reads have caught up and this can go).
"""
import json
import re

import orjson
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import JSONField, Model, signals
from django.db.models.base import ModelState
from django.db.models.fields.json import KeyTransform
from django.db.models.query import ValuesIterable, get_related_populators
from django.db.transaction import TransactionManagementError

try:
    from django.db.backends.postgresql.psycopg_any import Jsonb
except ImportError:  # no psycopg: only SQLite, whose JSON text Django writes itself
    Jsonb = type("NoJsonb", (), {})

REGISTERED = []
"""Every `Prepared` and `PreparedRows` made, in the order of their modules' import: the
reads the comparison with the ORM covers."""


class Prepared:
    """`Prepared(build)`: `build(*args)` returns the QuerySet for `args` (ints); `fetch(*args)`
    returns its model instances (list), `get(*args)` the one instance or None."""

    def __init__(self, build):
        self.build = build
        self._compiled = {}  # database alias -> what `_compile` keeps for it
        REGISTERED.append(self)

    def _compile(self, args, alias, connection):
        # Compiled once per process and database, not per thread: every HTTP request runs on a
        # thread of its own, so a per-thread cache compiled again on every request. Only the
        # SQL, the column layout and the converters are kept; each call runs them on its own
        # thread's connection.
        queryset = self.build(*args)
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        if list(params) != list(args):
            raise ValueError(f"{queryset.model.__name__}: the parameters {params!r} are not the arguments {args!r}")
        klass_info, select = compiler.klass_info, compiler.select
        if compiler.annotation_col_map or queryset._known_related_objects:
            raise ValueError(f"{queryset.model.__name__}: annotations and known related objects are not supported")
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        converters = compiler.get_converters([s[0] for s in select[0:compiler.col_count]])
        model = klass_info["model"]
        compiled = (
            connection.vendor, sql, bool(compiler.query.select_for_update), model,
            [f[0].target.attname for f in select[start:end]], (start, end),
            [_Populator.of(p) for p in get_related_populators(klass_info, select, alias)],
            _fast_json(converters), _maker(model),
        )
        self._compiled[alias] = compiled
        return compiled

    def fetch(self, *args):
        """The instances the queryset `build(*args)` would return (list), read with the SQL
        compiled for this process. Raises what the database raises."""
        if not all(type(a) is int for a in args):
            return list(self.build(*args))  # the compiled SQL is for ids only: Django checks the rest
        alias = DEFAULT_DB_ALIAS
        connection = connections[alias]
        compiled = self._compiled.get(alias)
        if compiled is None or compiled[0] != connection.vendor:
            compiled = self._compile(args, alias, connection)
        _vendor, sql, for_update, model, init_list, (start, end), populators, converters, make = compiled
        if for_update and not connection.in_atomic_block:
            # Django checks this when it compiles; the compiled SQL is run without that check
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        out = []
        for row in _fetch_converted(connection, sql, args, converters):
            obj = make(model, alias, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            out.append(obj)
        return out

    def get(self, *args):
        """The one instance of `build(*args)`, or None when there is none. Raises
        ValueError when there are several (the shape must select one row)."""
        found = self.fetch(*args)
        if len(found) > 1:
            raise ValueError(f"{len(found)} rows where one was expected")
        return found[0] if found else None


class PreparedRows:
    """`PreparedRows(build)`: `build()` returns a `values()` QuerySet whose parameters are
    its own constants (statuses, flags; never the clock or a caller's value); `rows()`
    returns its rows as the QuerySet would (list of dicts), with the SQL compiled once per
    process. For lists read on every change, such as the lobby's, whose annotations and
    joins cost Django several times the query's own time to compile."""

    def __init__(self, build):
        self.build = build
        self._compiled = {}  # database alias -> (vendor, sql, params, names, converters)
        REGISTERED.append(self)

    def _compile(self, alias, connection):
        queryset = self.build()
        if queryset._iterable_class is not ValuesIterable:
            raise ValueError(f"{queryset.model.__name__}: PreparedRows needs a values() queryset")
        query = queryset.query
        compiler = query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        names = list(query.selected) if query.selected else [
            *query.extra_select, *query.values_select, *query.annotation_select]
        converters = compiler.get_converters([s[0] for s in compiler.select[0:compiler.col_count]])
        compiled = (connection.vendor, sql, tuple(params), names, _fast_json(converters))
        self._compiled[alias] = compiled
        return compiled

    def rows(self):
        """The rows of `build()` (list of {name: value}), read with the SQL compiled for this
        process on the calling thread's connection. Raises what the database raises."""
        alias = DEFAULT_DB_ALIAS
        connection = connections[alias]
        compiled = self._compiled.get(alias)
        if compiled is None or compiled[0] != connection.vendor:
            compiled = self._compile(alias, connection)
        _vendor, sql, params, names, converters = compiled
        return [dict(zip(names, row)) for row in _fetch_converted(connection, sql, params, converters)]


def _from_db(model, alias, attnames, values):
    # Django's `Model.from_db`, for a model with init signals' receivers or an __init__ of its own
    return model.from_db(alias, attnames, values)


def _set_fields(model, alias, attnames, values):
    # What `Model.from_db` makes, without running `Model.__init__`: a dozen instances per
    # version, each a call per field through `__init__`'s checks and its two signals. For
    # a model nobody listens to `pre_init`/`post_init` of, `__init__` with positional
    # values only sets each loaded field's attribute (the fields not read stay deferred,
    # absent from the instance), which is what this does; `_state` says it came from `alias`.
    obj = model.__new__(model)
    state = ModelState()
    state.adding = False
    state.db = alias
    obj._state = state
    obj.__dict__.update(zip(attnames, values))
    return obj


def _maker(model):
    # `_set_fields` only for a plain model: no init signals' receivers, no __init__ of its
    # own (a receiver connected after the first read is not seen: the project has none,
    # and the comparison with the ORM in the tests would show one)
    plain = (model.__init__ is Model.__init__ and not signals.pre_init.has_listeners(model)
             and not signals.post_init.has_listeners(model))
    return _set_fields if plain else _from_db


class _Populator:
    # Django's `RelatedPopulator` (one `select_related` object of a row), building its
    # instance as `_maker` says

    @classmethod
    def of(cls, django_populator):
        mine = cls.__new__(cls)
        for name in ("reorder_for_init", "init_list", "model_cls", "pk_idx", "local_setter", "remote_setter", "db"):
            setattr(mine, name, getattr(django_populator, name))
        mine.cols = (getattr(django_populator, "cols_start", None), getattr(django_populator, "cols_end", None))
        mine.related_populators = [cls.of(p) for p in django_populator.related_populators]
        mine.make = _maker(mine.model_cls)
        return mine

    def populate(self, row, from_obj):
        data = self.reorder_for_init(row) if self.reorder_for_init else row[self.cols[0]:self.cols[1]]
        if data[self.pk_idx] is None:
            obj = None
        else:
            obj = self.make(self.model_cls, self.db, self.init_list, data)
            for related in self.related_populators:
                related.populate(row, obj)
        self.local_setter(from_obj, obj)
        if obj is not None:
            self.remote_setter(obj, from_obj)


_LONG_INTEGER = re.compile(r"[0-9]{19}")  # 19 digits or more: perhaps beyond 64 bits


def json_loads(text):
    """`json.loads(text)` (str) read by orjson, several times faster on a game's position:
    the same value, or a `json.JSONDecodeError` where `json` raises one. orjson reads an
    integer beyond 64 bits as a float and refuses what `json` takes (Infinity, NaN, lone
    surrogates): text that may hold either is left to `json`."""
    if _LONG_INTEGER.search(text) is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def _json_from_db(value, expression, connection):
    # `JSONField.from_db_value` of a field without a decoder of its own, through `json_loads`
    if value is None:
        return value
    if isinstance(expression, KeyTransform) and not isinstance(value, str):
        return value
    try:
        return json_loads(value)
    except json.JSONDecodeError:
        return value


def _fast_json(converters):
    # The compiled read's converters (`SQLCompiler.get_converters`) as a list, a JSON
    # column's decoder reading with orjson: a game's position and its round's deal are
    # most of the text a version reads.
    out = []
    for pos, (functions, expression) in converters.items():
        swapped = []
        for function in functions:
            field = getattr(function, "__self__", None)
            if (isinstance(field, JSONField) and field.decoder is None
                    and getattr(function, "__func__", None) is JSONField.from_db_value):
                function = _json_from_db
            swapped.append(function)
        out.append((pos, (swapped, expression)))
    return out

def _fetch_converted(connection, sql, params, converters):
    # The rows of `sql` on `connection`, each through the kept converters
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [_converted(row, converters, connection) for row in rows] if converters else rows


def _converted(row, converters, connection):
    # Django's `SQLCompiler.apply_converters` for one row, with the calling thread's connection
    row = list(row)
    for pos, (functions, expression) in converters:
        value = row[pos]
        for function in functions:
            value = function(value, expression, connection)
        row[pos] = value
    return row


# The two writes of every version, with their SQL built once per process: Django's
# `save()` and `bulk_create()` compile an UPDATE or INSERT each time (about 1 ms of CPU
# per version together, against well under that to run them). Values go through each
# field's own `pre_save` and `get_db_prep_save`, as Django's would; no signals are sent
# (the project has no receivers on these models).
_SQL = {}


def _columns(model):
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def save_row(obj):
    """UPDATE every column of `obj`'s row (a model instance with a pk), as `obj.save()`
    would for an existing row. Returns None. Raises what the database raises; ValueError
    when no row has that pk (the row must exist: it is the locked game)."""
    model, connection = type(obj), connections["default"]
    key = ("update", model, connection.vendor)
    if key not in _SQL:
        quote = connection.ops.quote_name
        sets = ", ".join(f"{quote(f.column)} = %s" for f in _columns(model))
        _SQL[key] = f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {quote(model._meta.pk.column)} = %s"
    values = _json_by_orjson([f.get_db_prep_save(f.pre_save(obj, False), connection) for f in _columns(model)])
    with connection.cursor() as cursor:
        cursor.execute(_SQL[key], values + [obj.pk])
        if cursor.rowcount != 1:
            raise ValueError(f"{model.__name__} {obj.pk}: {cursor.rowcount} rows updated")


def insert_rows(objs):
    """INSERT the new model instances `objs` (one model, no pk set) in one statement, as
    `bulk_create` would, without reading their ids back. Returns None."""
    if not objs:
        return
    model, connection = type(objs[0]), connections["default"]
    key = ("insert", model, connection.vendor, len(objs))
    columns = _columns(model)
    if key not in _SQL:
        quote = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        _SQL[key] = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in columns)}) "
                     f"VALUES {', '.join([row] * len(objs))}")
    values = _json_by_orjson([f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in columns])
    with connection.cursor() as cursor:
        cursor.execute(_SQL[key], values)


_STANDARD_DUMPS = json.dumps  # what Django's PostgreSQL backend gives a JSONField without an encoder of its own
_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def json_dumps(value):
    """The JSON text of `value` (bytes or str) as a `jsonb` column stores it: the same
    JSON value as `json.dumps(value)`, written by orjson (a game's position, on every
    version, several times faster). What orjson writes otherwise or refuses (an integer
    beyond 64 bits, a lone surrogate, a datetime or a dataclass, which `json` refuses) is
    left to `json`, which raises what it raises. A NaN or an infinity, which PostgreSQL
    refuses in the text `json` writes, is written null."""
    try:
        return orjson.dumps(value, option=_ORJSON_OPTIONS)
    except orjson.JSONEncodeError:
        return _STANDARD_DUMPS(value)


def _json_by_orjson(values):
    # The values of a write, each JSON column's (a psycopg `Jsonb` Django made with the
    # standard `json.dumps`) to be written by `json_dumps`: the same stored value.
    for value in values:
        if isinstance(value, Jsonb) and value.dumps is _STANDARD_DUMPS:
            value.dumps = json_dumps
    return values
