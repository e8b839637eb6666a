"""The migrations follow the layers (design.md, "Layout"): a migration names only its own app
and the apps below it, so that no app's migrations need to know the apps above; where a
migration of a lower app has to run after one of a higher app (it related a row to a model
that then lived higher up), the higher one says so with ``run_before``."""

from __future__ import annotations

import graphlib
import inspect
import re

from django.apps import apps
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import RunPython

#: The apps with models, top to bottom (pyproject.toml's layer contract).
LAYERS = ("compliance", "cage", "wagers", "rake", "tables", "patrons", "audit")


def _below(app: str, other: str) -> bool:
    return LAYERS.index(other) >= LAYERS.index(app)


def _named() -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Every (migration, migration it names) pair between the layered apps."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    pairs = []
    for key, migration in loader.disk_migrations.items():
        if key[0] in LAYERS:
            named = [*migration.dependencies, *migration.run_before]
            pairs += [(key, tuple(other)) for other in named if other[0] in LAYERS]
    return pairs


def test_every_migration_names_only_its_own_app_and_the_apps_below():
    upward = [(key, other) for key, other in _named() if not _below(key[0], other[0])]
    assert upward == []


def test_the_apps_migrations_name_one_another_without_a_cycle():
    sorter: graphlib.TopologicalSorter[str] = graphlib.TopologicalSorter()
    for (app, _), (other, _) in _named():
        if other != app:
            sorter.add(app, other)
    sorter.prepare()  # raises CycleError on a cycle


def test_the_migration_graph_loads_and_has_no_cycle():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    loader.graph.ensure_not_cyclic()
    leaves = {app: loader.graph.leaf_nodes(app) for app in LAYERS}
    assert all(len(nodes) == 1 for nodes in leaves.values()), leaves


def test_every_model_relation_points_to_its_own_app_or_below():
    upward = []
    for app in LAYERS:
        for model in apps.get_app_config(app).get_models():
            for field in model._meta.get_fields(include_hidden=True):
                if not (field.is_relation and field.concrete or field.many_to_many):
                    continue
                if field.auto_created and not field.concrete:
                    continue
                other = field.related_model._meta.app_label
                if other in LAYERS and not _below(app, other):
                    upward.append(f"{model._meta.label}.{field.name} -> {other}")
    assert sorted(upward) == sorted(STILL_POINTING_UP)


#: Relations of the released schema still pointing up a layer, to reverse (each to a link on
#: the higher side): none left, and none may come back.
STILL_POINTING_UP: list[str] = []


def _data_steps() -> list[tuple[tuple[str, str], object]]:
    """Every RunPython step of the project's migrations, with its migration's key."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    steps = []
    for key, migration in loader.disk_migrations.items():
        if key[0] not in LAYERS:
            continue
        for operation in migration.operations:
            if isinstance(operation, RunPython):
                steps += [(key, operation.code), (key, operation.reverse_code)]
    return [(key, code) for key, code in steps if code is not None and code is not RunPython.noop]


def test_every_data_step_queries_on_the_connection_migrate_runs_on():
    """With MIGRATION_DATABASE_URL, migrate runs as the owner on a connection of its own; a
    query on the default alias (the runtime role's) waits for the owner's locks for ever."""
    default_alias = re.compile(r"\b[A-Z]\w*\.objects\.(?!using\()")
    strays = []
    for key, code in _data_steps():
        source = inspect.getsource(code)  # type: ignore[arg-type]
        if default_alias.search(source) or (
            ".objects." in source and "schema_editor.connection.alias" not in source
        ):
            strays.append((key, code.__name__))  # type: ignore[attr-defined]
    assert strays == []
