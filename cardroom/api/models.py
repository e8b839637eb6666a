from django.conf import settings
from django.db import models


class IdempotencyKey(models.Model):
    """The first answer to a POST sent with an ``Idempotency-Key`` header, kept so that a retry
    with the same key and body gets the same answer and changes nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)  # SHA-256 of method, path and body
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key} -> {self.status_code}"
