"""The REST API's shared parts: errors, roles, idempotency, authentication."""
