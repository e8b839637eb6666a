"""A state exclusion list is imported by a Celery task with its progress on the compliance
screen (inline on the embedded default, once the request commits): the API answers 202 with
the import and GET polls it; what cannot be read as a state list (too large, a NUL, a cell
longer than CSV takes, unknown columns) is a 4xx at once, naming the line; a bad row fails the
import naming its line and column, and nothing is imported; a formula cell is refused."""

from __future__ import annotations

import csv
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from kombu.exceptions import OperationalError

from audit.models import AuditEvent
from patrons import tasks
from patrons.models import Exclusion, ExclusionListImport
from patrons.state_list_imports import state_list_import_request
from patrons.state_list_runs import state_list_import_run, state_list_imports_fail_stalled
from patrons.state_lists import state_list_rows
from tests.api.conftest import token_client

pytestmark = pytest.mark.django_db

V = "/api/v1"
HEADER = "kind,name,date_of_birth,id_type,id_number,id_issuer,starts_on,ends_on,reference\n"
STATE_LIST = (
    HEADER
    + "self_excluded,Pat Doe,1975-02-03,,,,2026-01-01,,CA-0001\n"
    + "barred,Lee Roe,,driver_licence,B7654321,CA,2025-06-01,2027-06-01,CA-0002\n"
)


def upload(text: str, name: str = "ca.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def post_list(client, text: str, **headers):
    return client.post(
        f"{V}/exclusions/import/",
        {"file": upload(text)},
        headers={"Idempotency-Key": f"import-{len(text)}-{hash(text)}", **headers},
    )


def test_the_api_answers_202_and_the_import_runs_once_the_request_commits(
    auditor, django_capture_on_commit_callbacks
):
    client = token_client(auditor)
    with django_capture_on_commit_callbacks(execute=True):  # run as the test's "commit" ends
        response = post_list(client, STATE_LIST)

    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["status"], body["rows"], body["added"]) == ("pending", 2, 0)
    polled = client.get(f"{V}/exclusions/import/{body['id']}/").json()
    assert (polled["status"], polled["added"], polled["on_file"]) == ("done", 2, 0)
    assert polled["progress"] == 100
    assert sorted(Exclusion.objects.values_list("reference", flat=True)) == ["CA-0001", "CA-0002"]
    assert AuditEvent.objects.filter(action="exclusion.list_imported").count() == 1


def test_an_import_waits_for_its_worker_and_then_reports_what_it_added(auditor):
    client = token_client(auditor)
    response = post_list(client, STATE_LIST)  # on-commit callbacks do not run here

    assert response.status_code == 202
    job = ExclusionListImport.objects.get(pk=response.json()["id"])
    assert (job.status, job.progress, job.rows) == ("pending", 0, 2)
    assert not Exclusion.objects.exists()

    state_list_import_run(job.pk)  # what the worker runs

    job.refresh_from_db()
    assert (job.status, job.added, job.on_file, job.progress) == ("done", 2, 0, 100)
    assert job.content is None  # the file (ID numbers) is not kept once read
    again = state_list_import_request(text=STATE_LIST, source_name="ca.csv", by=auditor)
    again = state_list_import_run(again.pk)
    assert (again.added, again.on_file) == (0, 2)


def test_the_queued_file_is_encrypted_at_rest(auditor):
    job = state_list_import_request(text=STATE_LIST, source_name="ca.csv", by=auditor)

    with connection.cursor() as cursor:
        cursor.execute("SELECT content FROM patrons_exclusionlistimport WHERE id = %s", [job.pk])
        stored = cursor.fetchone()[0]
    assert "B7654321" not in stored and "Lee Roe" not in stored
    assert ExclusionListImport.objects.get(pk=job.pk).content == STATE_LIST


def test_progress_is_written_while_the_file_is_read(auditor, monkeypatch):
    monkeypatch.setattr("patrons.state_lists.PROGRESS_EVERY", 1)
    rows = "".join(f"barred,Person {n},1970-01-01,,,,2026-01-01,,R-{n}\n" for n in range(10))
    job = state_list_import_request(text=HEADER + rows, source_name="ten.csv", by=auditor)
    seen: list[tuple[str, int]] = []
    read = state_list_rows

    def watched(text, *, progress=None):
        def told(count):
            progress(count)
            seen.append(
                ExclusionListImport.objects.values_list("status", "progress").get(pk=job.pk)
            )

        return read(text, progress=told)

    monkeypatch.setattr("patrons.exclusion_imports.state_list_rows", watched)
    state_list_import_run(job.pk)

    assert seen[0] == ("running", 9) and seen[-1] == ("running", 95)
    assert [percent for _, percent in seen] == sorted(percent for _, percent in seen)


def test_a_bad_row_fails_the_import_naming_its_line_and_column_and_imports_nothing(auditor):
    bad = STATE_LIST + "barred,Kim Poe,1970-13-01,,,,2026-01-01,,CA-0003\n"
    job = state_list_import_request(text=bad, source_name="ca.csv", by=auditor)
    events = AuditEvent.objects.count()

    job = state_list_import_run(job.pk)

    assert job.status == "failed"
    assert job.error.startswith("Line 4, date_of_birth:") and job.error_field == "file"
    assert not Exclusion.objects.exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize(
    ("cell", "column"),
    [("=HYPERLINK(1)", "name"), ("+1 cheat", "name"), ("@SUM(A1)", "reason"), ("-x", "name")],
)
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_refused(auditor, cell, column):
    name, reason = (cell, "Listed") if column == "name" else ("Pat Doe", cell)
    text = (
        f"kind,name,starts_on,date_of_birth,reason\nbarred,{name},2026-01-01,1970-01-01,{reason}\n"
    )
    job = state_list_import_run(
        state_list_import_request(text=text, source_name="f.csv", by=auditor).pk
    )

    assert job.status == "failed"
    assert job.error.startswith(f"Line 2, {column}:") and "formula" in job.error
    assert not Exclusion.objects.exists()


def test_a_date_in_digits_that_are_not_ascii_fails_the_import_naming_it(auditor):
    text = "kind,name,date_of_birth,starts_on\nbarred,Pat Doe,١٩٧٠-01-01,2026-01-01\n"
    job = state_list_import_run(
        state_list_import_request(text=text, source_name="f.csv", by=auditor).pk
    )

    assert (job.status, job.error.split(":")[0]) == ("failed", "Line 2, date_of_birth")


def test_a_cell_longer_than_csv_takes_is_a_422_naming_the_line_and_queues_nothing(auditor):
    long_cell = "x" * (csv.field_size_limit() + 1)
    text = STATE_LIST + f"barred,{long_cell},1970-01-01,,,,2026-01-01,,CA-9\n"

    response = post_list(token_client(auditor), text)

    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["field"] == "file"
    assert error["message"].startswith("Line 4:") and "longer than" in error["message"]
    assert not ExclusionListImport.objects.exists()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (STATE_LIST.replace("Lee Roe", "Lee\x00Roe"), "Line 3 holds a NUL character"),
        ("kind,name,starts_on,shoe_size\n", "Unknown columns: shoe_size"),
        ("kind,name\n", "Missing columns: starts_on"),
        (STATE_LIST + 'barred,"Un"closed\n', "not a readable CSV"),
    ],
)
def test_a_file_that_is_no_state_list_is_refused_at_once(auditor, text, says):
    response = post_list(token_client(auditor), text)

    assert response.status_code in (400, 422), response.content
    error = response.json()["error"]
    assert error["field"] == "file" and says in error["message"], error
    assert not ExclusionListImport.objects.exists()


def test_a_file_over_the_limit_is_refused_by_its_size(auditor, settings):
    settings.EXCLUSION_LIST_MAX_BYTES = 100

    response = post_list(token_client(auditor), STATE_LIST + "x" * 100)

    assert response.status_code == 422
    assert response.json()["error"]["field"] == "file"
    assert not ExclusionListImport.objects.exists()


def test_a_broker_that_is_down_marks_the_import_failed_with_the_reason(
    auditor, monkeypatch, django_capture_on_commit_callbacks
):
    def down(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(tasks.import_state_list_task, "delay", down)
    with django_capture_on_commit_callbacks(execute=True):
        job = state_list_import_request(text=STATE_LIST, source_name="ca.csv", by=auditor)

    job.refresh_from_db()
    assert job.status == "failed" and "could not be queued" in job.error
    assert job.content is None


def test_an_import_whose_worker_died_is_marked_failed_by_the_sweep(auditor, clock):
    job = state_list_import_request(text=STATE_LIST, source_name="ca.csv", by=auditor)
    clock.set(clock.now.replace(hour=23))

    assert state_list_imports_fail_stalled() == [job.pk]
    job.refresh_from_db()
    assert job.status == "failed" and "worker was lost" in job.error


def test_the_compliance_screen_shows_the_import_and_what_it_added(
    client, auditor, django_capture_on_commit_callbacks
):
    client.force_login(auditor)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("law-exclusion-import"), {"file": upload(STATE_LIST)})

    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert b'data-status="done"' in page.content
    assert b"2 new entries added" in page.content


def test_the_compliance_screen_polls_an_import_still_running(client, auditor):
    client.force_login(auditor)
    response = client.post(reverse("law-exclusion-import"), {"file": upload(STATE_LIST)})

    page = client.get(response["Location"])
    assert b'data-status="pending"' in page.content and b'hx-trigger="every 1s"' in page.content


def test_the_compliance_screen_refuses_a_file_that_is_no_state_list_on_the_page(client, auditor):
    client.force_login(auditor)

    response = client.post(
        reverse("law-exclusion-import"), {"file": upload("kind,name,starts_on,shoe_size\n")}
    )

    assert response.status_code == 422
    assert b"Unknown columns: shoe_size" in response.content
    assert not ExclusionListImport.objects.exists()


@pytest.mark.skipif(
    bool(os.environ.get("REDIS_URL")), reason="the embedded default: no REDIS_URL, tasks inline"
)
@pytest.mark.django_db(transaction=True)
def test_on_the_embedded_default_the_import_is_done_when_the_request_answers(make_user):
    """Eager Celery and real commits (no test transaction around the request): the task ran
    on commit, inside the request, so the 202 already says done (with an Idempotency-Key the
    answer is stored in the same transaction, before the commit: it says pending, and the
    import is done when polled)."""
    from rest_framework.test import APIClient  # the plain client: no key of its own

    from core.roles import COMPLIANCE_AUDITOR
    from tests.api.conftest import token_for

    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {token_for(make_user('eager', role=COMPLIANCE_AUDITOR))}"
    )
    response = client.post(f"{V}/exclusions/import/", {"file": upload(STATE_LIST)})

    assert response.status_code == 202
    assert (response.json()["status"], response.json()["added"]) == ("done", 2)
    keyed = post_list(client, STATE_LIST.replace("CA-000", "NV-000"))  # with a key
    assert keyed.json()["status"] == "pending"
    polled = client.get(f"{V}/exclusions/import/{keyed.json()['id']}/").json()
    assert (polled["status"], polled["added"]) == ("done", 2)


def test_a_list_larger_than_the_body_limit_is_taken_as_a_file(auditor, settings):
    rows = "".join(f"barred,Person {n:05d},1970-01-01,,,,2026-01-01,,R-{n}\n" for n in range(8000))
    text = HEADER + rows
    assert len(text.encode()) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE  # a JSON body this big: 400

    response = post_list(token_client(auditor), text)

    assert response.status_code == 202, response.content[:300]
    assert response.json()["rows"] == 8000
