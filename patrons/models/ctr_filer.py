"""The filing institution of a cardroom's currency transaction reports: the details FinCEN's
CTR batch names it by (the filer, its contact office and the transmitter's control code)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .cardrooms import Cardroom

_USER = settings.AUTH_USER_MODEL


class CtrFiler(models.Model):
    """Who files a cardroom's CTRs with FinCEN: its legal name and EIN, its address, the office
    FinCEN calls with questions (and its phone), and the transmitter control code (TCC) FinCEN
    gave the transmitter of the batch files. A setting: compliance changes it, audited."""

    cardroom = models.OneToOneField(Cardroom, on_delete=models.PROTECT, related_name="ctr_filer")
    legal_name = models.CharField(max_length=150)
    ein = models.CharField(max_length=9)  # nine digits
    street = models.CharField(max_length=100)
    city = models.CharField(max_length=50)
    state = models.CharField(max_length=3)  # a US state's two-letter code
    zip_code = models.CharField(max_length=9)  # five or nine digits
    country = models.CharField(max_length=2, default="US")
    contact_office = models.CharField(max_length=150)
    phone = models.CharField(max_length=16)  # digits only
    phone_extension = models.CharField(max_length=6, blank=True)
    transmitter_contact = models.CharField(max_length=150)  # the person behind the batch files
    transmitter_tcc = models.CharField(max_length=8)  # FinCEN's transmitter control code
    updated_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name = "CTR filer"

    def __str__(self) -> str:
        return f"CTR filer of cardroom {self.cardroom_id}"
