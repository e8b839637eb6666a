"""A signature is an authentication (design.md 8): the person types their password or PIN at
the moment of signing; wrong secrets count and lock out like logins; one person never signs
a record twice; a person without the role, or whose account is not set up, never signs; and
no approval crosses a maker's line (R17 dual control)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.hashers import make_password
from django.utils import timezone

from audit.models import AuditEvent
from core.errors import DomainError, PermissionDenied
from core.roles import DEALER, FLOOR_SUPERVISOR
from tables import setup_links, signatures, staff, two_person
from tables.models import Signature, StaffProfile, TableSettings
from tables.services.setting_changes import setting_change_approve, setting_change_propose
from tables.signatures import SignatureInput, SignatureRefused, signature_verify
from tests.conftest import PASSWORD, signed

pytestmark = pytest.mark.django_db


@pytest.fixture
def change(dp_table, supervisor):
    return setting_change_propose(
        table=dp_table, values={"ante_min": "10"}, reason="Weekend", by=supervisor
    )


def _approve(change, who, secret):
    return setting_change_approve(
        change=change, signature=SignatureInput(who.username, secret), by=who
    )


def test_r17_an_approval_signed_with_the_password_keeps_the_signature(change, second_supervisor):
    version = _approve(change, second_supervisor, PASSWORD)
    [signature] = Signature.objects.all()
    assert (signature.record_type, signature.record_id) == ("tables.settingchange", change.pk)
    assert (signature.signer, signature.capacity, signature.method) == (
        second_supervisor,
        "approver",
        "password",
    )
    assert version.version == 2


def test_a_pin_signs_as_well_as_the_password(change, second_supervisor):
    signatures.pin_set(user=second_supervisor, password=PASSWORD, pin="4816", by=second_supervisor)
    _approve(change, second_supervisor, "4816")
    assert Signature.objects.get().method == "pin"


def test_a_wrong_secret_signs_nothing_and_is_counted_after_the_rollback(change, second_supervisor):
    with pytest.raises(SignatureRefused) as refused:
        _approve(change, second_supervisor, "1111")
    assert refused.value.field == "signature"
    change.refresh_from_db()
    assert change.status == "pending" and not Signature.objects.exists()
    assert TableSettings.objects.filter(table=change.table).count() == 1
    assert StaffProfile.objects.get(user=second_supervisor).signing_failures == 1
    assert AuditEvent.objects.filter(action="signature.failed").count() == 1


def test_five_wrong_secrets_lock_the_signer_out_even_with_the_right_one(change, second_supervisor):
    for _ in range(5):
        with pytest.raises(SignatureRefused):
            _approve(change, second_supervisor, "1111")
    with pytest.raises(SignatureRefused) as refused:
        _approve(change, second_supervisor, PASSWORD)
    assert "Too many wrong passwords or PINs" in refused.value.message
    profile = StaffProfile.objects.get(user=second_supervisor)
    assert profile.signing_locked_until > timezone.now()
    # The cool-off passes: the right secret signs, and the count starts again.
    profile.signing_locked_until = timezone.now() - timedelta(seconds=1)
    profile.save()
    _approve(change, second_supervisor, PASSWORD)
    assert StaffProfile.objects.get(user=second_supervisor).signing_failures == 0


def test_an_approver_signs_as_themselves_not_as_someone_else(change, second_supervisor, dealer):
    with pytest.raises(SignatureRefused) as refused:
        setting_change_approve(
            change=change, signature=SignatureInput(dealer.username, PASSWORD), by=second_supervisor
        )
    assert refused.value.message == "Sign as yourself, Gus Park."
    with pytest.raises(DomainError) as missing:
        setting_change_approve(change=change, signature=None, by=second_supervisor)
    assert missing.value.field == "signature"
    assert not Signature.objects.exists()


def test_one_person_never_signs_a_record_twice(second_supervisor):
    with pytest.raises(DomainError) as refused:
        signature_verify(
            signed(second_supervisor),
            capacity="witness",
            roles=(FLOOR_SUPERVISOR,),
            field="witness",
            signed_already=[second_supervisor],
        )
    assert refused.value.field == "witness"
    assert "is on this record already" in refused.value.message


def test_a_person_without_the_role_does_not_sign(dealer):
    with pytest.raises(DomainError) as refused:
        signature_verify(signed(dealer), capacity="approver", roles=(FLOOR_SUPERVISOR,), field="x")
    assert refused.value.message == "Dee Lee is not a floor supervisor: cannot sign."


def test_an_account_not_yet_set_up_or_deactivated_does_not_sign(make_user, supervisor):
    link = staff.staff_create(
        username="newbie", first_name="New", last_name="Bie", role=DEALER, by=supervisor
    )
    newbie = link.user
    newbie.set_password(PASSWORD)  # even if someone set one behind the link's back
    newbie.save()
    with pytest.raises(SignatureRefused) as refused:
        signature_verify(signed(newbie), capacity="dealer", roles=(DEALER,), field="dealer")
    assert "has not set up the account yet" in refused.value.message
    gone = make_user("gone", role=DEALER)
    gone.is_active = False
    gone.save()
    with pytest.raises(SignatureRefused):
        signature_verify(signed(gone), capacity="dealer", roles=(DEALER,), field="dealer")


def test_a_pin_is_digits_and_not_a_run_and_only_its_person_sets_it(dealer, supervisor):
    for weak in ("123", "12345678901234", "1111", "1234", "9876", "12a4", "١٢٣٤٥"):
        with pytest.raises(DomainError) as refused:
            signatures.pin_set(user=dealer, password=PASSWORD, pin=weak, by=dealer)
        assert refused.value.field == "pin", weak
    with pytest.raises(PermissionDenied):
        signatures.pin_set(user=dealer, password=PASSWORD, pin="4816", by=supervisor)
    with pytest.raises(DomainError) as wrong:
        signatures.pin_set(user=dealer, password="nope", pin="4816", by=dealer)
    assert wrong.value.field == "password"


# --- the maker's line -------------------------------------------------------------------------


@pytest.fixture
def floor3(supervisor, second_supervisor):
    """The account the supervisor proposed and a second supervisor approved, set up."""
    proposal = staff.staff_account_propose(
        username="floor3", first_name="Flo", last_name="Three", role=FLOOR_SUPERVISOR,
        reason="Nights", by=supervisor,
    )  # fmt: skip
    decision = two_person.change_approve(
        change=proposal, signature=signed(second_supervisor), by=second_supervisor
    )
    made = decision.result
    link = setup_links.setup_link(made)
    return setup_links.account_set_up(user=made, token=link.token, password=PASSWORD)


def test_r17_the_floor3_attack_an_account_never_approves_its_makers_change(
    floor3, supervisor, dp_table, change
):
    with pytest.raises(PermissionDenied) as refused:
        _approve(change, floor3, PASSWORD)
    assert "one maker's line" in refused.value.message
    change.refresh_from_db()
    assert change.status == "pending"


def test_r17_nor_does_the_maker_approve_the_accounts_change(floor3, supervisor, dp_table):
    theirs = setting_change_propose(
        table=dp_table, values={"ante_max": "50"}, reason="Quiet", by=floor3
    )
    with pytest.raises(PermissionDenied):
        _approve(theirs, supervisor, PASSWORD)


def test_r17_the_approver_of_an_account_is_on_its_line_too(floor3, second_supervisor, dp_table):
    theirs = setting_change_propose(
        table=dp_table, values={"ante_max": "50"}, reason="Quiet", by=floor3
    )
    with pytest.raises(PermissionDenied):
        _approve(theirs, second_supervisor, PASSWORD)


def test_r17_a_proposer_never_approves_their_own_staff_change(supervisor):
    proposal = staff.staff_account_propose(
        username="floor4", first_name="Flo", last_name="Four", role=FLOOR_SUPERVISOR,
        reason="Nights", by=supervisor,
    )  # fmt: skip
    with pytest.raises(PermissionDenied) as refused:
        two_person.change_approve(change=proposal, signature=signed(supervisor), by=supervisor)
    assert "needs a second person" in refused.value.message
    assert not staff.User.objects.filter(username="floor4").exists()


def test_a_decided_change_is_decided_once(supervisor, second_supervisor):
    proposal = staff.staff_account_propose(
        username="floor5", first_name="Flo", last_name="Five", role=FLOOR_SUPERVISOR,
        reason="Nights", by=supervisor,
    )  # fmt: skip
    two_person.change_reject(change=proposal, reason="Not needed", by=second_supervisor)
    with pytest.raises(Exception) as refused:
        two_person.change_approve(
            change=proposal, signature=signed(second_supervisor), by=second_supervisor
        )
    assert getattr(refused.value, "field", None) == "status"


def test_a_pin_hash_never_leaves_as_the_pin(dealer):
    profile = signatures.pin_set(user=dealer, password=PASSWORD, pin="4816", by=dealer)
    assert "4816" not in profile.pin and profile.pin != make_password("4816", salt="x")
    assert "4816" not in AuditEvent.objects.get(action="staff.pin_set").payload
