"""A fill's or credit's signature chain, one endpoint per step: each person signs as
themselves in the request that signs (``{"secret"}``), the runner on the device in use
(``{"username", "secret"}``). The answer is the slip as it is now, with its steps. The
cardroom's slips awaiting a step (``?awaiting=prepared``): the cashier's list to work from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from cage import selectors, services
from cage.models import Slip, SlipStep
from cage.slip_selectors import slips_awaiting
from cardroom.api.base import ServiceView, actor
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import SecondSignatureIn, SignatureIn, signature_input
from core.errors import DomainError
from core.roles import CASHIER, COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR, TABLE_STAFF
from patrons.models import Cardroom

from .slips import SlipOut


class OwnSignatureIn(StrictSerializer):
    signature = SignatureIn(help_text="The person signed in signs with their password or PIN.")


class RunnerSignatureIn(StrictSerializer):
    signature = SecondSignatureIn(help_text="The runner signs: their username and secret.")


class _SlipStepView(ServiceView):
    moves_money = True
    input_serializer: ClassVar[type[StrictSerializer]] = OwnSignatureIn
    service: ClassVar[Callable[..., Any]]

    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        type(self).service(
            slip=get_object_or_404(Slip, pk=pk),
            signature=signature_input(request, data["signature"]),
            by=actor(request),
        )
        return Response(SlipOut(selectors.slips().get(pk=pk)).data)


@extend_schema(request=OwnSignatureIn, responses=SlipOut)
class SlipPrepare(_SlipStepView):
    """The cashier prepares a fill's chips at the cage and signs."""

    write_roles = (CASHIER,)
    service = services.slip_prepare


@extend_schema(request=RunnerSignatureIn, responses=SlipOut)
class SlipCarry(_SlipStepView):
    """The runner (a cashier or floor supervisor) takes the chips and signs, where the
    cardroom sets a runner."""

    write_roles = (CASHIER, FLOOR_SUPERVISOR)
    input_serializer = RunnerSignatureIn
    service = services.slip_carry


@extend_schema(request=OwnSignatureIn, responses=SlipOut)
class SlipDealerSign(_SlipStepView):
    """The dealer on duty at the table counts the chips and signs."""

    write_roles = TABLE_STAFF
    service = services.slip_dealer_sign


@extend_schema(request=OwnSignatureIn, responses=SlipOut)
class SlipSupervisorSign(_SlipStepView):
    """A floor supervisor signs: a fill's last step (the chips go into the rack)."""

    write_roles = (FLOOR_SUPERVISOR,)
    service = services.slip_supervisor_sign


@extend_schema(request=OwnSignatureIn, responses=SlipOut)
class SlipCageReceive(_SlipStepView):
    """The cashier receives a credit's chips at the cage and signs: its last step."""

    write_roles = (CASHIER,)
    service = services.slip_cage_receive


AWAITING = OpenApiParameter(
    "awaiting",
    str,
    enum=SlipStep.Name.values,
    description="The step the slips wait for (left out: every slip neither delivered nor void).",
)


class CardroomSlipsAwaiting(ServiceView):
    """The cardroom's slips still waiting for a step, oldest first: the cashier's fills to
    prepare and credits to receive, the runner's, the floor's."""

    read_roles = (CASHIER, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)

    @extend_schema(parameters=[AWAITING], responses=SlipOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        step = request.query_params.get("awaiting")
        if step is not None and step not in SlipStep.Name.values:
            steps = ", ".join(SlipStep.Name.values)
            raise DomainError(f"'{step}' is no step of a slip ({steps}).", field="awaiting")
        waiting = (
            slips_awaiting(step, cardroom=cardroom)
            if step
            else list(selectors.slips(cardroom=cardroom, waiting=True).order_by("id"))
        )
        return Response(SlipOut(waiting, many=True).data)
