"""Django's Redis cache, with one client per connection pool instead of one per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` around its pool on every
cache call; with redis-py's argument checks that was about 3% of an API request's CPU (the
token's cached role is read on every request). A ``redis.Redis`` holds no
connection of its own — its pool does, and it is safe to share between threads — so each pool
keeps its one client. After a fork the pool sees the new process and starts afresh.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(  # type: ignore[attr-defined]
                connection_pool=pool
            )
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
