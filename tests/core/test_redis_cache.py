"""The Redis cache keeps one client per connection pool (core.redis_cache): the
same values as Django's, without building a client on every call. Needs the real Redis."""

from __future__ import annotations

import os

import pytest
from django.core.cache import caches

from core.redis_cache import RedisCache

pytestmark = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="the Redis cache needs Redis (REDIS_URL)"
)


def test_the_configured_cache_is_the_one_that_keeps_its_clients():
    assert isinstance(caches["default"], RedisCache)


def test_values_round_trip_and_every_call_uses_the_pools_one_client():
    cache = RedisCache(os.environ["REDIS_URL"], {"KEY_PREFIX": "cardroom-test-clients"})
    cache.set("k", {"role": "dealer", "n": 1}, 30)

    assert cache.get("k") == {"role": "dealer", "n": 1}
    assert cache.get_many(["k", "absent"]) == {"k": {"role": "dealer", "n": 1}}
    cache.delete("k")
    assert cache.get("k") is None

    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=True) is client
    assert client.connection_pool is cache._cache._get_connection_pool(True)
